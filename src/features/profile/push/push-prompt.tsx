/**
 * §2 push permission. The prompt (Yes / No / Never) appears only in the browser that allows
 * asking from a user gesture only (Safari, also the iOS home-screen app), when the primary
 * setting has push enabled, the permission is undecided and the prompt was not answered before;
 * Never is remembered on the device. Yes asks the browser (inside the click) and registers the
 * device token. Other browsers are asked directly. With permission granted, this device's token
 * is refreshed and marked signed in. Sign-out drops this browser's push subscription and marks the
 * device logged out (registered here).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onBeforeSignOut } from '../../../lib/auth/use-session';
import { useQueryClient } from '@tanstack/react-query';
import { settingsQueries, useNotificationSettings } from '../api/notification-settings';
import { needsGestureForPermission, PROMPT_KEY } from './device';
import { markThisDeviceSignedOut, pushSupported, registerThisDevice, unsubscribeThisDevice } from './push-registration';
import '../profile.css';

const ANSWERED_THIS_SESSION = 'promptNotification.session';

/**
 * Sign-out marks this device signed out (its pushes stop), from the start: the prompt below
 * mounts only once the first screen is drawn (#22), and a sign-out may come before that.
 */
export function useSignOutMarksThisDevice(uid: string, active: boolean): void {
  useEffect(
    () =>
      active
        ? onBeforeSignOut(async () => {
            // Both at once within the sign-out's few seconds: on the device (no connection needed) and the server's mark.
            await Promise.all([
              unsubscribeThisDevice().catch((error: unknown) => console.warn('Dropping the push subscription failed', error)),
              markThisDeviceSignedOut(uid),
            ]);
          })
        : undefined,
    [uid, active],
  );
}

export function PushPermission({ uid, userEmail }: { uid: string; userEmail: string }) {
  const { t } = useTranslation();
  const settings = useNotificationSettings(userEmail, uid);
  const primaryPush = settings.data?.notification_settings.find((entry) => entry.primary)?.pushNotificationsEnabled ?? false;
  const [answered, setAnswered] = useState(
    () => localStorage.getItem(PROMPT_KEY) === 'never' || sessionStorage.getItem(ANSWERED_THIS_SESSION) !== null,
  );
  const permission = pushSupported() ? Notification.permission : 'denied';
  const gestureOnly = needsGestureForPermission();

  // A registration wrote this device's new token and sign-in: the settings copy is read again, or
  // a save of the form would send the old ones back for this device (decision 0062's X-Device-Id).
  const queryClient = useQueryClient();
  const registered = (done: boolean) => {
    if (done) void queryClient.invalidateQueries({ queryKey: settingsQueries.all() });
    return done;
  };
  useEffect(() => {
    if (!primaryPush || !pushSupported()) return;
    if (permission === 'granted') {
      void registerThisDevice(uid)
        .then(registered)
        .catch((error: unknown) => console.warn('Registering this device for push failed', error));
    } else if (permission === 'default' && !gestureOnly && !answered) {
      sessionStorage.setItem(ANSWERED_THIS_SESSION, 'asked');
      void Notification.requestPermission().then((result) => (result === 'granted' ? registerThisDevice(uid).then(registered) : false));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [primaryPush, permission, gestureOnly, answered, uid]);

  if (!primaryPush || !gestureOnly || permission !== 'default' || answered) return null;

  const answer = (value: 'yes' | 'no' | 'never') => {
    setAnswered(true);
    sessionStorage.setItem(ANSWERED_THIS_SESSION, value);
    if (value === 'never') localStorage.setItem(PROMPT_KEY, 'never');
    if (value === 'yes') {
      // Inside the click: Safari allows the permission request only here.
      void Notification.requestPermission()
        .then((result) => (result === 'granted' ? registerThisDevice(uid).then(registered) : false))
        .catch((error: unknown) => console.warn('Push permission request failed', error));
    }
  };

  return (
    <div className="push-prompt" role="region" aria-labelledby="push-prompt-text">
      <span id="push-prompt-text">{t('profile.pushPrompt')}</span>
      <div className="push-prompt-actions">
        <button type="button" className="button primary" onClick={() => answer('yes')}>
          {t('profile.pushPromptYes')}
        </button>
        <button type="button" className="button" onClick={() => answer('no')}>
          {t('profile.pushPromptNo')}
        </button>
        <button type="button" className="button" onClick={() => answer('never')}>
          {t('profile.pushPromptNever')}
        </button>
      </div>
    </div>
  );
}
