/**
 * A list whose count stopped at the cap (docs/decisions/0021) says its pages as a lower bound
 * ("Page 1 of 50+") and lets Next follow the last loaded page, not the first page's count.
 */
import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { cappedPager, cappedPagerLabel, isCountCapped, pageCountText } from './capped-pages';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(new URL('../../locales/en-US.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  await i18next.init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

describe('a capped count', () => {
  it('is the one the answer names in counts_capped', () => {
    expect(isCountCapped({ counts_capped: ['total', 'storage_location_count'] }, 'total')).toBe(true);
    expect(isCountCapped({ counts_capped: ['storage_location_count'] }, 'total')).toBe(false);
    expect(isCountCapped({ counts_capped: [] }, 'total')).toBe(false);
    // An answer saved before counts were capped.
    expect(isCountCapped({}, 'total')).toBe(false);
  });

  it('tells its pages as "at least", in the user’s numbers', () => {
    expect(pageCountText(i18next.t, 'en-US', 1234, true)).toBe('1,234+');
    expect(pageCountText(i18next.t, 'en-US', 50, false)).toBe(50);
  });
});

describe('the pager of a capped list', () => {
  it('lets Next follow the last loaded page past the first page’s count', () => {
    // 1,000 items capped: 50 pages of 20 as counted, the list goes on.
    expect(cappedPager({ pages: 50 }, { pages: 51, has_next: true, rows: 20 }, 50, true)).toEqual({ pages: 51, atLeast: true, hasNext: true });
    // Until the last page has answered, the first page's count decides.
    expect(cappedPager({ pages: 50 }, undefined, 50, true)).toEqual({ pages: 50, atLeast: true, hasNext: false });
    expect(cappedPager({ pages: 50 }, undefined, 3, true)).toEqual({ pages: 50, atLeast: true, hasNext: true });
  });

  it('says the count exactly once the end is in sight', () => {
    expect(cappedPager({ pages: 50 }, { pages: 57, has_next: false, rows: 4 }, 57, true)).toEqual({ pages: 57, atLeast: false, hasNext: false });
    // An empty page past the end: the list ends before it.
    expect(cappedPager({ pages: 50 }, { pages: 56, has_next: false, rows: 0 }, 60, true)).toEqual({ pages: 56, atLeast: false, hasNext: false });
    // Not capped: the count is the count.
    expect(cappedPager({ pages: 3 }, { pages: 3, has_next: false, rows: 20 }, 3, false)).toEqual({ pages: 3, atLeast: false, hasNext: false });
  });

  it('says the range of loaded pages, or the lower bound, and else leaves the plain "Page n of m"', () => {
    expect(cappedPagerLabel(i18next.t, 2, 4, '50+', true)).toBe('Pages 2–4 of 50+');
    expect(cappedPagerLabel(i18next.t, 2, 4, 9, false)).toBe('Pages 2–4 of 9');
    expect(cappedPagerLabel(i18next.t, 1, 1, '50+', true)).toBe('Page 1 of 50+');
    expect(cappedPagerLabel(i18next.t, 1, 1, 9, false)).toBeUndefined();
  });
});
