/**
 * Forms holding typed text say so, and stop saying so when saved, released or gone; what would
 * throw the text away asks while any holds.
 */
import { describe, expect, it, vi } from 'vitest';
import { holdUnsavedText, releaseUnsavedText, subscribeUnsavedText, unsavedTextHeld } from './unsaved-text';

describe('unsaved text', () => {
  it('is held while any form holds it, and told to listeners once per change', () => {
    const listener = vi.fn();
    const stop = subscribeUnsavedText(listener);
    const first = {};
    const second = {};
    expect(unsavedTextHeld()).toBe(false);
    holdUnsavedText(first);
    holdUnsavedText(first);
    holdUnsavedText(second);
    expect(unsavedTextHeld()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(2);
    releaseUnsavedText(first);
    expect(unsavedTextHeld()).toBe(true);
    releaseUnsavedText(second);
    releaseUnsavedText(second);
    expect(unsavedTextHeld()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(4);
    stop();
    holdUnsavedText(first);
    expect(listener).toHaveBeenCalledTimes(4);
    releaseUnsavedText(first);
  });
});
