/**
 * The worker asks a window and waits for its answer on a MessagePort (the signed-in shell answers,
 * src/features/notifications/hooks/use-push-toasts.ts): a window that does not answer in time
 * (still loading, signed out, an older version of the app) counts as not having done it. One home
 * for the notification click's OPEN_LINK (open-link.ts) and the push toast (push-display.ts).
 */

/** The part of a WindowClient this needs (a fake in tests). */
export interface AskedWindow {
  postMessage(message: unknown, transfer: Transferable[]): void;
}

/** Posts `message` with a port; resolves with the window's answer, or null when none came within `answerMs`. */
export function askWindow(win: AskedWindow, message: object, answerMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => {
      channel.port1.close();
      resolve(null);
    }, answerMs);
    channel.port1.onmessage = (event: MessageEvent) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(event.data as unknown);
    };
    win.postMessage(message, [channel.port2]);
  });
}
