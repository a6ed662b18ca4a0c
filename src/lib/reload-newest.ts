/**
 * Reload into the newest version the device holds. A reload alone is answered by the active
 * service worker, and never activates one that waits: an error page of a broken release (start
 * failure, a screen that cannot draw) would show again and again, with the fix installed beside it,
 * until the app was closed completely. A waiting worker is told to take over first; the page
 * reloads once it controls (or at once when none waits, or the worker does not answer).
 */
const TAKE_OVER_WAIT_MS = 3000;

export async function reloadNewest(): Promise<void> {
  const reload = () => window.location.reload();
  try {
    const waiting = 'serviceWorker' in navigator ? (await navigator.serviceWorker.getRegistration())?.waiting : null;
    if (!waiting) return reload();
    navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true });
    // The message vite-plugin-pwa's own update sends (sw/sw.ts skips waiting on it).
    waiting.postMessage({ type: 'SKIP_WAITING' });
    setTimeout(reload, TAKE_OVER_WAIT_MS);
  } catch {
    reload();
  }
}
