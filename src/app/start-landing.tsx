/**
 * The first screen of a signed-out start on `/` (#22): the landing page alone, without the
 * router, TanStack Query, ky or zod, and with only its own texts in one locale. Starting a
 * sign-in loads the app in parallel with the sign-in call; once signed in, the same React root
 * renders the app on the status monitor (or wherever the user was heading).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LandingView } from '../features/auth/components/landing-view';
import { subscribeSession, getSession } from '../lib/auth/session';
import { initI18n, LANGUAGE_KEY } from '../lib/i18n';
import { HOME_PATH } from '../lib/paths';
import { loadChunk } from '../lib/chunk-load';
import { showStartFailure } from './start-failure';
import { preloadFirstScreen } from './first-screen';
import { noteOfflineReady } from './offline-ready';

const loadApp = () => loadChunk(() => import('./start-app'));

/**
 * The service worker (installable app, precache for offline starts), once the page has loaded.
 * The plain browser call: workbox-window (the update prompt's machinery, update-prompt.tsx) loads
 * only with the signed-in app, so the first screen does not carry it (#19, #22: ≤ 100 KB).
 */
function registerWorkerWhenLoaded() {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const register = () => {
    // No worker controls the page: this is the first install, and once it is active the app starts
    // without signal. Noted here (the update prompt, which notes it otherwise, registers after
    // sign-in, when the install has mostly happened already and workbox-window never hears of it).
    const first = !navigator.serviceWorker.controller;
    void navigator.serviceWorker
      .register(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL })
      .then((registration) => {
        const installing = registration.installing;
        if (!first || !installing) return;
        installing.addEventListener('statechange', () => {
          if (installing.state === 'activated') noteOfflineReady();
        });
      })
      .catch((error: unknown) => console.warn('Service worker registration failed', error));
  };
  if (document.readyState === 'complete') setTimeout(register, 0);
  else window.addEventListener('load', register, { once: true });
}

export async function startLanding(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  let app: ReturnType<typeof loadApp> | null = null;
  const prepareApp = () => {
    if (!app) preloadFirstScreen({ pathname: HOME_PATH, search: '' });
    app ??= loadApp();
    // A failed load is tried again by the next sign-in.
    app.catch(() => (app = null));
  };
  const unsubscribe = subscribeSession(() => {
    if (!getSession()) return;
    unsubscribe();
    prepareApp();
    if (location.pathname === '/') history.replaceState(null, '', HOME_PATH);
    void app!.then(
      ({ startApp }) => startApp(root),
      (error: unknown) => {
        root.unmount();
        showStartFailure(error);
      },
    );
  });
  await initI18n(localStorage.getItem(LANGUAGE_KEY) ?? navigator.language, { full: false });
  root.render(
    <StrictMode>
      <LandingView onSignInStart={prepareApp} />
    </StrictMode>,
  );
  registerWorkerWhenLoaded();
}
