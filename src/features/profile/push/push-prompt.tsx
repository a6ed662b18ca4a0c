/**
 * §2 push permission. The prompt (Yes / No / Never) appears in browsers that ask only from a click
 * (Safari, the iOS home-screen app, Firefox) when either recipient has push enabled, the permission
 * is undecided and the prompt was not answered before; Never is remembered on the device. Yes asks
 * the browser (inside the click) and registers the device token. Chromium browsers are asked once a
 * session with their own bubble, which moves nothing on the screen (the settings' Save asks too).
 * Blocked in the browser's settings, it says nothing here: the settings say it next to the switch.
 * With permission granted, this device's token is refreshed and marked signed in, at every start
 * and when the service worker says the browser renewed the subscription. Sign-out drops this
 * browser's push subscription and marks the device logged out (registered here).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onBeforeSignOut } from '../../../lib/auth/use-session';
import { useQueryClient } from '@tanstack/react-query';
import { settingsQueries, useNotificationSettings } from '../api/notification-settings';
import { needsGestureForPermission, PROMPT_KEY, pushAction, pushWanted } from './device';
import { markThisDeviceSignedOut, registerThisDevice, unsubscribeThisDevice, useNotificationPermission } from './push-registration';
import '../profile.css';

const ANSWERED_THIS_SESSION = 'promptNotification.session';
/** sw/push-subscription.ts: the browser renewed the push subscription, its FCM token is stale. */
const PUSH_SUBSCRIPTION_CHANGED = 'PUSH_SUBSCRIPTION_CHANGED';

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
  // Either recipient: the server sends a push for the secondary's setting too.
  const wanted = pushWanted(settings.data?.notification_settings);
  const [answered, setAnswered] = useState(
    () => localStorage.getItem(PROMPT_KEY) === 'never' || sessionStorage.getItem(ANSWERED_THIS_SESSION) !== null,
  );
  const action = pushAction(wanted, useNotificationPermission());

  // A registration wrote this device's new token and sign-in (its own row only, decision 0068):
  // the settings copy is read again to show them. The settings' revision did not move, so a form
  // open meanwhile still saves (it writes the devices' switches only, not this token).
  const queryClient = useQueryClient();
  const registered = (done: boolean) => {
    if (done) void queryClient.invalidateQueries({ queryKey: settingsQueries.all() });
    return done;
  };
  // A browser that asks with its own bubble (Chromium) is asked once a session, with no prompt of
  // ours pushing the screen down; the others only from the prompt's Yes (a click).
  const gestureOnly = needsGestureForPermission();
  useEffect(() => {
    if (action !== 'ask' || gestureOnly || answered) return;
    sessionStorage.setItem(ANSWERED_THIS_SESSION, 'asked');
    void Notification.requestPermission()
      .then((result) => (result === 'granted' ? registerThisDevice(uid).then(registered) : false))
      .catch((error: unknown) => console.warn('Push permission request failed', error));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [action, gestureOnly, answered, uid]);
  useEffect(() => {
    if (action !== 'register') return;
    const register = () =>
      void registerThisDevice(uid)
        .then(registered)
        .catch((error: unknown) => console.warn('Registering this device for push failed', error));
    register();
    // The browser renewed the subscription while the app is open: its token is registered now,
    // not at the next start.
    const worker = navigator.serviceWorker;
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === PUSH_SUBSCRIPTION_CHANGED) register();
    };
    worker.addEventListener('message', onMessage);
    return () => worker.removeEventListener('message', onMessage);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [action, uid]);

  if (action !== 'ask' || !gestureOnly || answered) return null;

  const answer = (value: 'yes' | 'no' | 'never') => {
    setAnswered(true);
    sessionStorage.setItem(ANSWERED_THIS_SESSION, value);
    if (value === 'never') localStorage.setItem(PROMPT_KEY, 'never');
    if (value === 'yes') {
      // Inside the click: Safari allows the permission request only here, Firefox ignores one without it.
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
