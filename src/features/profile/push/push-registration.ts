/**
 * Push on this device: Firebase Cloud Messaging on OUR service worker registration (one worker,
 * one scope: the push subscription belongs to sw/sw.ts, which shows the messages itself).
 * Firebase is loaded only when it is configured (VITE_FIREBASE_* and VITE_FIREBASE_VAPID_KEY);
 * without it no token exists and nothing is registered (logged, §8).
 */
import { useSyncExternalStore } from 'react';
import { appConfig } from '../../../lib/config';
import { dropPushSubscription } from '../../../lib/auth/use-session';
import { registerPushDevice, signOutPushDevice } from '../api/notification-settings';
import { deviceName, FCM_TOKEN_KEY, type PushPermissionState } from './device';

const vapidKey = import.meta.env.VITE_FIREBASE_VAPID_KEY?.trim() || null;

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window;
}

export function notificationPermission(): PushPermissionState {
  return pushSupported() ? Notification.permission : 'unsupported';
}

/** Told when the user allows or blocks notifications in the browser's settings while the app is open. */
function subscribePermission(onChange: () => void): () => void {
  let status: PermissionStatus | null = null;
  let gone = false;
  navigator.permissions
    ?.query({ name: 'notifications' })
    .then((answer) => {
      if (gone) return;
      status = answer;
      status.addEventListener('change', onChange);
    })
    .catch(() => undefined);
  return () => {
    gone = true;
    status?.removeEventListener('change', onChange);
  };
}

/** The notification permission, read again when it changes (where the browser tells). */
export function useNotificationPermission(): PushPermissionState {
  return useSyncExternalStore(subscribePermission, notificationPermission, () => 'unsupported');
}

/** The FCM device token of this browser, or null (not configured, not supported, refused). */
export async function getPushToken(): Promise<string | null> {
  const config = appConfig.firebase;
  if (!config || !vapidKey || !config.messagingSenderId) {
    console.info('Push notifications are not configured for this build (VITE_FIREBASE_* and VITE_FIREBASE_VAPID_KEY).');
    return null;
  }
  // Never a permission request from here (Firebase's getToken would make one): only a click asks.
  if (notificationPermission() !== 'granted') return null;
  const registration = await navigator.serviceWorker.ready;
  const [{ initializeApp, getApps }, { getMessaging, getToken, isSupported }] = await Promise.all([import('firebase/app'), import('firebase/messaging')]);
  if (!(await isSupported())) return null;
  const app = getApps()[0] ?? initializeApp(config);
  return (await getToken(getMessaging(app), { vapidKey, serviceWorkerRegistration: registration })) || null;
}

let registering: { uid: string; done: Promise<boolean> } | null = null;

/**
 * Registers this browser for push: asks FCM for the token and saves it with the deviceId and
 * deviceName. A token with no value is logged and the device is not registered (§8). Its own
 * device only (decision 0068): the settings are neither read nor written whole, so a save made
 * meanwhile elsewhere (the phone, a supervisor) is not written over with what was read before it.
 */
export function registerThisDevice(uid: string): Promise<boolean> {
  // One at a time: the start, the prompt's Yes, a Save and a renewed subscription can meet, and two
  // getToken calls at once may each make a token of their own.
  if (registering?.uid === uid) return registering.done;
  const done = registerNow(uid).finally(() => {
    if (registering?.done === done) registering = null;
  });
  registering = { uid, done };
  return done;
}

async function registerNow(uid: string): Promise<boolean> {
  const token = await getPushToken().catch((error: unknown) => {
    console.warn('Getting the push device token failed', error);
    return null;
  });
  if (!token) {
    console.info('The push device token has no value: this device is not registered for push notifications.');
    return false;
  }
  localStorage.setItem(FCM_TOKEN_KEY, token);
  // Its switch stays as the user set it (on for a device new to the server).
  await registerPushDevice(uid, { deviceName: deviceName(), token });
  return true;
}

/**
 * §2 sign-out: this device is marked logged out in the push settings: its own row only (nothing
 * when it was never registered), not the whole settings read and written back.
 */
export async function markThisDeviceSignedOut(uid: string): Promise<void> {
  await signOutPushDevice(uid);
}

/**
 * Sign-out, on the device itself (works offline): the browser's push subscription is dropped
 * and the token forgotten, so this device shows no more pushes of the user who signed out, even
 * when the "signed out" mark below never reaches the server (a basement, a depot tablet). The
 * next sign-in subscribes again (Firebase gives a new token for the new subscription). signOut
 * does it too, whatever is mounted (lib/auth/use-session.ts).
 */
export const unsubscribeThisDevice = dropPushSubscription;
