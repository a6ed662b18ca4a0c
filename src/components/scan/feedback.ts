/**
 * A short beep and vibration for an accepted scan, where the device allows them (vibration is
 * absent on iOS; audio needs a user gesture first: see `primeScanFeedback`). Silent failures:
 * feedback must never stop a count.
 */
let audio: AudioContext | null = null;

function audioContext(): AudioContext | null {
  const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  return audio;
}

/**
 * Creates (or wakes) the audio in a tap, the one that opens the scanner: iOS Safari keeps audio
 * created outside a user gesture suspended, and the first scan's beep comes from a timer (the
 * camera's read loop) or a database write, never from a tap: no beep was ever heard there.
 */
export function primeScanFeedback(): void {
  try {
    const context = audioContext();
    if (context?.state === 'suspended') void context.resume().catch(() => undefined);
  } catch {
    // no audio
  }
}

/** 'ok': counted or found; 'unknown': the scan did nothing (a code not on the count, a count not saved). */
export function scanFeedback(kind: 'ok' | 'unknown' = 'ok'): void {
  try {
    navigator.vibrate?.(kind === 'ok' ? 60 : [60, 80, 60]);
  } catch {
    // not allowed
  }
  try {
    const context = audioContext();
    if (!context) return;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = kind === 'ok' ? 1760 : 440;
    gain.gain.value = 0.08;
    oscillator.connect(gain).connect(context.destination);
    const now = context.currentTime;
    oscillator.start(now);
    oscillator.stop(now + (kind === 'ok' ? 0.08 : 0.25));
  } catch {
    // no audio
  }
}
