/**
 * A short beep and vibration for an accepted scan, where the device allows them (vibration is
 * absent on iOS; audio needs a user gesture first, which opening the scanner was). Silent failures:
 * feedback must never stop a count.
 */
let audio: AudioContext | null = null;

export function scanFeedback(kind: 'ok' | 'unknown' = 'ok'): void {
  try {
    navigator.vibrate?.(kind === 'ok' ? 60 : [60, 80, 60]);
  } catch {
    // not allowed
  }
  try {
    const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Context) return;
    audio ??= new Context();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = kind === 'ok' ? 1760 : 440;
    gain.gain.value = 0.08;
    oscillator.connect(gain).connect(audio.destination);
    const now = audio.currentTime;
    oscillator.start(now);
    oscillator.stop(now + (kind === 'ok' ? 0.08 : 0.25));
  } catch {
    // no audio
  }
}
