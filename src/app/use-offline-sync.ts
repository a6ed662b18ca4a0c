import { useEffect } from 'react';
import { requestPersistentStorage, startOutboxSync } from '../offline/sync';
import { loadOfflineKinds } from './offline-kinds';

/** How long before loading the kinds of change is tried again after it failed. */
const RETRY_KINDS_MS = 5_000;

/**
 * After sign-in: keep the device's storage, and drain the outbox for this user once every kind
 * of change is registered (a kind the sync core does not know would travel without its rules).
 */
export function useOfflineSync(userEmail: string): void {
  useEffect(() => {
    void requestPersistentStorage();
    let stop: (() => void) | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const start = () =>
      loadOfflineKinds().then(
        () => {
          if (!stopped) stop = startOutboxSync(userEmail);
        },
        () => {
          if (!stopped) retry = setTimeout(start, RETRY_KINDS_MS);
        },
      );
    void start();
    return () => {
      stopped = true;
      clearTimeout(retry);
      stop?.();
    };
  }, [userEmail]);
}
