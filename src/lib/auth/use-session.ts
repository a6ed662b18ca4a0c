import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { getSession, setSession, subscribeSession, type StoredSession } from './session';
import { loadProvider } from './providers';

export function useSession(): StoredSession | null {
  return useSyncExternalStore(subscribeSession, getSession);
}

type SignOutTask = () => Promise<void>;
const beforeSignOut = new Set<SignOutTask>();
const SIGN_OUT_TASK_MS = 4000;

/**
 * Work that must happen while the user is still signed in (e.g. §2 "mark this device logged out
 * in the push settings and save them"). Features register it; lib never imports features.
 */
export function onBeforeSignOut(task: SignOutTask): () => void {
  beforeSignOut.add(task);
  return () => beforeSignOut.delete(task);
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
