import { loadProvider } from './providers';
import { getSession, setSession } from './session';

let inFlight: Promise<string | null> | null = null;

/** §7: on 401 the id token is refreshed once; concurrent callers share one refresh. */
export function refreshIdToken(): Promise<string | null> {
  inFlight ??= (async () => {
    const session = getSession();
    if (!session) return null;
    try {
      const provider = await loadProvider(session.provider);
      const next = await provider.refresh(session);
      if (next) setSession(next);
      return next?.idToken ?? null;
    } catch {
      return null;
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}
