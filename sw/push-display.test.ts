import { describe, expect, it } from 'vitest';
import { handToWindow, isWebKit, pushDisplay, type PushWindow } from './push-display';

const UA = {
  iphoneSafari: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  // The home-screen app: no "Version/… Safari/".
  iphoneHomeScreen: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  iphoneChrome: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
  ipadSafari: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  // An iPad asking for desktop sites (the default) and its home-screen app: a Mac's agent.
  ipadDesktop: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  ipadDesktopHomeScreen: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
  ipadChromeDesktop: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0 Mobile/15E148 Safari/604.1',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  macChrome: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  windowsEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0',
};

const win = (name: string, state: { focused?: boolean; visible?: boolean } = {}): PushWindow & { name: string } => ({
  name,
  focused: state.focused ?? false,
  visibilityState: state.visible ? 'visible' : 'hidden',
});

describe('how a push is shown', () => {
  it('tells WebKit (Safari, every iOS browser, the home-screen app, an iPad in desktop mode) from the rest', () => {
    for (const ua of [UA.iphoneSafari, UA.iphoneHomeScreen, UA.iphoneChrome, UA.ipadSafari, UA.ipadDesktop, UA.ipadDesktopHomeScreen, UA.ipadChromeDesktop, UA.macSafari]) {
      expect(isWebKit(ua), ua).toBe(true);
    }
    for (const ua of [UA.macChrome, UA.androidChrome, UA.samsung, UA.windowsEdge, UA.linuxFirefox, UA.androidFirefox, '']) {
      expect(isWebKit(ua), ua).toBe(false);
    }
  });

  it('shows a system notification when no window of the app is focused, even a visible one', () => {
    expect(pushDisplay([], UA.androidChrome)).toEqual({ notify: true, toast: undefined });
    expect(pushDisplay([win('behind'), win('beside', { visible: true })], UA.windowsEdge)).toEqual({ notify: true, toast: undefined });
    expect(pushDisplay([win('beside', { visible: true })], UA.iphoneHomeScreen)).toEqual({ notify: true, toast: undefined });
  });

  it('hands the message to the focused window as a toast instead, outside WebKit', () => {
    const focused = win('focused', { focused: true, visible: true });
    for (const ua of [UA.windowsEdge, UA.androidChrome, UA.linuxFirefox, UA.macChrome]) {
      const shown = pushDisplay([win('other', { visible: true }), focused], ua);
      expect(shown.notify, ua).toBe(false);
      expect(shown.toast?.name).toBe('focused');
    }
  });

  it('always shows the notification in WebKit, which cancels the subscription after a few silent pushes', () => {
    const focused = win('focused', { focused: true, visible: true });
    for (const ua of [UA.iphoneSafari, UA.iphoneHomeScreen, UA.ipadDesktopHomeScreen, UA.macSafari]) {
      const shown = pushDisplay([focused], ua);
      expect(shown.notify, ua).toBe(true);
      expect(shown.toast?.name).toBe('focused');
    }
  });
});

describe('a message handed to the focused window', () => {
  it('counts as shown only when the window answers that it showed it', async () => {
    const answering = { postMessage: (_message: unknown, transfer: Transferable[]) => (transfer[0] as MessagePort).postMessage({ shown: true }) };
    expect(await handToWindow(answering, { type: 'PUSH_MESSAGE' }, 500)).toBe(true);
  });

  it('is not shown by a window without the signed-in shell (no answer): the notification goes instead', async () => {
    const received: unknown[] = [];
    const silent = { postMessage: (message: unknown) => void received.push(message) };
    expect(await handToWindow(silent, { type: 'PUSH_MESSAGE', title: 'T' }, 30)).toBe(false);
    expect(received).toEqual([{ type: 'PUSH_MESSAGE', title: 'T' }]);
  });
});
