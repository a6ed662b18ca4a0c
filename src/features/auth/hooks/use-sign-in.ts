import { useCallback, useState } from 'react';
import { refusedDomain } from '../../../domain/email';
import { loadProvider } from '../../../lib/auth/providers';
import { setSession, type ProviderId } from '../../../lib/auth/session';
import { isUnreachable } from '../../../lib/auth/unreachable';

/** What the landing page says when a sign-in fails: a text of ours, never the sign-in library's. */
export interface SignInFailure {
  key: 'landing.signInCancelled' | 'landing.popupBlocked' | 'landing.signInBusy' | 'landing.signInOffline' | 'landing.signInFailed' | 'welcome.domainNotSupported';
  values?: Record<string, string>;
  /** The provider's own words or code, shown small under the text for whoever helps the user. */
  detail?: string;
}

/**
 * MSAL's `errorCode` (BrowserAuthErrorCodes) and Firebase Auth's `code` of the failures a user
 * causes or can act on. Closing the pop-up showed "user_cancelled: User cancelled the flow." or
 * "Firebase: Error (auth/popup-closed-by-user).". Codes of no answer are lib/auth/unreachable.ts's.
 */
const FAILURE_OF_CODE: Record<string, SignInFailure['key']> = {
  user_cancelled: 'landing.signInCancelled',
  interaction_in_progress_cancelled: 'landing.signInCancelled',
  'auth/popup-closed-by-user': 'landing.signInCancelled',
  'auth/cancelled-popup-request': 'landing.signInCancelled',
  'auth/user-cancelled': 'landing.signInCancelled',
  popup_window_error: 'landing.popupBlocked',
  empty_window_error: 'landing.popupBlocked',
  'auth/popup-blocked': 'landing.popupBlocked',
  interaction_in_progress: 'landing.signInBusy',
  monitor_window_timeout: 'landing.signInFailed',
  'auth/user-disabled': 'landing.signInFailed',
};

function codeOf(error: unknown): string | undefined {
  const { errorCode, code } = (error ?? {}) as { errorCode?: unknown; code?: unknown };
  return [errorCode, code].find((value): value is string => typeof value === 'string' && value !== '');
}

export function signInFailure(error: unknown): SignInFailure {
  const code = codeOf(error);
  const known = code === undefined ? undefined : FAILURE_OF_CODE[code];
  // A plain "try again" gets the code, which a help desk can look up; the others say it all.
  if (known) return known === 'landing.signInFailed' ? { key: known, detail: code } : { key: known };
  if (isUnreachable(error)) return { key: 'landing.signInOffline' };
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // The local demo issuer's refusal of an address (§5), in the user's language.
  const domain = refusedDomain(message);
  if (domain) return { key: 'welcome.domainNotSupported', values: { domain } };
  return message ? { key: 'landing.signInFailed', detail: message } : { key: 'landing.signInFailed' };
}

/**
 * Sign in with a provider; the landing page then sends the user on (§4 login flow). No
 * TanStack Query here: the landing page is the first screen and loads without it (#22).
 * `onStart` runs as the sign-in starts, so the caller can load the app in parallel with it.
 */
export function useSignIn(onStart?: () => void) {
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<SignInFailure | null>(null);
  const mutate = useCallback(
    ({ provider, email }: { provider: ProviderId; email?: string }) => {
      setPending(true);
      setError(null);
      onStart?.();
      void (async () => {
        try {
          setSession(await (await loadProvider(provider)).signIn(email));
        } catch (caught) {
          setError(signInFailure(caught));
        } finally {
          setPending(false);
        }
      })();
    },
    [onStart],
  );
  return { mutate, isPending, error };
}
