/**
 * A click on a system notification opens its screen in the app window the user was in, without
 * reloading it: the window is focused and asked to route there itself (OPEN_LINK, answered on a
 * MessagePort by the signed-in shell, src/features/notifications/hooks/use-push-toasts.ts). A
 * window that does not answer in time (signed out, an older version of the app, still starting)
 * is navigated instead; with no window, one is opened.
 */

import { askWindow } from './ask-window';

/** The part of a WindowClient this needs (a fake in tests). */
export interface AppWindow {
  focused: boolean;
  visibilityState: DocumentVisibilityState;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

/** How long a window has to say it routed before it is navigated instead. */
export const ROUTE_ANSWER_MS = 1500;

/** The window the user was in: the focused one, else a visible one, else the most recent. */
export function chooseWindow<W extends Pick<AppWindow, 'focused' | 'visibilityState'>>(windows: readonly W[]): W | undefined {
  return windows.find((win) => win.focused) ?? windows.find((win) => win.visibilityState === 'visible') ?? windows[0];
}

/** Whether the window routed to `url` itself, answering on a port within `answerMs`. */
async function askToRoute(win: AppWindow, url: string, answerMs: number): Promise<boolean> {
  return ((await askWindow(win, { type: 'OPEN_LINK', url }, answerMs)) as { opened?: boolean } | null)?.opened === true;
}

/**
 * Opens `url` (of this origin) in the window the user was in: focused first (only allowed while
 * the click is being handled), then routed by the app, or navigated when the app does not answer.
 */
export async function openInWindow(
  windows: readonly AppWindow[],
  url: string,
  openWindow: (url: string) => Promise<unknown>,
  answerMs = ROUTE_ANSWER_MS,
): Promise<'routed' | 'navigated' | 'opened'> {
  const win = chooseWindow(windows);
  if (!win) {
    await openWindow(url);
    return 'opened';
  }
  await win.focus().catch(() => undefined);
  if (await askToRoute(win, url, answerMs)) return 'routed';
  try {
    await win.navigate(url);
    return 'navigated';
  } catch {
    // A window this worker does not control cannot be navigated by it: a new one is opened.
    await openWindow(url);
    return 'opened';
  }
}
