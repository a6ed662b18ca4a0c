/**
 * Hardware barcode scanners in "keyboard wedge" mode (Bluetooth / USB HID) type the code as fast
 * keystrokes ending in Enter. A person types slower than ~30 characters a second; a scanner sends
 * a whole code in a few milliseconds per key. The detector is pure (the clock is passed in) so
 * its timing rule is tested with a fake clock; `useKeyboardWedge` wires it to the document.
 *
 * Where the keys went into a focused field (a quantity, the search), the field is put back as it
 * was before the burst and the Enter is swallowed, so a scan never lands as a quantity.
 */
import { useEffect, useRef } from 'react';

export interface WedgeOptions {
  /** Longest pause between two keys of one scan. */
  maxGapMs?: number;
  /** Shortest code taken for a scan (a quickly typed quantity and Enter is not one). */
  minLength?: number;
}

export class KeyboardWedgeDetector {
  private buffer = '';
  private last = -Infinity;
  private readonly maxGapMs: number;
  private readonly minLength: number;

  constructor({ maxGapMs = 40, minLength = 5 }: WedgeOptions = {}) {
    this.maxGapMs = maxGapMs;
    this.minLength = minLength;
  }

  /** True when this key starts a new burst (what the focused field held before it is worth keeping). */
  startsBurst(now: number): boolean {
    return now - this.last > this.maxGapMs;
  }

  /**
   * One keystroke: a single printable character or 'Enter' (anything else breaks a burst).
   * Returns the scanned code when an Enter ends a burst fast enough and long enough.
   */
  key(key: string, now: number): string | null {
    const gap = now - this.last;
    this.last = now;
    if (key === 'Enter') {
      const code = gap <= this.maxGapMs && this.buffer.length >= this.minLength ? this.buffer : null;
      this.buffer = '';
      this.last = -Infinity;
      return code;
    }
    if (key.length !== 1) {
      this.reset();
      return null;
    }
    this.buffer = gap <= this.maxGapMs ? this.buffer + key : key;
    return null;
  }

  /** Characters of the burst under way (to tell whether a field took them). */
  get pending(): string {
    return this.buffer;
  }

  reset(): void {
    this.buffer = '';
    this.last = -Infinity;
  }
}

type Editable = HTMLInputElement | HTMLTextAreaElement;

const isEditable = (element: Element | null): element is Editable =>
  element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;

/** The input events that put a field back after a scan's keys landed in it (not typing). */
const restores = new WeakSet<Event>();

/**
 * True for the input event by which a scan's keys were taken back out of a field: the field holds
 * again what it held before the burst, so a field that was not being edited is not edited now.
 */
export function isWedgeRestore(event: Event): boolean {
  return restores.has(event);
}

/** Sets a field's value so React sees it (its value setter is patched; the native one is not). */
function restoreValue(field: Editable, value: string) {
  const prototype = field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  const event = new Event('input', { bubbles: true });
  restores.add(event);
  field.dispatchEvent(event);
}

/**
 * Calls `onScan` for each keyboard-wedge scan while `enabled`, wherever the focus is (except in a
 * dialog, which handles its own input). Listens in the capture phase so the Enter of a scan never
 * reaches the focused field.
 */
export function useKeyboardWedge(onScan: (code: string) => void, { enabled = true, ...options }: WedgeOptions & { enabled?: boolean } = {}) {
  const latest = useRef(onScan);
  useEffect(() => {
    latest.current = onScan;
  });
  const { maxGapMs, minLength } = options;
  useEffect(() => {
    if (!enabled) return;
    const detector = new KeyboardWedgeDetector({ maxGapMs, minLength });
    let before: { field: Editable; value: string } | null = null;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.isComposing || event.ctrlKey || event.metaKey || event.altKey) {
        detector.reset();
        return;
      }
      const now = event.timeStamp;
      if (event.key.length === 1 && detector.startsBurst(now)) {
        const active = document.activeElement;
        before = isEditable(active) ? { field: active, value: active.value } : null;
      }
      const code = detector.key(event.key, now);
      if (code === null) return;
      if ((event.target as Element | null)?.closest?.('dialog[open]')) return;
      event.preventDefault();
      event.stopPropagation();
      if (before && before.field.value !== before.value) restoreValue(before.field, before.value);
      before = null;
      latest.current(code);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [enabled, maxGapMs, minLength]);
}
