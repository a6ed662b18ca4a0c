import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { getSession, setSession, subscribeSession, type StoredSession } from './session';
import { loadProvider } from './providers';

export function useSession(): StoredSession | null {
  return useSyncExternalStore(subscribeSession, getSession);
}

/** §2 sign-out: reset state and sign out of the provider. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  const session = getSession();
  setSession(null);
  queryClient.clear();
  if (session) {
    try {
      await (await loadProvider(session.provider)).signOut(session);
    } catch (error) {
      console.warn('Provider sign-out failed', error);
    }
  }
}
