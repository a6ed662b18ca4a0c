import { createContext, useContext } from 'react';
import { MESSAGES } from '../domain/constants';

export type GuardOutcome =
  | { kind: 'loading' }
  | { kind: 'redirect'; to: string }
  | { kind: 'offline'; message: string }
  /** The shell stays and says "Sign in again" (shell/sign-in-again.tsx). */
  | { kind: 'signInAgain' }
  | { kind: 'ready' };

/**
 * Where a failed profile call leads (§8): 'User expired' → /user-expired, other 403 → /welcome.
 * A 401 (a token the provider could not renew) goes back to sign-in only on a start without a
 * profile: over one already loaded (the re-read after 5 minutes, a late answer after the saved
 * copy) it keeps the shell, with what is typed in it and the changes still on the phone, and
 * asks the user to sign in again when they are ready (offline they cannot).
 */
export function routeForProfileError(status: number | null, message: string, hasProfile = false): GuardOutcome {
  if (status === 403) return { kind: 'redirect', to: message === MESSAGES.userExpired ? '/user-expired' : '/welcome' };
  if (status === 401) return hasProfile ? { kind: 'signInAgain' } : { kind: 'redirect', to: '/' };
  return { kind: 'offline', message };
}

/**
 * The profile's re-read was refused (401) while the shell is up (guard.tsx provides it): the shell
 * says "Sign in again". Here, not in the guard, so the shell does not load the guard's imports.
 */
export const ProfileRefused = createContext(false);

export function useProfileRefused(): boolean {
  return useContext(ProfileRefused);
}
