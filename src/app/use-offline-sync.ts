import { useEffect } from 'react';
import { requestPersistentStorage, startOutboxSync } from '../offline/sync';
import './offline-kinds';

/** After sign-in: keep the device's storage, and drain the outbox for this user. */
export function useOfflineSync(userEmail: string): void {
  useEffect(() => {
    void requestPersistentStorage();
    return startOutboxSync(userEmail);
  }, [userEmail]);
}
