import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GROUP_SEPARATOR, isWedgeRestore, KeyboardWedgeDetector, wedgeListener } from './keyboard-wedge';

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
    detector.key('Tab', 10);
    for (const [i, key] of [...'12345'].entries()) detector.key(key, 15 + i * 5);
    expect(detector.key('Enter', 40)).toBe('12345');
    expect(detector.pending).toBe('');
  });

  it('a Shift before each capital letter (how a scanner types them) does not break the burst', () => {
    const detector = new KeyboardWedgeDetector();
    const keys = ['Shift', 'K', 'Shift', 'M', ...'123456'];
    keys.forEach((key, i) => detector.key(key, i * 4));
    expect(detector.key('Enter', keys.length * 4)).toBe('KM123456');
  });

  it('a modifier key alone does not count in the timing: slow typing with Shift held is still slow', () => {
    const detector = new KeyboardWedgeDetector();
    detector.key('x', 0);
    for (const [i, key] of ['Shift', 'CapsLock', 'Control', 'Alt', 'AltGraph', 'Meta'].entries()) detector.key(key, 10 + i * 5);
    expect(detector.startsBurst(60)).toBe(true);
    detector.key('Y', 60);
    expect(detector.pending).toBe('Y');
  });

  it('two scans in a row are two codes', () => {
    const detector = new KeyboardWedgeDetector();
    expect(typeAt(detector, 'KM111111', 5, 0)).toBe('KM111111');
    expect(typeAt(detector, 'KM222222', 5, 60)).toBe('KM222222');
  });
});

/** A text field as far as the listener uses one (the unit tests run without a browser DOM). */
class FakeInput extends EventTarget {
  #value = '';
  selectionStart: number | null = 0;
  selectionEnd: number | null = 0;
  get value() {
    return this.#value;
  }
  set value(next: string) {
    this.#value = next;
    this.selectionStart = this.selectionEnd = next.length;
  }
  setSelectionRange(start: number, end: number) {
    this.selectionStart = start;
    this.selectionEnd = end;
  }
}
class FakeTextArea extends FakeInput {}

interface Stroke {
  key: string;
  code?: string;
  ctrlKey?: boolean;
}

/**
 * Plays keydowns through the listener as a browser would: a key the listener does not prevent
 * types its character into the focused field (a modifier, Enter or a Ctrl chord types nothing).
 */
function play(listener: (event: KeyboardEvent) => void, field: FakeInput, strokes: Stroke[], gap: number, start = 1000) {
  strokes.forEach(({ key, code = '', ctrlKey = false }, i) => {
    let prevented = false;
    const event = {
      key,
      code,
      ctrlKey,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      isComposing: false,
      timeStamp: start + i * gap,
      target: field,
      preventDefault: () => (prevented = true),
      stopPropagation: () => undefined,
    } as unknown as KeyboardEvent;
    listener(event);
    if (!prevented && key.length === 1 && !ctrlKey) field.value += key;
  });
}

/** The keys a scanner sends for `text`: Shift before each capital letter, then Enter. */
const scannerKeys = (text: string): Stroke[] => [
  ...[...text].flatMap((key) => (key >= 'A' && key <= 'Z' ? [{ key: 'Shift' }, { key }] : [{ key }])),
  { key: 'Enter' },
];

describe('keyboard-wedge listener in a focused field', () => {
  let field: FakeInput;
  const restored: boolean[] = [];
  beforeEach(() => {
    field = new FakeInput();
    field.addEventListener('input', (event) => restored.push(isWedgeRestore(event)));
    restored.length = 0;
    vi.stubGlobal('HTMLInputElement', FakeInput);
    vi.stubGlobal('HTMLTextAreaElement', FakeTextArea);
    vi.stubGlobal('document', { activeElement: field });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('takes KM123456 typed with Shift before K and M whole, and leaves nothing of it in the field', () => {
    const scans: string[] = [];
    field.value = '7';
    play(wedgeListener((code) => scans.push(code)), field, scannerKeys('KM123456'), 4);
    expect(scans).toEqual(['KM123456']);
    expect(field.value).toBe('7');
    expect(restored).toEqual([true]);
  });

  it('gives a field back its selection too: a count selected by a tap is replaced by what is typed next', () => {
    field.value = '12';
    field.setSelectionRange(0, 2);
    play(wedgeListener(() => undefined), field, scannerKeys('KM123456'), 4);
    expect(field.value).toBe('12');
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, 2]);
  });

  it('takes Ctrl+] for the GS1 group separator, the Control key itself breaking nothing', () => {
    const scans: string[] = [];
    const keys = scannerKeys('0104012345678901');
    keys.splice(-1, 0, { key: 'Control', ctrlKey: true }, { key: ']', code: 'BracketRight', ctrlKey: true }, ...scannerKeys('10AB12').slice(0, -1));
    play(wedgeListener((code) => scans.push(code)), field, keys, 3);
    expect(scans).toEqual([`0104012345678901${GROUP_SEPARATOR}10AB12`]);
    expect(field.value).toBe('');
  });

  it('leaves a scan inside an open dialog to the dialog, unless the listener is the dialog\'s own (the camera sheet)', () => {
    // The focused element is in an open dialog (the camera sheet's Close button, say).
    const inDialog = Object.assign(field, { closest: (selector: string) => (selector === 'dialog[open]' ? {} : null) });
    const page: string[] = [];
    play(wedgeListener((code) => page.push(code)), inDialog, scannerKeys('KM123456'), 4);
    expect(page).toEqual([]);
    const sheet: string[] = [];
    inDialog.value = '';
    play(wedgeListener((code) => sheet.push(code), {}, 'anywhere'), inDialog, scannerKeys('KM654321'), 4);
    expect(sheet).toEqual(['KM654321']);
  });

  it('leaves a person typing capitals alone', () => {
    const scans: string[] = [];
    play(wedgeListener((code) => scans.push(code)), field, scannerKeys('ABCDEF'), 90);
    expect(scans).toEqual([]);
    expect(field.value).toBe('ABCDEF');
    expect(restored).toEqual([]);
  });
});
