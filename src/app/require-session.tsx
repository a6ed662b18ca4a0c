import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../lib/auth/use-session';
import { endedElsewhere } from '../lib/auth/session';

/**
 * Routes behind sign-in: without a session, go to the landing page and come back after; not when
 * another tab signed out (on a shared device the next user does not land on the last one's order).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/" replace state={endedElsewhere() ? null : { from: location.pathname + location.search }} />;
  return <>{children}</>;
}
