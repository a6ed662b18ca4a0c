import { useMutation } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { errorMessage } from '../../../lib/api-client';
import { loadProvider } from '../../../lib/auth/providers';
import { setSession, type ProviderId } from '../../../lib/auth/session';
import { HOME_PATH } from '../../../lib/paths';

/** Sign in with a provider, then go where the user was heading (or the status monitor). */
export function useSignIn() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return useMutation({
    meta: { silent: true },
    mutationFn: async ({ provider, email }: { provider: ProviderId; email?: string }) => {
      try {
        return await (await loadProvider(provider)).signIn(email);
      } catch (error) {
        throw new Error(await errorMessage(error));
      }
    },
    onSuccess: (session) => {
      setSession(session);
      navigate(from && from !== '/' ? from : HOME_PATH, { replace: true });
    },
  });
}
