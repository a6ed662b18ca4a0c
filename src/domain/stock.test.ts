import { describe, expect, it } from 'vitest';
import { bookQuantityMoved, bookQuantityOf, quantityKeepingDifference, totalQuantity } from './stock';

const counts = (u: number | null, q: number | null, b: number | null, r: number | null, t: number | null) => ({
  unrestricted_count: u,
  quantity_inspection_count: q,
  blocked_count: b,
  restricted_count: r,
  transfer_count: t,
});

describe('§3 total quantity', () => {
  it('sums the five counts', () => expect(totalQuantity(counts(5, 1, 0, 2, 0.5))).toBe(8.5));
  it('is null when any count is not a number', () => {
    expect(totalQuantity(counts(5, null, 0, 2, 0))).toBeNull();
    expect(totalQuantity(counts(Number.NaN, 1, 0, 2, 0))).toBeNull();
  });
});

describe('book quantity drift', () => {
  it('takes the book quantity as the §3 total, without binary noise, so it compares equal to the database’s numeric sum', () => {
    expect(bookQuantityOf(counts(0.1, 0.2, 0, 0, 0))).toBe(0.3);
    expect(bookQuantityOf(counts(5, null, 0, 2, 0))).toBeNull();
  });

  it('flags a changed book quantity; no book at the start is 0, an unknown book now moves nothing', () => {
    expect(bookQuantityMoved(4, 6)).toBe(true);
    expect(bookQuantityMoved(4, 4)).toBe(false);
    // No stock row when counting began, 6 booked now (an ERP stock upload added it): moved, so the
    // count does not book its quantity against a book of 6 unseen.
    expect(bookQuantityMoved(null, 6)).toBe(true);
    expect(bookQuantityMoved(null, 0)).toBe(false);
    expect(bookQuantityMoved(0, 6)).toBe(true);
    expect(bookQuantityMoved(4, null)).toBe(false);
    expect(bookQuantityMoved(null, null)).toBe(false);
  });

  it('keeping the difference moves the counted quantity by the book’s move, without binary noise', () => {
    // Book 10 → 12 while counting 9 (one missing): keeping the difference gives 11 (still one missing).
    expect(quantityKeepingDifference(9, 10, 12)).toBe(11);
    expect(quantityKeepingDifference(9, 10, 7)).toBe(6);
    expect(quantityKeepingDifference(0.1, 0.2, 0.3)).toBe(0.2);
    // No book at the start counts as 0: the 9 found over nothing stays 9 over the 12 booked now.
    expect(quantityKeepingDifference(9, null, 12)).toBe(21);
    expect(quantityKeepingDifference(9, 10, null)).toBeNull();
  });
});
