/** A reload from an error page takes the waiting version over first; without one it just reloads. */
import { afterEach, expect, it, vi } from 'vitest';
import { reloadNewest } from './reload-newest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function stub(waiting: { postMessage: (message: unknown) => void } | null) {
  const reload = vi.fn();
  const controller = new EventTarget();
  vi.stubGlobal('window', { location: { reload } });
  vi.stubGlobal('navigator', {
    serviceWorker: Object.assign(controller, { getRegistration: async () => ({ waiting }) }),
  });
  return { reload, controller };
}

it('tells a waiting worker to take over and reloads once it controls the page', async () => {
  vi.useFakeTimers();
  const postMessage = vi.fn();
  const { reload, controller } = stub({ postMessage });
  await reloadNewest();
  expect(postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
  expect(reload).not.toHaveBeenCalled();
  controller.dispatchEvent(new Event('controllerchange'));
  expect(reload).toHaveBeenCalledTimes(1);
});

it('reloads at once when no worker waits, and after a while when the waiting one does not answer', async () => {
  const none = stub(null);
  await reloadNewest();
  expect(none.reload).toHaveBeenCalledTimes(1);

  vi.useFakeTimers();
  const silent = stub({ postMessage: () => undefined });
  await reloadNewest();
  expect(silent.reload).not.toHaveBeenCalled();
  vi.advanceTimersByTime(3000);
  expect(silent.reload).toHaveBeenCalledTimes(1);
});
