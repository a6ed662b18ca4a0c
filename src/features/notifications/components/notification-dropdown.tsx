/**
 * §2 top-bar notification dropdown: a bell with the unread count; the list of unread
 * notifications; clicking one opens its modal, removes it from the list and marks it read.
 * The shell shows it on wide screens only and only in notification plants.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/icons';
import { useMarkNotificationRead, useUnreadNotifications } from '../api/notifications';
import { NotificationModal, type OpenNotification } from './notification-modal';
import { NotificationTime } from './notification-time';
import { localizedNotification } from '../text';
import type { DropdownEntry } from '../../../contract/notifications';
import '../../../components/ui/popover.css';
import '../notifications.css';

const BADGE_MAX = 99;

export function NotificationDropdown({ userEmail }: { userEmail: string }) {
  const { t } = useTranslation();
  // #19 item 22: a server-made text in the user's language (subject, or an SMS's body), else as stored.
  const entryText = (entry: DropdownEntry) => {
    const local = localizedNotification(entry.text, t);
    if (!local) return entry.notification_text;
    return (entry.notification_type === 'sms' ? local.body : local.subject).slice(0, 200);
  };
  const [expanded, setExpanded] = useState(false);
  const [open, setOpen] = useState<OpenNotification | null>(null);
  const { unread, unreadCount, refetch } = useUnreadNotifications(userEmail, true);
  const markRead = useMarkNotificationRead(userEmail);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!expanded) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setExpanded(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setExpanded(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [expanded]);

  const count = unreadCount;
  const label = count > 0 ? t('notifications.dropdownLabelUnread', { count }) : t('notifications.dropdownLabel');

  return (
    <div className="notification-dropdown" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button notification-bell"
        aria-label={label}
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => {
          // Opening the list reads it again: what arrived since the last read is in it.
          if (!expanded) void refetch();
          setExpanded((value) => !value);
        }}
      >
        <Icon name="notifications" />
        {count > 0 && (
          <span className="notification-badge" aria-hidden="true">
            {count > BADGE_MAX ? `${BADGE_MAX}+` : count}
          </span>
        )}
      </button>
      {expanded && (
        <div className="popover notification-popup" id={listId} role="region" aria-label={t('notifications.unreadTitle')}>
          <div className="notification-popup-head">
            <strong>{t('notifications.unreadTitle')}</strong>
            <Link to="/notifications" onClick={() => setExpanded(false)}>
              {t('notifications.showAll')}
            </Link>
          </div>
          {count === 0 ? (
            <p className="muted notification-empty">{t('notifications.noUnread')}</p>
          ) : (
            <ul className="notification-entries">
              {unread.map((entry) => (
                <li key={`${entry.notification_type}-${entry.id}`}>
                  <button
                    type="button"
                    className="notification-entry"
                    onClick={() => {
                      setExpanded(false);
                      // Offline the whole notification may not be on the device: the modal shows what this entry showed.
                      setOpen({ channel: entry.notification_type, id: entry.id, preview: { text: entryText(entry), key: entry.notification_key, created: entry.created } });
                      void markRead(entry.notification_type, entry.id).catch((error: unknown) => console.warn('Marking a notification read failed', error));
                    }}
                  >
                    <span className={`notification-type type-${entry.notification_type}`}>{t(`notifications.channel.${entry.notification_type}`)}</span>
                    <span className="notification-entry-text">{entryText(entry)}</span>
                    <span className="notification-entry-meta">
                      {t(`notifications.key.${entry.notification_key}`)} · <NotificationTime iso={entry.created} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <NotificationModal
        userEmail={userEmail}
        open={open}
        onClose={() => {
          setOpen(null);
          // The entry that opened it closed with the list: focus goes back to the bell.
          buttonRef.current?.focus();
        }}
      />
    </div>
  );
}
