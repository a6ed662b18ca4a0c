/**
 * How a push is shown (#6, §9). A system notification, always, except when a window of the app is
 * focused in a browser that lets a push go without one: there the page shows it as a toast.
 *
 * WebKit (Safari on macOS, every browser on iOS / iPadOS, the home-screen app) counts each push
 * that shows no notification as a "silent push" and, after a few, cancels the origin's
 * subscription for good: there a notification is shown even with the app in front (the focused
 * window still gets the toast, which also refreshes its unread count and lists). A window that is
 * only visible (another window has the focus, or the screen is locked) gets the notification: a
 * toast there goes unseen.
 */

import { askWindow, type AskedWindow } from './ask-window';

/** The part of a WindowClient this needs (a fake in tests). */
export interface PushWindow {
  focused: boolean;
  visibilityState: DocumentVisibilityState;
}

/** How long the focused window has to say it showed the toast before the notification goes instead. */
export const TOAST_ANSWER_MS = 1500;

/**
 * Hands the message to the window and resolves whether it showed it: the signed-in shell answers
 * `{ shown: true }` on the port. A focused window without the shell (still loading, the landing
 * page, an error page) answers nothing, and the message, handed over without a notification, was lost.
 */
export async function handToWindow(win: AskedWindow, message: object, answerMs = TOAST_ANSWER_MS): Promise<boolean> {
  return ((await askWindow(win, message, answerMs)) as { shown?: boolean } | null)?.shown === true;
}

/**
 * Whether the worker runs in WebKit, from its user agent (a worker has no maxTouchPoints, so an
 * iPad asking for desktop sites looks like a Mac: both are WebKit, which is what counts here).
 * iOS / iPadOS: every browser is WebKit (CriOS, FxiOS, EdgiOS included), and the home-screen
 * app's agent may lack "Safari/". Elsewhere: AppleWebKit without a Chromium or Android token
 * (Safari on macOS, an iPad in desktop mode, Safari-based Mac browsers). Firefox names no
 * AppleWebKit. A browser we cannot tell is not WebKit: the cost of a wrong guess there is a
 * notification over a focused window, not a lost subscription.
 */
export function isWebKit(userAgent: string): boolean {
  if (/iPhone|iPad|iPod|CriOS\/|FxiOS\/|EdgiOS\//.test(userAgent)) return true;
  return /AppleWebKit\//.test(userAgent) && !/Chrome\/|Chromium\/|Edg\/|OPR\/|Android|SamsungBrowser\//.test(userAgent);
}

/** What a push does: show a system notification, and/or hand the message to a focused window as a toast. */
export function pushDisplay<W extends PushWindow>(windows: readonly W[], userAgent: string): { notify: boolean; toast: W | undefined } {
  const focused = windows.find((win) => win.focused && win.visibilityState === 'visible');
  return { notify: !focused || isWebKit(userAgent), toast: focused };
}
