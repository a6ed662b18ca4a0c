import { useEffect } from 'react';
import { afterFirstScreen } from '../lib/after-first-screen';
import { loadChunk } from '../lib/chunk-load';
import { loadOfflineKinds } from './offline-kinds';

/** How long before loading the kinds of change is tried again after it failed. */
const RETRY_KINDS_MS = 5_000;

/**
 * After sign-in: keep the device's storage, and drain the outbox for this user once every kind
 * of change is registered (a kind the sync core does not know would travel without its rules).
 */
export function useOfflineSync(userEmail: string): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    // The sync engine and the device database are chunks of their own, loaded with the kinds
    // once the first screen is drawn (#22, offline/device-db.ts, lib/after-first-screen.ts).
    const start = () =>
      Promise.all([loadChunk(() => import('../offline/sync')), loadOfflineKinds()]).then(
        ([{ requestPersistentStorage, startOutboxSync }]) => {
          if (stopped) return;
          void requestPersistentStorage();
          stop = startOutboxSync(userEmail);
        },
        () => {
          if (!stopped) retry = setTimeout(start, RETRY_KINDS_MS);
        },
      );
    void afterFirstScreen().then(() => {
      if (!stopped) void start();
    });
    return () => {
      stopped = true;
      clearTimeout(retry);
      stop?.();
    };
  }, [userEmail]);
}
