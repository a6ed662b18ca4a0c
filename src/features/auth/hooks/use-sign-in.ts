import { useCallback, useState } from 'react';
import { loadProvider } from '../../../lib/auth/providers';
import { setSession, type ProviderId } from '../../../lib/auth/session';

/**
 * Sign in with a provider; the landing page then sends the user on (§4 login flow). No
 * TanStack Query here: the landing page is the first screen and loads without it (#22).
 * `onStart` runs as the sign-in starts, so the caller can load the app in parallel with it.
 */
export function useSignIn(onStart?: () => void) {
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const mutate = useCallback(
    ({ provider, email }: { provider: ProviderId; email?: string }) => {
      setPending(true);
      setError(null);
      onStart?.();
      void (async () => {
        try {
          setSession(await (await loadProvider(provider)).signIn(email));
        } catch (caught) {
          // The server's message (ky errors of MSAL / Firebase paths read their body).
          const { errorMessage } = await import('../../../lib/api-client');
          setError(new Error(await errorMessage(caught)));
        } finally {
          setPending(false);
        }
      })();
    },
    [onStart],
  );
  return { mutate, isPending, error };
}
