import { describe, expect, it } from 'vitest';
import { binInRange, mergeLine } from './stock-count-parts';

describe('mergeLine (#18, decision 0033)', () => {
  it('a line of one part takes its counter’s quantity', () => {
    expect(mergeLine([{ partId: 1, quantity: null }], null)).toEqual({ state: 'open', quantity: null });
    expect(mergeLine([{ partId: 1, quantity: 4 }], null)).toEqual({ state: 'counted', quantity: 4 });
    expect(mergeLine([], null)).toEqual({ state: 'unassigned', quantity: null });
  });

  it('a control count agrees, waits, or is a variance without a quantity', () => {
    expect(mergeLine([{ partId: 1, quantity: 4 }, { partId: 2, quantity: null }], null)).toEqual({ state: 'partly', quantity: 4 });
    expect(mergeLine([{ partId: 1, quantity: 4 }, { partId: 2, quantity: 4 }], null)).toEqual({ state: 'counted', quantity: 4 });
    expect(mergeLine([{ partId: 1, quantity: 4 }, { partId: 2, quantity: 5 }], null)).toEqual({ state: 'variance', quantity: null });
  });

  it('a resolution takes one counter’s quantity while it stands', () => {
    expect(mergeLine([{ partId: 1, quantity: 4 }, { partId: 2, quantity: 5 }], 2)).toEqual({ state: 'resolved', quantity: 5 });
    expect(mergeLine([{ partId: 1, quantity: 4 }, { partId: 2, quantity: null }], 2)).toEqual({ state: 'partly', quantity: 4 });
  });

  it('bins in a range, case-insensitive, never a line without a bin', () => {
    expect(binInRange('a-02', { from: 'A-01', to: 'A-10' })).toBe(true);
    expect(binInRange('B-01', { from: 'A-01', to: 'A-10' })).toBe(false);
    expect(binInRange(null, { from: 'A', to: 'Z' })).toBe(false);
  });
});
