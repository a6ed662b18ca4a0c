/**
 * The landing page as a route (§2), for starts that do not begin on it (a signed-out user sent
 * here from another address, or after sign-out). A signed-in user goes where they were heading,
 * else to the status monitor (§2, §4). A cold start on `/` without a session renders the same
 * view without the router (src/app/start-landing.tsx).
 */
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../../../lib/auth/use-session';
import { HOME_PATH } from '../../../lib/paths';
import { LandingView } from '../components/landing-view';

export default function LandingPage() {
  const session = useSession();
  const from = (useLocation().state as { from?: string } | null)?.from;
  if (session) return <Navigate to={from && from !== '/' ? from : HOME_PATH} replace />;
  return <LandingView />;
}
