import { describe, expect, it } from 'vitest';
import { chooseWindow, openInWindow, type AppWindow } from './open-link';

/** A window of the app: answers OPEN_LINK on its port when `routes`, and records what was done to it. */
function appWindow(name: string, state: { focused?: boolean; visible?: boolean; routes?: boolean } = {}) {
  const done: string[] = [];
  const win: AppWindow & { name: string; done: string[] } = {
    name,
    done,
    focused: state.focused ?? false,
    visibilityState: state.visible ? 'visible' : 'hidden',
    focus: async () => void done.push('focus'),
    navigate: async (url) => void done.push(`navigate ${url}`),
    postMessage(message, transfer) {
      const { type, url } = message as { type: string; url: string };
      done.push(`${type} ${url}`);
      if (state.routes) (transfer[0] as MessagePort).postMessage({ opened: true });
    },
  };
  return win;
}

describe('a click on a system notification', () => {
  it('picks the window the user was in: the focused one, else a visible one, else the most recent', () => {
    const [a, b, c] = [appWindow('a'), appWindow('b', { visible: true }), appWindow('c', { focused: true, visible: true })];
    expect(chooseWindow([a, b, c])?.name).toBe('c');
    expect(chooseWindow([a, b])?.name).toBe('b');
    expect(chooseWindow([a])?.name).toBe('a');
    expect(chooseWindow([])).toBeUndefined();
  });

  it('focuses that window and lets the app route to the screen, without a reload', async () => {
    const other = appWindow('other', { routes: true });
    const current = appWindow('current', { visible: true, routes: true });
    const opened: string[] = [];
    const how = await openInWindow([other, current], 'https://parts.example/mechanic-view/27', async (url) => void opened.push(url), 1000);
    expect(how).toBe('routed');
    expect(current.done).toEqual(['focus', 'OPEN_LINK https://parts.example/mechanic-view/27']);
    expect(other.done).toEqual([]);
    expect(opened).toEqual([]);
  });

  it('navigates a window whose page does not answer (signed out, an older app), and opens one when there is none', async () => {
    const silent = appWindow('silent', { visible: true });
    expect(await openInWindow([silent], 'https://parts.example/notifications', async () => undefined, 30)).toBe('navigated');
    expect(silent.done).toEqual(['focus', 'OPEN_LINK https://parts.example/notifications', 'navigate https://parts.example/notifications']);
    const opened: string[] = [];
    expect(await openInWindow([], 'https://parts.example/stock-count', async (url) => void opened.push(url), 30)).toBe('opened');
    expect(opened).toEqual(['https://parts.example/stock-count']);
    // A window the worker does not control cannot be navigated by it: one is opened instead.
    const uncontrolled = { ...appWindow('uncontrolled', { visible: true }), navigate: () => Promise.reject(new TypeError('not controlled')) };
    expect(await openInWindow([uncontrolled], 'https://parts.example/notifications', async (url) => void opened.push(url), 30)).toBe('opened');
    expect(opened).toEqual(['https://parts.example/stock-count', 'https://parts.example/notifications']);
  });
});
