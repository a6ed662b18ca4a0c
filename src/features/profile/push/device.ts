/**
 * This browser as a push device (§3 pushNotificationsSettings, §3 local storage keys): a random
 * deviceId kept locally, and a deviceName "OS / browser" the user recognises in the settings. A
 * part the browser does not tell is left out ("Android", "Chrome"), and a name with neither is
 * empty: the settings word that in the user's language (profile.unknownDevice), not in English.
 */
export const DEVICE_ID_KEY = 'deviceId';
/** One home for the key: lib's sign-out drops it too. */
export { PUSH_TOKEN_KEY as FCM_TOKEN_KEY } from '../../../lib/auth/use-session';
export const PROMPT_KEY = 'promptNotification';

export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_ID_KEY);
  if (!id || !/^\d{6,20}$/.test(id)) {
    // §3: a random number. 15 digits from the crypto source: unique enough per user.
    const digits = crypto.getRandomValues(new Uint32Array(2));
    id = `${digits[0]! % 1_000_000_000}${String(digits[1]! % 1_000_000).padStart(6, '0')}`.padStart(15, '1');
    localStorage.setItem(DEVICE_ID_KEY, id);
  }
  return id;
}

export function deviceName(userAgent: string = navigator.userAgent, maxTouchPoints: number = navigator.maxTouchPoints ?? 0): string {
  const os = /iPhone|iPod/.test(userAgent)
    ? 'iOS'
    : /iPad/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1)
      ? 'iPadOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Mac OS X|Macintosh/.test(userAgent)
            ? 'macOS'
            : /CrOS/.test(userAgent)
              ? 'ChromeOS'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : '';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\/|Opera/.test(userAgent)
      ? 'Opera'
      : /SamsungBrowser/.test(userAgent)
        ? 'Samsung Internet'
        : /Firefox\/|FxiOS/.test(userAgent)
          ? 'Firefox'
          : /Chrome\/|CriOS/.test(userAgent)
            ? 'Chrome'
            : /Safari\//.test(userAgent)
              ? 'Safari'
              : '';
  return [os, browser].filter(Boolean).join(' / ');
}

/** The English a device name held for what it did not know, before it was left out (older registrations). */
const UNKNOWN_PARTS = ['Unknown OS', 'Unknown browser'];

/**
 * A stored device name as the settings show it: without the English "Unknown OS" / "Unknown
 * browser" older registrations hold ("Unknown OS / Chrome" is "Chrome"); '' when nothing is known,
 * for the form to say "unknown device" in the user's language.
 */
export function shownDeviceName(stored: string): string {
  return stored
    .split(' / ')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !UNKNOWN_PARTS.includes(part))
    .join(' / ');
}

/**
 * Whether this browser asks for notification permission only from a user's click: Safari (the iOS
 * home-screen app too) refuses an ask without one, Firefox ignores it. Chromium browsers ask with
 * their own quiet bubble, which moves nothing on the screen.
 */
export function needsGestureForPermission(userAgent: string = navigator.userAgent): boolean {
  const isIos = /iPhone|iPad|iPod/.test(userAgent);
  const isSafari = /Safari\//.test(userAgent) && !/Chrome\/|Chromium\/|Edg\/|OPR\/|Android/.test(userAgent);
  const isFirefox = /Firefox\/|FxiOS/.test(userAgent);
  return isIos || isSafari || isFirefox;
}

/** The browser's notification permission, or 'unsupported' (no Notification, service worker or PushManager). */
export type PushPermissionState = NotificationPermission | 'unsupported';

/**
 * Whether this device is wanted for push: either entry (primary or secondary recipient) has push
 * on, as the server records a push for either (server/notifications/record.ts).
 */
export function pushWanted(entries: ReadonlyArray<{ pushNotificationsEnabled: boolean }> | undefined): boolean {
  return entries?.some((entry) => entry.pushNotificationsEnabled) ?? false;
}

/**
 * What push on this device needs: register the token (permission granted), ask the browser (only
 * from a click: the prompt's Yes or the settings' Save; Firefox ignores an ask without one and
 * Safari refuses it), say that it is blocked in this browser's settings, or nothing.
 */
export function pushAction(wanted: boolean, permission: PushPermissionState): 'register' | 'ask' | 'blocked' | 'none' {
  if (!wanted) return 'none';
  return permission === 'granted' ? 'register' : permission === 'default' ? 'ask' : permission === 'denied' ? 'blocked' : 'none';
}
