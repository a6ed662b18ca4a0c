import { loadProvider } from './providers';
import { getSession, setSession } from './session';
import { isUnreachable, RenewalUnreachableError } from './unreachable';

let inFlight: Promise<string | null> | null = null;

/**
 * §7: on 401 the id token is refreshed once; concurrent callers share one refresh. Null when the
 * user must sign in again (the provider refused); a renewal that got no answer throws
 * RenewalUnreachableError instead, a network failure to every caller.
 */
export function refreshIdToken(): Promise<string | null> {
  inFlight ??= (async () => {
    const session = getSession();
    if (!session) return null;
    try {
      const provider = await loadProvider(session.provider);
      const next = await provider.refresh(session);
      // Only for the session it renewed: one that answers after a sign-out (or another user's
      // sign-in) must not sign the old user back in.
      if (!next || getSession() !== session || next.email !== session.email) return null;
      setSession(next);
      return next.idToken;
    } catch (error) {
      if (isUnreachable(error)) throw new RenewalUnreachableError();
      return null;
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}
