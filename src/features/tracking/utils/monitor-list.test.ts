/** §5/§8: what the monitor's list says when its page is past the end; the first steps only on the whole list's page 1. */
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { isListCountCapped, listCountOf, offersFirstSteps, pastEndPages } from './monitor-list';
import { cappedPager as monitorPager, pageCountText } from '../../../lib/capped-pages';

beforeAll(async () => {
  await i18next.init({ lng: 'en-US', resources: { 'en-US': { translation: { lists: { atLeast: '{{value}}+' } } } } });
});

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

describe('the pages the monitor tells past the count\'s cap (1,000 orders: the first page says 50 pages at least)', () => {
  const capped = { page: 1, pages: 50 };

  it('lets Next lead on from page 50 while the last loaded page has a next one, and tells 51+ pages', () => {
    expect(monitorPager(capped, { pages: 51, has_next: true, rows: 20 }, 50, true)).toEqual({ pages: 51, atLeast: true, hasNext: true });
    // The first page alone: its own has_next decides, not its lower-bound count.
    expect(monitorPager({ pages: 1 }, { pages: 1, has_next: true, rows: 20 }, 1, true)).toEqual({ pages: 2, atLeast: true, hasNext: true });
  });

  it('tells the last loaded page as the last when no page follows it: the end is known', () => {
    expect(monitorPager(capped, { pages: 57, has_next: false, rows: 3 }, 57, true)).toEqual({ pages: 57, atLeast: false, hasNext: false });
    expect(monitorPager({ pages: 3 }, { pages: 3, has_next: false, rows: 5 }, 3, false)).toEqual({ pages: 3, atLeast: false, hasNext: false });
    // The last loaded page came back empty (the list shrank): the list ends before it.
    expect(monitorPager({ pages: 3 }, { pages: 2, has_next: false, rows: 0 }, 3, false)).toEqual({ pages: 2, atLeast: false, hasNext: false });
  });

  it('goes by the first page\'s count while the last loaded page has not answered', () => {
    expect(monitorPager(capped, undefined, 3, true)).toEqual({ pages: 50, atLeast: true, hasNext: true });
    expect(monitorPager({ pages: 3 }, undefined, 3, false)).toEqual({ pages: 3, atLeast: false, hasNext: false });
  });

  it('says a lower bound with a "+" in the user\'s number format, an exact count as it is', () => {
    expect(pageCountText(i18next.t, 'en-US', 1250, true)).toBe('1,250+');
    expect(pageCountText(i18next.t, 'de-DE', 1250, true)).toBe('1.250+');
    expect(pageCountText(i18next.t, 'en-US', 12, false)).toBe(12);
  });

  it('reads the cap of the count of the tab the list shows', () => {
    expect(listCountOf('all')).toBe('count_total');
    expect(listCountOf('arrived')).toBe('count_arrived');
    expect(listCountOf('incoming')).toBe('count_incoming');
    expect(isListCountCapped({ counts_capped: ['count_total'] }, 'all')).toBe(true);
    expect(isListCountCapped({ counts_capped: ['count_total'] }, 'arrived')).toBe(false);
    expect(isListCountCapped({}, 'all')).toBe(false);
  });
});
