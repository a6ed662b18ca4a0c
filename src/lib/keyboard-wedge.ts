/**
 * Hardware barcode scanners in "keyboard wedge" mode (Bluetooth / USB HID) type the code as fast
 * keystrokes ending in Enter. A person types slower than ~30 characters a second; a scanner sends
 * a whole code in a few milliseconds per key. The detector is pure (the clock is passed in) so
 * its timing rule is tested with a fake clock; `useKeyboardWedge` wires it to the document.
 *
 * Where the keys went into a focused field (a quantity, the search), the field is put back as it
 * was before the burst and the Enter is swallowed, so a scan never lands as a quantity.
 *
 * A scanner types a capital letter as Shift then the letter, and a GS1 group separator as Ctrl+].
 * Modifier keys on their own are not part of the code: they neither break a burst nor count in
 * its timing (a Shift that broke it lost the first letters of `KM123456` into the field).
 */
import { useEffect, useRef } from 'react';

export interface WedgeOptions {
  /** Longest pause between two keys of one scan. */
  maxGapMs?: number;
  /** Shortest code taken for a scan (a quickly typed quantity and Enter is not one). */
  minLength?: number;
}

/** Keys that only modify the next one: a scanner sends Shift before each capital letter. */
const MODIFIERS = new Set(['Shift', 'CapsLock', 'Control', 'Alt', 'AltGraph', 'Meta']);

export const isModifierKey = (key: string): boolean => MODIFIERS.has(key);

/** The GS1 group separator between the fields of a GS1 code (`readScan` splits on it). */
export const GROUP_SEPARATOR = '\u001d';

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
   * One keystroke: a single character or 'Enter'. A modifier key alone is skipped, and does not
   * move the clock either: a person holding Shift between two slow keys is still slow. Any other
   * key breaks a burst. Returns the scanned code when an Enter ends a burst fast enough and long enough.
   */
  key(key: string, now: number): string | null {
    if (isModifierKey(key)) return null;
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

/** The key a keydown adds to a burst: Ctrl+] is how a scanner types the GS1 separator. */
function keyOf(event: KeyboardEvent): string | null {
  if (!event.ctrlKey && !event.metaKey && !event.altKey) return event.key;
  if (event.metaKey || event.altKey) return null;
  // Known by its key or, on layouts where that key is not "]", by its place on the keyboard (a
  // scanner sends the key's position on a US keyboard).
  return event.key === ']' || event.key === GROUP_SEPARATOR || event.code === 'BracketRight' ? GROUP_SEPARATOR : null;
}

/**
 * The keydown listener behind `useKeyboardWedge` (apart so its handling of a focused field is
 * tested without a browser): calls `onScan` with each scanned code.
 */
export function wedgeListener(
  onScan: (code: string) => void,
  options: WedgeOptions = {},
  /** 'anywhere': also inside an open dialog (the camera sheet's own listener, for a scanner used while it is open). */
  where: 'outside-dialogs' | 'anywhere' = 'outside-dialogs',
): (event: KeyboardEvent) => void {
  const detector = new KeyboardWedgeDetector(options);
  let before: { field: Editable; value: string; start: number | null; end: number | null } | null = null;
  return (event) => {
    // Before the Ctrl/Alt/Meta test: pressing Control or Alt itself sets that flag, and a
    // modifier alone must not break the burst (nor be taken for its start).
    if (!event.isComposing && isModifierKey(event.key)) return;
    const key = event.isComposing ? null : keyOf(event);
    if (key === null) {
      detector.reset();
      return;
    }
    const now = event.timeStamp;
    if (key.length === 1 && detector.startsBurst(now)) {
      const active = document.activeElement;
      before = isEditable(active) ? { field: active, value: active.value, start: active.selectionStart, end: active.selectionEnd } : null;
    }
    const code = detector.key(key, now);
    if (code === null) return;
    if (where === 'outside-dialogs' && (event.target as Element | null)?.closest?.('dialog[open]')) return;
    event.preventDefault();
    event.stopPropagation();
    if (before && before.field.value !== before.value) {
      restoreValue(before.field, before.value);
      // And its selection: a count selected by a tap stays selected, so what is typed next replaces it.
      if (typeof before.start === 'number' && typeof before.end === 'number') before.field.setSelectionRange(before.start, before.end);
    }
    before = null;
    onScan(code);
  };
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
    const onKeyDown = wedgeListener((code) => latest.current(code), { maxGapMs, minLength });
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [enabled, maxGapMs, minLength]);
}
