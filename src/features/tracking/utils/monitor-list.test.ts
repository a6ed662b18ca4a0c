/** §5/§8: what the monitor's list says when its page is past the end; the first steps only on the whole list's page 1. */
import { describe, expect, it } from 'vitest';
import { offersFirstSteps, pastEndPages } from './monitor-list';

describe('a page past the end of the list', () => {
  it('is a page beyond the pages the answer counts', () => {
    expect(pastEndPages(9999, { pages: 3, rows: 0, count: 45 }, 20)).toBe(3);
    expect(pastEndPages(2, { pages: 0, rows: 0, count: 0 }, 20)).toBe(0);
  });

  it('is an empty page after the first of a capped list, whose pages are only a lower bound', () => {
    // 1,000+ orders: the server says "at least the page asked for", and the page is empty.
    expect(pastEndPages(60, { pages: 60, rows: 0, count: 1000 }, 20)).toBe(50);
    expect(pastEndPages(51, { pages: 51, rows: 0, count: 1000 }, 20)).toBe(50);
    expect(pastEndPages(3, { pages: 3, rows: 0, count: 1000 }, 20)).toBe(2);
  });

  it('is not page 1, however empty, nor a page with rows', () => {
    expect(pastEndPages(1, { pages: 1, rows: 0, count: 0 }, 20)).toBeNull();
    expect(pastEndPages(1, { pages: 0, rows: 0, count: 0 }, 20)).toBeNull();
    expect(pastEndPages(60, { pages: 61, rows: 20, count: 1000 }, 20)).toBeNull();
    expect(pastEndPages(3, { pages: 3, rows: 5, count: 45 }, 20)).toBeNull();
  });
});

describe('the first-steps panel', () => {
  const whole = { tab: 'all', query: '', page: 1, more: 0, mine: false } as const;
  it('is the empty answer of the whole list on page 1 only', () => {
    expect(offersFirstSteps(whole)).toBe(true);
    expect(offersFirstSteps({ ...whole, more: 2 })).toBe(true);
    expect(offersFirstSteps({ ...whole, page: 51 })).toBe(false);
    expect(offersFirstSteps({ ...whole, query: 'door' })).toBe(false);
    expect(offersFirstSteps({ ...whole, mine: true })).toBe(false);
    expect(offersFirstSteps({ ...whole, tab: 'arrived' })).toBe(false);
  });
});
