/**
 * The entry (#22): small, and the only script the page starts with. A signed-out start on `/`
 * asks for the sign-in options at once and loads the landing page alone (no router, TanStack
 * Query, ky or zod: ≤ 100 KB gzip); any other start loads the app, whose router starts the
 * screen's chunks and data together. Either chunk failing shows why (timeout or missing) with a
 * reload button, in the user's language.
 */
import './app/styles.css';
// The profile's theme choice, on <html> before the first paint (#21).
import './lib/theme';
import { getSession } from './lib/auth/session';
import { loadChunk } from './lib/chunk-load';
import { loadAuthConfig } from './features/auth/api/get-auth-config';
import { showStartFailure } from './app/start-failure';
import { preloadFirstScreen } from './app/first-screen';

const start =
  !getSession() && location.pathname === '/'
    ? (void loadAuthConfig(), loadChunk(() => import('./app/start-landing')).then(({ startLanding }) => startLanding()))
    : (preloadFirstScreen(location), loadChunk(() => import('./app/start-app')).then(({ startApp }) => startApp()));
start.catch(showStartFailure);
