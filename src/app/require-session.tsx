import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../lib/auth/use-session';

/** Routes behind sign-in: without a session, go to the landing page and come back after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/" replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}
