/**
 * The modal of one notification, by type (§2): e-mail (recipient, subject, body), SMS (e-mail,
 * phone number, body), push (e-mail, title, message). Bodies render their links, nothing else.
 */
import { useTranslation } from 'react-i18next';
import type { NotificationChannel, NotificationKey } from '../../../contract/notifications';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useNotificationItem, type ItemByChannel } from '../api/notifications';
import { LinkifiedText } from './linkified-text';
import { NotificationTime } from './notification-time';
import { useNotificationWords } from '../text';

export interface OpenNotification {
  channel: NotificationChannel;
  id: number;
  /** What the entry that opened it showed (the bell's list): shown when the whole notification cannot be read, e.g. offline. */
  preview?: { text: string; key: NotificationKey; created: string };
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="notification-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Fields({ channel, item }: { channel: NotificationChannel; item: ItemByChannel[NotificationChannel] }) {
  const { t } = useTranslation();
  const words = useNotificationWords();
  // #19 item 22: a server-made text in the user's language, else as stored.
  const stored = channel === 'email' ? (item as ItemByChannel['email']).subject : channel === 'push' ? (item as ItemByChannel['push']).title : null;
  const shown = words(item.text, { headline: stored ?? (channel === 'sms' ? null : ''), body: item.message });
  if (channel === 'email') {
    const email = item as ItemByChannel['email'];
    return (
      <>
        <Field label={t('notifications.field.recipient')}>{email.recipient ?? email.user_email}</Field>
        <Field label={t('notifications.field.subject')}>{shown.headline ?? ''}</Field>
        <Field label={t('notifications.field.body')}>
          <LinkifiedText text={shown.body} className="linkified notification-body" />
        </Field>
      </>
    );
  }
  if (channel === 'sms') {
    const sms = item as ItemByChannel['sms'];
    return (
      <>
        <Field label={t('notifications.field.email')}>{sms.user_email}</Field>
        <Field label={t('notifications.field.phoneNumber')}>{sms.phone_number ?? ''}</Field>
        <Field label={t('notifications.field.body')}>
          <LinkifiedText text={shown.body} className="linkified notification-body" />
        </Field>
      </>
    );
  }
  const push = item as ItemByChannel['push'];
  return (
    <>
      <Field label={t('notifications.field.email')}>{push.user_email}</Field>
      <Field label={t('notifications.field.title')}>{shown.headline ?? ''}</Field>
      <Field label={t('notifications.field.message')}>
        <LinkifiedText text={shown.body} className="linkified notification-body" />
      </Field>
    </>
  );
}

export function NotificationModal({ userEmail, open, onClose }: { userEmail: string; open: OpenNotification | null; onClose: () => void }) {
  const { t } = useTranslation();
  const item = useNotificationItem(userEmail, open?.channel ?? 'email', open?.id ?? null);
  const online = useOnline();
  const channel = open?.channel ?? 'email';
  return (
    <Dialog open={open !== null} title={t(`notifications.modalTitle.${channel}`)} onClose={onClose}>
      {item.data ? (
        <>
          <p className="muted small">
            <NotificationTime iso={item.data.created} />
          </p>
          <dl className="notification-fields">
            <Fields channel={channel} item={item.data} />
          </dl>
        </>
      ) : (item.isError || !online) && open?.preview ? (
        <>
          <p className="muted small">
            <NotificationTime iso={open.preview.created} /> · {t(`notifications.key.${open.preview.key}`)}
          </p>
          <LinkifiedText text={open.preview.text} className="linkified notification-body" />
          <p className="muted small">{online ? t('notifications.notLoaded') : t('common.loadOffline')}</p>
        </>
      ) : item.isError ? (
        <p className="form-error">{t('notifications.notLoaded')}</p>
      ) : (
        <Spinner label={t('notifications.loading')} />
      )}
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose} autoFocus>
          {t('common.close')}
        </button>
      </div>
    </Dialog>
  );
}
