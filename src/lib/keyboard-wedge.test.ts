import { describe, expect, it } from 'vitest';
import { KeyboardWedgeDetector } from './keyboard-wedge';

/** Types `text` then Enter with `gap` ms between keys on a fake clock; returns what the detector saw. */
function typeAt(detector: KeyboardWedgeDetector, text: string, gap: number, start = 1000, enterGap = gap) {
  let now = start;
  for (const key of text) {
    detector.key(key, now);
    now += gap;
  }
  return detector.key('Enter', now - gap + enterGap);
}

describe('keyboard-wedge detector', () => {
  it('takes a fast burst ending in Enter as a scan', () => {
    expect(typeAt(new KeyboardWedgeDetector(), 'KM123456', 8)).toBe('KM123456');
    expect(typeAt(new KeyboardWedgeDetector(), '000000000012345678', 2)).toBe('000000000012345678');
  });

  it('does not take human typing (≥ 80 ms a key) for a scan', () => {
    expect(typeAt(new KeyboardWedgeDetector(), 'KM123456', 80)).toBeNull();
    expect(typeAt(new KeyboardWedgeDetector(), 'KM123456', 41)).toBeNull();
  });

  it('does not take a short quickly typed quantity and Enter for a scan', () => {
    expect(typeAt(new KeyboardWedgeDetector(), '12', 5)).toBeNull();
    expect(typeAt(new KeyboardWedgeDetector({ minLength: 3 }), '123', 5)).toBe('123');
  });

  it('needs the Enter to follow the burst at once', () => {
    expect(typeAt(new KeyboardWedgeDetector(), 'KM123456', 5, 0, 300)).toBeNull();
  });

  it('starts a new burst after a pause: slow typing before a scan is not part of it', () => {
    const detector = new KeyboardWedgeDetector();
    detector.key('x', 0);
    detector.key('y', 200);
    expect(detector.startsBurst(500)).toBe(true);
    expect(typeAt(detector, 'KM123456', 10, 500)).toBe('KM123456');
  });

  it('a non-character key breaks the burst', () => {
    const detector = new KeyboardWedgeDetector();
    detector.key('K', 0);
    detector.key('M', 5);
    detector.key('Shift', 10);
    for (const [i, key] of [...'12345'].entries()) detector.key(key, 15 + i * 5);
    expect(detector.key('Enter', 40)).toBe('12345');
    expect(detector.pending).toBe('');
  });

  it('two scans in a row are two codes', () => {
    const detector = new KeyboardWedgeDetector();
    expect(typeAt(detector, 'KM111111', 5, 0)).toBe('KM111111');
    expect(typeAt(detector, 'KM222222', 5, 60)).toBe('KM222222');
  });
});
