/** Tells the user when a new version is waiting, and applies it on their word (workbox-window). */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { afterFirstScreen } from '../lib/after-first-screen';
import { afterLoadWhenIdle } from '../lib/when-idle';

type Updater = (reload?: boolean) => Promise<void>;

export function UpdatePrompt() {
  const { t } = useTranslation();
  const [update, setUpdate] = useState<Updater | null>(null);
  /** The new version took over from another tab's Reload: this tab reloads on its user's word only. */
  const [updatedElsewhere, setUpdatedElsewhere] = useState(false);
  /** This tab's user pressed Reload: the new version's taking over reloads this tab. */
  const asked = useRef(false);

  useEffect(() => {
    if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
    let cancelled = false;
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
    };
  }, []);

  if (updatedElsewhere) {
    return (
      <div className="update-toast" role="status">
        <span>{t('update.updatedElsewhere')}</span>
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          {t('update.reload')}
        </button>
      </div>
    );
  }
  if (!update) return null;
  return (
    <div className="update-toast" role="status">
      <span>{t('update.available')}</span>
      <button
        type="button"
        className="button primary"
        onClick={() => {
          asked.current = true;
          void update(true);
        }}
      >
        {t('update.reload')}
      </button>
      <button type="button" className="button ghost" onClick={() => setUpdate(null)}>
        {t('update.later')}
      </button>
    </div>
  );
}
