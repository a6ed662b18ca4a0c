/**
 * Tells the user when a new version is waiting, and applies it on their word (workbox-window).
 * Looks for one while the app stays open too, and keeps the first "ready offline" for the shell.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { afterFirstScreen } from '../lib/after-first-screen';
import { forgetUnsavedText, unsavedTextHeld } from '../lib/unsaved-text';
import { noteOfflineReady } from './offline-ready';

export { markOfflineReadyTold, noteOfflineReady, offlineReadyPending, subscribeOfflineReady } from './offline-ready';
import { afterLoadWhenIdle } from '../lib/when-idle';

type Updater = (reload?: boolean) => Promise<void>;

/** How often an app left open looks for a new version (an installed app can stay open for days). */
const CHECK_EVERY_MS = 60 * 60_000;

/**
 * A check for a new version (the worker's script fetched again), run at most one at a time and
 * not offline (it would only fail). Returns whether one was started.
 */
export function updateChecker(update: () => Promise<unknown>, online: () => boolean = () => navigator.onLine): () => boolean {
  let running = false;
  return () => {
    if (running || !online()) return false;
    running = true;
    void Promise.resolve()
      .then(update)
      .catch((error: unknown) => console.warn('Looking for a new version failed', error))
      .finally(() => {
        running = false;
      });
    return true;
  };
}

/** Looks for a new version every hour, when the app comes back to the screen and when the connection returns; the stop. */
function checkForUpdates(registration: ServiceWorkerRegistration): () => void {
  const check = updateChecker(() => registration.update());
  const onVisible = () => {
    if (document.visibilityState === 'visible') check();
  };
  const timer = setInterval(check, CHECK_EVERY_MS);
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('online', check);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('online', check);
  };
}

export function UpdatePrompt() {
  const { t } = useTranslation();
  const [update, setUpdate] = useState<Updater | null>(null);
  /** The new version took over from another tab's Reload: this tab reloads on its user's word only. */
  const [updatedElsewhere, setUpdatedElsewhere] = useState(false);
  /** This tab's user pressed Reload: the new version's taking over reloads this tab. */
  const asked = useRef(false);
  /** Reload was pressed while a form holds unsaved text: what it would do, until the user answers. */
  const [confirming, setConfirming] = useState<(() => void) | null>(null);

  // A newer version took the device database over from another tab: this one reloads on its
  // user's word, as after another tab's Update.
  useEffect(() => {
    const newer = () => setUpdatedElsewhere(true);
    // src/offline/db.ts NEWER_DATABASE_EVENT (not imported: Dexie is not on the first screen).
    window.addEventListener('partstrack:newer-database', newer);
    return () => window.removeEventListener('partstrack:newer-database', newer);
  }, []);

  useEffect(() => {
    if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
    let cancelled = false;
    let stopChecks: (() => void) | undefined;
    const register = () => {
      if (cancelled) return;
      void import('virtual:pwa-register').then(({ registerSW }) => {
        if (cancelled) return;
        const updateSW = registerSW({
          onNeedRefresh: () => setUpdate(() => updateSW),
          // Every tab that showed the prompt hears the new version take over. Only the tab whose
          // user asked reloads; the others say so and wait (a half-typed form must not vanish).
          onNeedReload: () => {
            if (asked.current) window.location.reload();
            else {
              setUpdate(null);
              setUpdatedElsewhere(true);
            }
          },
          // The first install only (not an update): the app now starts without signal.
          onOfflineReady: () => noteOfflineReady(),
          // The browser looks for a new worker only when the app is opened (a navigation): an installed
          // app left open for days never looked, and a fix reached nobody until it was closed.
          onRegisteredSW: (_url: string, registration: ServiceWorkerRegistration | undefined) => {
            if (!registration || cancelled || stopChecks) return;
            stopChecks = checkForUpdates(registration);
          },
          onRegisterError: (error: unknown) => console.warn('Service worker registration failed', error),
        });
      });
    };
    // #22: registering (workbox-window, the worker's script, its precache of the whole app) waits
    // until the first screen is drawn, then for the page's load and an idle main thread: on a
    // mid-range phone it took ~140 ms of the main thread, and its downloads shared weak mobile data
    // with the first list's (the load event and an idle moment both come while the list's answer
    // is still on its way). A worker that already controls the page (every start after the first)
    // serves it meanwhile; `navigator.serviceWorker.ready` waits.
    let cancelIdle: (() => void) | undefined;
    void afterFirstScreen().then(() => {
      if (!cancelled) cancelIdle = afterLoadWhenIdle(register);
    });
    return () => {
      cancelled = true;
      cancelIdle?.();
      stopChecks?.();
    };
  }, []);

  // Reloading throws away what a form on the screen holds: asked first (lib/unsaved-text.ts).
  if (confirming) {
    return (
      <div className="update-toast" role="alert">
        <span>{t('update.unsavedText')}</span>
        <button type="button" className="button primary" onClick={() => setConfirming(null)}>
          {t('update.keepTyping')}
        </button>
        <button
          type="button"
          className="button ghost"
          onClick={() => {
            // The user gave their word: the browser's own question (leave-guard.tsx) is not asked again.
            forgetUnsavedText();
            confirming();
          }}
        >
          {t('update.anyway')}
        </button>
      </div>
    );
  }
  /** Runs `apply` at once, or first asks when a form holds unsaved text. */
  const unlessUnsaved = (apply: () => void) => () => {
    if (unsavedTextHeld()) setConfirming(() => apply);
    else apply();
  };
  const reload = () => window.location.reload();
  if (updatedElsewhere) {
    return (
      <div className="update-toast" role="status">
        <span>{t('update.updatedElsewhere')}</span>
        <button type="button" className="button primary" onClick={unlessUnsaved(reload)}>
          {t('update.reload')}
        </button>
      </div>
    );
  }
  if (!update) return null;
  const applyUpdate = () => {
    asked.current = true;
    // vite-plugin-pwa reloads only when workbox-window calls the take-over an update, which it
    // decides once, at registration: a page the worker did not control then (the first visit
    // opened on an app path, a hard reload) stayed on the old build under the new worker, and its
    // next lazy screen asked for files the new precache no longer holds.
    navigator.serviceWorker?.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    void update(true);
  };
  return (
    <div className="update-toast" role="status">
      <span>{t('update.available')}</span>
      <button type="button" className="button primary" onClick={unlessUnsaved(applyUpdate)}>
        {t('update.reload')}
      </button>
      <button type="button" className="button ghost" onClick={() => setUpdate(null)}>
        {t('update.later')}
      </button>
    </div>
  );
}
