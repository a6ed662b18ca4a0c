/**
 * A toast does not go from under the user (WCAG 2.2.1): its time stops while the pointer is on it
 * or the focus is in it, and starts again, whole, when they leave.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentToast, dismissToast, holdToast, showToast } from './toast';

const SHOWN_MS = 8000;

describe('a toast held by the pointer or the focus', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    dismissToast();
    vi.useRealTimers();
  });

  it('stays while the pointer is on it, and its whole time after it left', () => {
    showToast('Count 12 cancelled.');
    vi.advanceTimersByTime(SHOWN_MS - 100);
    holdToast('pointer', true);
    vi.advanceTimersByTime(60_000);
    expect(currentToast()?.message).toBe('Count 12 cancelled.');
    holdToast('pointer', false);
    vi.advanceTimersByTime(SHOWN_MS - 1);
    expect(currentToast()?.message).toBe('Count 12 cancelled.');
    vi.advanceTimersByTime(1);
    expect(currentToast()).toBeNull();
  });

  it('stays while the focus is in it (its action about to be pressed), held by either until both let go', () => {
    showToast('Parcel arrived', 'info', { ms: 10_000, action: { label: 'Open', run: () => undefined } });
    holdToast('focus', true);
    holdToast('pointer', true);
    holdToast('pointer', false);
    vi.advanceTimersByTime(60_000);
    expect(currentToast()?.message).toBe('Parcel arrived');
    holdToast('focus', false);
    vi.advanceTimersByTime(10_000);
    expect(currentToast()).toBeNull();
  });

  it('a new toast is not held by the last one’s pointer or focus, nor one shown after a dismissal', () => {
    showToast('First');
    holdToast('focus', true);
    showToast('Second');
    vi.advanceTimersByTime(SHOWN_MS);
    expect(currentToast()).toBeNull();
    showToast('Third');
    holdToast('pointer', true);
    dismissToast();
    showToast('Fourth');
    vi.advanceTimersByTime(SHOWN_MS);
    expect(currentToast()).toBeNull();
  });

  it('letting go of nothing held changes nothing: the time runs on', () => {
    showToast('Saved.');
    vi.advanceTimersByTime(SHOWN_MS - 1);
    holdToast('pointer', false);
    holdToast('focus', false);
    vi.advanceTimersByTime(1);
    expect(currentToast()).toBeNull();
  });
});

describe('a toast that says there is no connection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('window', new EventTarget());
  });
  afterEach(() => {
    dismissToast();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('goes when the connection returns, even while held; another toast does not', () => {
    showToast('No connection: the change is saved on this device.', 'success', { untilOnline: true });
    holdToast('pointer', true);
    window.dispatchEvent(new Event('online'));
    expect(currentToast()).toBeNull();
    showToast('Count 12 saved.');
    window.dispatchEvent(new Event('online'));
    expect(currentToast()?.message).toBe('Count 12 saved.');
    // A toast that replaced a "no connection" one is not taken by the connection's return either.
    showToast('No connection: the change is saved on this device.', 'success', { untilOnline: true });
    showToast('Count 13 saved.');
    window.dispatchEvent(new Event('online'));
    expect(currentToast()?.message).toBe('Count 13 saved.');
  });

  it('gives the keyboard focus it held to the main content as it goes', () => {
    const main = { focus: vi.fn() };
    vi.stubGlobal('document', { getElementById: (id: string) => (id === 'main' ? main : null) });
    showToast('No connection: the change is saved on this device.', 'success', { untilOnline: true });
    holdToast('focus', true);
    window.dispatchEvent(new Event('online'));
    expect(currentToast()).toBeNull();
    expect(main.focus).toHaveBeenCalledOnce();
  });
});
