/**
 * §2/§3 notification settings: a primary and a secondary recipient (e-mail, mobile number, push),
 * per-type preferences (e-mail / SMS / push for each of the four keys) and "all" per recipient.
 * §5 checks run as the user types (same rules as the server, from the contract); the server's
 * answer is the final word and its message is shown next to the Save button. A save names the
 * revision its edit started from (decision 0068): when the settings were saved elsewhere since
 * (the user's phone, a supervisor), nothing is saved, the message says so and the settings are
 * read again, as they are now, for the change to be made on them.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isSameMobileNumber,
  isValidEmailFormat,
  isValidMobileNumber,
  type NotificationKey,
  type NotificationPreference,
  type NotificationSettingsEntry,
} from '../../../contract/notifications';
import { refusedDomain } from '../../../domain/email';
import { errorMessage } from '../../../lib/api-client';
import { useNotificationTypes, type NotificationType } from '../../../lib/notification-types';
import { LoadError } from '../../../components/ui/load-error';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { isNotificationSettingsChangedMeanwhile, useNotificationSettings, useSaveNotificationSettings } from '../api/notification-settings';
import { deviceId, pushAction, pushWanted, shownDeviceName } from '../push/device';
import { notificationPermission, registerThisDevice, useNotificationPermission } from '../push/push-registration';
import '../profile.css';
import { useUnsavedText } from '../../../lib/unsaved-text';
import { changedDraft, rebasedDraft, type SettingsDraft } from './settings-draft';

type Channel = keyof NotificationPreference;
const CHANNELS: Channel[] = ['emailEnabled', 'smsEnabled', 'pushEnabled'];

interface EntryErrors {
  email?: string;
  mobileNumber?: string;
}

function entryErrors(entry: NotificationSettingsEntry, t: (key: string) => string): EntryErrors {
  const errors: EntryErrors = {};
  const email = entry.email?.trim() ?? '';
  if ((entry.emailEnabled || email) && !isValidEmailFormat(email)) errors.email = t('profile.emailInvalid');
  const mobile = entry.mobileNumber?.trim() ?? '';
  if ((entry.mobileEnabled || mobile) && !isValidMobileNumber(mobile)) errors.mobileNumber = t('profile.mobileInvalid');
  return errors;
}

function EntryEditor({
  entry,
  errors,
  isOwn,
  pushBlocked,
  types,
  onChange,
  level,
}: {
  entry: NotificationSettingsEntry;
  errors: EntryErrors;
  isOwn: boolean;
  /** The user's own settings, and this browser blocks notifications (its settings, not ours). */
  pushBlocked: boolean;
  /** Its heading's level: one below the heading the form sits under (h2 on its own screen, h3 on the profile). */
  level: 2 | 3;
  /** The types the server lists (GET notifications/list_keys, #19 item 10). */
  types: NotificationType[];
  onChange: (entry: NotificationSettingsEntry) => void;
}) {
  const { t } = useTranslation();
  const which = entry.primary ? 'primary' : 'secondary';
  const Heading = level === 2 ? 'h2' : 'h3';
  const id = (name: string) => `${which}-${name}`;
  const preferences = entry.notificationsPreferences;
  const values = types.flatMap(({ key }) => CHANNELS.map((channel) => preferences[key][channel]));
  const allOn = values.every(Boolean);
  const someOn = values.some(Boolean);
  const setAll = (on: boolean) =>
    onChange({
      ...entry,
      notificationsPreferences: {
        ...preferences,
        ...Object.fromEntries(types.map(({ key }) => [key, { emailEnabled: on, smsEnabled: on, pushEnabled: on }])),
      },
    });
  const setPreference = (key: NotificationKey, channel: Channel, on: boolean) =>
    onChange({ ...entry, notificationsPreferences: { ...preferences, [key]: { ...preferences[key], [channel]: on } } });
  // Push on, and this browser would show none of it: said where it is switched on, not just "Saved".
  const blocked = pushBlocked && entry.pushNotificationsEnabled;

  return (
    <fieldset className="settings-entry">
      <legend className="visually-hidden">{t(`profile.${which}`)}</legend>
      <Heading>{t(`profile.${which}`)}</Heading>
      <p className="muted small">{t(`profile.${which}Hint`)}</p>

      <div className="settings-channel">
        <label className="toggle">
          <input type="checkbox" checked={entry.emailEnabled} onChange={(event) => onChange({ ...entry, emailEnabled: event.target.checked })} />
          <span>{t('profile.emailEnabled')}</span>
        </label>
        <label htmlFor={id('email')} className="visually-hidden">
          {t('profile.emailAddress')}
        </label>
        <input
          id={id('email')}
          type="email"
          autoComplete="email"
          placeholder={t('profile.emailAddress')}
          value={entry.email ?? ''}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? id('email-error') : undefined}
          onChange={(event) => onChange({ ...entry, email: event.target.value })}
        />
        {errors.email && (
          <span id={id('email-error')} className="field-error">
            {errors.email}
          </span>
        )}
      </div>

      <div className="settings-channel">
        <label className="toggle">
          <input type="checkbox" checked={entry.mobileEnabled} onChange={(event) => onChange({ ...entry, mobileEnabled: event.target.checked })} />
          <span>{t('profile.smsEnabled')}</span>
        </label>
        <label htmlFor={id('mobile')} className="visually-hidden">
          {t('profile.mobileNumber')}
        </label>
        <input
          id={id('mobile')}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder={t('profile.mobilePlaceholder')}
          value={entry.mobileNumber ?? ''}
          aria-invalid={errors.mobileNumber ? true : undefined}
          aria-describedby={errors.mobileNumber ? id('mobile-error') : undefined}
          onChange={(event) => onChange({ ...entry, mobileNumber: event.target.value })}
        />
        {errors.mobileNumber && (
          <span id={id('mobile-error')} className="field-error">
            {errors.mobileNumber}
          </span>
        )}
      </div>

      <label className="toggle">
        <input
          type="checkbox"
          checked={entry.pushNotificationsEnabled}
          aria-describedby={blocked ? id('push-blocked') : undefined}
          onChange={(event) => onChange({ ...entry, pushNotificationsEnabled: event.target.checked })}
        />
        <span>{t('profile.pushEnabled')}</span>
      </label>
      {blocked && (
        <p id={id('push-blocked')} className="small warning-text">
          {t('profile.pushBlocked')}
        </p>
      )}

      <label className="toggle">
        <input
          type="checkbox"
          checked={allOn}
          ref={(element) => {
            if (element) element.indeterminate = someOn && !allOn;
          }}
          onChange={(event) => setAll(event.target.checked)}
        />
        <span>{t('profile.toggleAll')}</span>
      </label>

      {/* A small phone scrolls the table inside its card, not the page (Finnish channel names). */}
      <div className="preferences-scroll">
        <table className="preferences-table">
          <caption className="visually-hidden">{t('profile.preferencesCaption', { recipient: t(`profile.${which}`) })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('profile.type')}</th>
              <th scope="col">{t('profile.channelEmail')}</th>
              <th scope="col">{t('profile.channelSms')}</th>
              <th scope="col">{t('profile.channelPush')}</th>
            </tr>
          </thead>
          <tbody>
            {types.map(({ key, title }) => (
              <tr key={key}>
                <th scope="row">{t(`profile.key.${key}`, { defaultValue: title })}</th>
                {CHANNELS.map((channel) => (
                  <td key={channel}>
                    <label>
                      <input type="checkbox" checked={preferences[key][channel]} onChange={(event) => setPreference(key, channel, event.target.checked)} />
                      <span className="visually-hidden">
                        {t('profile.preferenceLabel', { type: t(`profile.key.${key}`, { defaultValue: title }), channel: t(`profile.channel.${channel}`), recipient: t(`profile.${which}`) })}
                      </span>
                    </label>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {entry.primary && entry.pushNotificationsSettings.length > 0 && (
        <div>
          <h4 className="field-label">{t('profile.devices')}</h4>
          {/* The server keeps a user's devices as that user set them: another's switch would not be saved. */}
          {!isOwn && (
            <p className="muted small" id="devices-own-only">
              {t('profile.devicesOwnOnly')}
            </p>
          )}
          <ul className="device-list">
            {entry.pushNotificationsSettings.map((device) => (
              <li key={device.deviceId}>
                <label className="toggle">
                  <input
                    type="checkbox"
                    checked={device.isEnabled}
                    disabled={!isOwn}
                    aria-describedby={isOwn ? undefined : 'devices-own-only'}
                    onChange={(event) =>
                      onChange({
                        ...entry,
                        pushNotificationsSettings: entry.pushNotificationsSettings.map((d) =>
                          d.deviceId === device.deviceId ? { ...d, isEnabled: event.target.checked } : d,
                        ),
                      })
                    }
                  />
                  <span>{shownDeviceName(device.deviceName) || t('profile.unknownDevice')}</span>
                </label>
                {isOwn && device.deviceId === deviceId() && <span className="status-chip">{t('profile.thisDevice')}</span>}
                <span className="muted small">{device.isLoggedIn ? t('profile.signedIn') : t('profile.signedOut')}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </fieldset>
  );
}

export function NotificationSettingsForm({ uid, userEmail, isOwn, level = 3 }: { uid: string; userEmail: string; isOwn: boolean; level?: 2 | 3 }) {
  const { t } = useTranslation();
  const settings = useNotificationSettings(userEmail, uid);
  const save = useSaveNotificationSettings(userEmail, uid);
  const types = useNotificationTypes(userEmail);
  // The revision the edit started from goes with it: the settings read again meanwhile (a
  // reconnection, the push registration) must not make a save of the older edit look current.
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const [status, setStatus] = useState<{ kind: 'saving' | 'saved' | 'savedNoPush' | 'savedPushBlocked' } | { kind: 'error'; message: string } | null>(null);
  const permission = useNotificationPermission();
  // Another `?uid=` (a colleague in the team list, Back to own, the browser's Back) is another form.
  useUnsavedText(draft !== null, { tiedToQuery: true });

  if (!settings.data) {
    // A refusal (another plant's user, one ranking above) says why, not "try again later".
    return settings.isError ? <LoadError error={settings.error} /> : <Spinner label={t('profile.loadingSettings')} />;
  }
  const loaded = settings.data;
  const entries = draft?.entries ?? loaded.notification_settings;
  const errors = entries.map((entry) => entryErrors(entry, t));
  const hasErrors = errors.some((e) => e.email || e.mobileNumber);
  // §5 digits-only comparison: the secondary number is the primary's, however it is written.
  const [first, second] = entries;
  const isSameNumber = !!first && !!second && first.mobileEnabled && second.mobileEnabled && isSameMobileNumber(first.mobileNumber, second.mobileNumber);
  const change = (index: number, entry: NotificationSettingsEntry) => {
    setStatus(null);
    setDraft(changedDraft(draft, loaded, entries.map((current, i) => (i === index ? entry : current))));
  };

  const onSave = async () => {
    if (hasErrors) return;
    // Either recipient's push registers this device (the server sends for both). Safari lets a
    // page ask for notification permission only inside a click, Firefox ignores an ask without
    // one: ask before awaiting.
    const asked = pushAction(isOwn && pushWanted(entries), notificationPermission()) === 'ask' ? Notification.requestPermission() : null;
    setStatus({ kind: 'saving' });
    let saved: Awaited<ReturnType<typeof save>>;
    try {
      // The editors are read-only while this is on its way (the fieldset below): an edit made
      // meanwhile would be dropped with the draft when the answer comes.
      saved = await save(entries, draft?.revision);
    } catch (error) {
      const message = await errorMessage(error);
      if (await isNotificationSettingsChangedMeanwhile(error)) {
        // Saved elsewhere since: the settings are read again and the user's changes carried onto
        // them (what the other save changed stays, decision 0069); nothing typed is lost, and the
        // next Save names the new revision. Nothing of the user's left: the settings as they are.
        const now = (await settings.refetch()).data?.data;
        const rebased = draft && now ? rebasedDraft(draft, now) : null;
        setDraft(rebased);
        setStatus({ kind: 'error', message: rebased ? t('profile.settingsChangedKept') : message });
        return;
      }
      // §5's domain refusal in the user's language (the other checks run as the user types).
      const domain = refusedDomain(message);
      setStatus({ kind: 'error', message: domain ? t('profile.emailDomainNotSupported', { domain }) : message });
      return;
    }
    setDraft(null);
    setStatus({ kind: 'saved' });
    // Registering this device for push is a call of its own: its failure is not the save's.
    try {
      const push = pushAction(isOwn && pushWanted(saved.notification_settings), asked ? await asked : notificationPermission());
      if (push === 'blocked') setStatus({ kind: 'savedPushBlocked' });
      else if (push === 'register' && (await registerThisDevice(uid))) await settings.refetch();
    } catch (error) {
      console.warn('Registering this device for push failed', error);
      setStatus({ kind: 'savedNoPush' });
    }
  };

  return (
    <form
      className="profile-grid"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSave();
      }}
    >
      {/* The device's copy (no connection): said, with when it was saved, as on the lists. */}
      {settings.isOfflineCopy && <OfflineBanner savedAt={settings.savedAt} />}
      <fieldset className="settings-entries" disabled={status?.kind === 'saving'}>
        {entries.map((entry, index) => (
          <EntryEditor
            key={entry.primary ? 'primary' : 'secondary'}
            entry={entry}
            errors={errors[index]!}
            isOwn={isOwn}
            pushBlocked={isOwn && permission === 'denied'}
            types={types}
            level={level}
            onChange={(next) => change(index, next)}
          />
        ))}
      </fieldset>
      {isSameNumber && (
        <p className="notice" role="status">
          {t('profile.sameMobileNumber')}
        </p>
      )}
      <div className={`settings-actions${draft !== null ? ' dirty' : ''}`}>
        <button type="submit" className="button primary" disabled={hasErrors || status?.kind === 'saving' || draft === null}>
          {t('profile.save')}
        </button>
        {draft !== null && (
          <button
            type="button"
            className="button"
            // Not while saving: it would unlock the fields, and the answer would drop what is typed then.
            disabled={status?.kind === 'saving'}
            onClick={() => {
              setDraft(null);
              setStatus(null);
            }}
          >
            {t('common.cancel')}
          </button>
        )}
        <span role="status" aria-live="polite">
          {status?.kind === 'saving' && t('profile.saving')}
          {status?.kind === 'saved' && <span className="success-text">{t('profile.saved')}</span>}
          {status?.kind === 'savedNoPush' && <span className="warning-text">{t('profile.savedPushNotRegistered')}</span>}
          {status?.kind === 'savedPushBlocked' && <span className="warning-text">{t('profile.savedPushBlocked')}</span>}
        </span>
      </div>
      {status?.kind === 'error' && (
        <p className="form-error" role="alert">
          {status.message}
        </p>
      )}
    </form>
  );
}
