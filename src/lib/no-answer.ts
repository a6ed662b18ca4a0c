/**
 * The device-wide sign that the network gives no answer (#22). Browsers often say they are
 * online where there is none: a phone in a basement with a bar of signal and no data, a captive
 * Wi-Fi. A call then fails only after §5's retries (waits of 20 ms, 400 ms and 8 s), and a
 * screen that waited for it would show a spinner for nine seconds before its saved copy. The API
 * client reports every attempt that got no answer at all (not an HTTP error: the server answered
 * those) before it retries; mirrored reads (offline/mirror.ts) take the first report as the cue
 * to show the device's copy while the call goes on.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

/** An HTTP attempt got no answer (network error or time-out) and is about to be tried again. */
export function reportNoAnswer(): void {
  [...listeners].forEach((listener) => listener());
}

/** Resolves at the next report of no answer; `stop` forgets the wait. */
export function nextNoAnswer(): { reported: Promise<void>; stop: () => void } {
  let listener: Listener = () => undefined;
  const reported = new Promise<void>((resolve) => {
    listener = () => {
      listeners.delete(listener);
      resolve();
    };
    listeners.add(listener);
  });
  return { reported, stop: () => listeners.delete(listener) };
}
