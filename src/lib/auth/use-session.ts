import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { getSession, setSession, subscribeSession, type StoredSession } from './session';
import { loadProvider } from './providers';
import { forgetSearchHistory } from '../search-history';

export function useSession(): StoredSession | null {
  return useSyncExternalStore(subscribeSession, getSession);
}

type SignOutTask = () => Promise<void>;
/** Where the FCM token of this browser is kept (features/profile/push). */
export const PUSH_TOKEN_KEY = 'fcmToken';
const beforeSignOut = new Set<SignOutTask>();
const SIGN_OUT_TASK_MS = 4000;
/** How long sign-out waits for the notifications to close (a worker that hangs does not hold it). */
const CLOSE_NOTIFICATIONS_MS = 1000;

/**
 * Work that must happen while the user is still signed in (e.g. §2 "mark this device logged out
 * in the push settings and save them"). Features register it; lib never imports features.
 */
export function onBeforeSignOut(task: SignOutTask): () => void {
  beforeSignOut.add(task);
  return () => beforeSignOut.delete(task);
}

/** The browser's push subscription and its token, dropped on the device (no connection needed). */
export async function dropPushSubscription(): Promise<void> {
  try {
    localStorage.removeItem(PUSH_TOKEN_KEY);
    if (!('serviceWorker' in navigator) || !('PushManager' in window)) return;
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    await subscription?.unsubscribe();
  } catch (error) {
    console.warn('Dropping the push subscription failed', error);
  }
}

/** The part of a ServiceWorkerRegistration this needs (a fake in tests). */
interface ShowsNotifications {
  getNotifications?(): Promise<ReadonlyArray<{ close(): void }>>;
}

function serviceWorkerRegistration(): Promise<ShowsNotifications | undefined> {
  return 'serviceWorker' in navigator ? navigator.serviceWorker.getRegistration() : Promise.resolve(undefined);
}

/**
 * The notifications this browser shows of the user who leaves (lock screen, notification
 * centre) are closed: on a shared phone the next user would tap the last one's "Stock count 27
 * assigned to you". Best effort: it never fails and never holds sign-out up for long. Returns how
 * many were closed.
 */
export async function closeShownNotifications(registration: () => Promise<ShowsNotifications | undefined | null> = serviceWorkerRegistration, waitMs = CLOSE_NOTIFICATIONS_MS): Promise<number> {
  const closing = (async () => {
    const shown = (await (await registration())?.getNotifications?.()) ?? [];
    shown.forEach((notification) => notification.close());
    return shown.length;
  })().catch((error: unknown) => {
    console.warn('Closing the notifications failed', error);
    return 0;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(0), waitMs)));
  return Promise.race([closing, late]).finally(() => clearTimeout(timer));
}

/** §2 sign-out: finish the sign-out tasks (briefly: offline they give up), reset state and sign out of the provider. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  await Promise.allSettled(
    [...beforeSignOut].map((task) =>
      Promise.race([task(), new Promise<void>((resolve) => setTimeout(resolve, SIGN_OUT_TASK_MS))]).catch((error: unknown) =>
        console.warn('A sign-out task failed', error),
      ),
    ),
  );
  // Whatever is mounted: this browser shows no more pushes of the user who leaves, and none of
  // theirs stays on the lock screen (works offline; the top bar's task also marks the device
  // signed out on the server when it can). After the tasks: a push that came meanwhile is closed too.
  await Promise.all([dropPushSubscription(), closeShownNotifications()]);
  const session = getSession();
  setSession(null);
  queryClient.clear();
  // What this user searched and where their screens stood (the status monitor's search and tab,
  // the notification lists') is not the next user's on a shared device.
  forgetSearchHistory();
  try {
    sessionStorage.clear();
  } catch {
    // storage blocked: nothing was kept
  }
  if (session) {
    try {
      await (await loadProvider(session.provider)).signOut(session);
    } catch (error) {
      // Offline the provider's code may not load (it is not precached): its cached accounts and
      // tokens are removed directly, so the next person on this phone does not renew into them.
      console.warn('Provider sign-out failed', error);
      forgetProviderCaches(session.provider);
    }
  }
}

/** MSAL's localStorage entries: its own keys, and the account and token entries it names by authority. */
export function isMsalCacheKey(key: string): boolean {
  return key.startsWith('msal.') || /-login\.(microsoftonline\.com|windows\.net)-/.test(key);
}

/** Removes what a provider keeps in the browser, without its code (offline sign-out). */
export function forgetProviderCaches(provider: string, storage: Storage | undefined = globalThis.localStorage): void {
  try {
    if (provider === 'microsoft' && storage) {
      const keys: string[] = [];
      for (let index = 0; index < storage.length; index += 1) {
        const key = storage.key(index);
        if (key && isMsalCacheKey(key)) keys.push(key);
      }
      for (const key of keys) storage.removeItem(key);
    }
    // Firebase Auth keeps its signed-in user in this IndexedDB database.
    if (provider === 'google' && typeof indexedDB !== 'undefined') indexedDB.deleteDatabase('firebaseLocalStorageDb');
  } catch (error) {
    console.warn('Clearing the provider cache failed', error);
  }
}
