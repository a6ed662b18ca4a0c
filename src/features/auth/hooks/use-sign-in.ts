import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-client';
import { loadProvider } from '../../../lib/auth/providers';
import { setSession, type ProviderId } from '../../../lib/auth/session';

/** Sign in with a provider; the landing page then sends the user on (§4 login flow). */
export function useSignIn() {
  return useMutation({
    meta: { silent: true },
    mutationFn: async ({ provider, email }: { provider: ProviderId; email?: string }) => {
      try {
        return await (await loadProvider(provider)).signIn(email);
      } catch (error) {
        throw new Error(await errorMessage(error));
      }
    },
    onSuccess: setSession,
  });
}
