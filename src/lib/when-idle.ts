/**
 * Runs `task` once the page has loaded and the main thread is idle (or after `timeout` ms of
 * waiting for idle), for work a first screen does not need: on a mid-range phone every task
 * before the first list is drawn delays it (#22). Returns a cancel function.
 * Browsers without requestIdleCallback (Safari) wait `fallbackMs` after the load instead.
 */
export function afterLoadWhenIdle(task: () => void, { timeout = 3000, fallbackMs = 1000 } = {}): () => void {
  let cancelIdle: (() => void) | undefined;
  const schedule = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => task(), { timeout });
      cancelIdle = () => window.cancelIdleCallback(id);
    } else {
      const id = globalThis.setTimeout(task, fallbackMs);
      cancelIdle = () => globalThis.clearTimeout(id);
    }
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    window.removeEventListener('load', schedule);
    cancelIdle?.();
  };
}
