/**
 * Text typed into a count line and not stored stays the user's when its row goes (decision 0071):
 * kept per user and count, found again once, forgotten when the field shows what the device holds.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../../tests/setup/memory-storage';
import { dropTyped, forgetTyping, keepTyped, peekTyped, takeTyped, typedCodes, typingScope } from './typed-drafts';

const mine = typingScope('mechanic@example.com', 27);

beforeEach(() => {
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
});

describe('typed text kept off the page', () => {
  it('is found again once, with what the typing began from, and lists the lines holding some', () => {
    keepTyped(mine, 'KM000001', { text: '12a', from: { version: 3, quantity: 5 } });
    keepTyped(mine, 'KM000002', { text: '1.250' });
    expect(typedCodes(mine).sort()).toEqual(['KM000001', 'KM000002']);
    expect(takeTyped(mine, 'KM000001')).toEqual({ text: '12a', from: { version: 3, quantity: 5 } });
    expect(takeTyped(mine, 'KM000001')).toBeUndefined();
    expect(typedCodes(mine)).toEqual(['KM000002']);
  });

  it('is read, not taken, while a row is drawn: a drawing thrown away leaves it for the next one; dropped with a text, only that text goes', () => {
    keepTyped(mine, 'KM000001', { text: '12a' });
    expect(peekTyped(mine, 'KM000001')).toEqual({ text: '12a' });
    // The first drawing never reached the page; the next one reads the same text.
    expect(peekTyped(mine, 'KM000001')).toEqual({ text: '12a' });
    expect(typedCodes(mine)).toEqual(['KM000001']);
    // Dropped with a text (the field shows what the device holds): only if it is still that text.
    dropTyped(mine, 'KM000001', '13');
    expect(typedCodes(mine)).toEqual(['KM000001']);
    dropTyped(mine, 'KM000001', '12a');
    expect(peekTyped(mine, 'KM000001')).toBeUndefined();
  });

  it('belongs to one user and one count', () => {
    keepTyped(mine, 'KM000001', { text: '12a' });
    expect(typedCodes(typingScope('other@example.com', 27))).toEqual([]);
    expect(typedCodes(typingScope('mechanic@example.com', 28))).toEqual([]);
  });

  it('survives a reload: it is in storage, not only in this tab', () => {
    keepTyped(mine, 'KM000001', { text: '12a' });
    expect(localStorage.getItem(`count-typing:${mine}`)).toContain('12a');
  });

  it('is forgotten when the field shows the device’s value again, but not a newer text', () => {
    keepTyped(mine, 'KM000001', { text: '12a' });
    dropTyped(mine, 'KM000001', '7');
    expect(typedCodes(mine)).toEqual(['KM000001']);
    dropTyped(mine, 'KM000001');
    expect(typedCodes(mine)).toEqual([]);
    expect(localStorage.getItem(`count-typing:${mine}`)).toBeNull();
  });

  it('stays in this tab when storage refuses it (full)', () => {
    const full = new MemoryStorage();
    full.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    Object.defineProperty(globalThis, 'localStorage', { value: full, configurable: true });
    keepTyped(mine, 'KM000009', { text: '4' });
    expect(typedCodes(mine)).toEqual(['KM000009']);
    expect(takeTyped(mine, 'KM000009')).toEqual({ text: '4' });
    expect(typedCodes(mine)).toEqual([]);
  });

  it('reads past a stored value that is not its own', () => {
    localStorage.setItem(`count-typing:${mine}`, '{"KM000001": {"text": 5}, "KM000002": {"text": "x"}}');
    expect(typedCodes(mine)).toEqual(['KM000002']);
    localStorage.setItem(`count-typing:${mine}`, 'not json');
    expect(typedCodes(mine)).toEqual([]);
  });

  it('forgets everything kept for a count once it is closed, and nothing of another count', () => {
    const other = typingScope('mechanic@example.com', 99);
    keepTyped(mine, 'KM000001', { text: '12a' });
    keepTyped(mine, 'KM000002', { text: '1.250' });
    keepTyped(other, 'KM000001', { text: '3x' });
    forgetTyping(mine);
    expect(typedCodes(mine)).toEqual([]);
    expect(localStorage.getItem(`count-typing:${mine}`)).toBeNull();
    expect(typedCodes(other)).toEqual(['KM000001']);
  });
});
