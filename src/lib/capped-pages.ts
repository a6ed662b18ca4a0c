/**
 * Paging a list whose count may be capped (docs/decisions/0021: a count stops at 1,000 and is a
 * lower bound above it, named in the answer's `counts_capped`). Past the cap the first page's
 * `pages` is only a lower bound too: the pager says "Page 3 of 50+" and lets Next follow the last
 * loaded page's `has_next`, which is always exact (server/repositories/paging.ts). The status
 * monitor's rule (features/tracking/utils/monitor-list.ts), shared here so every paged list uses it.
 */
import type { TFunction } from 'i18next';

/** Whether the count named `count` of an answer is a lower bound. */
export function isCountCapped(answer: { counts_capped?: readonly string[] | undefined }, count: string): boolean {
  return Boolean(answer.counts_capped?.includes(count));
}

/** A number of pages as told: "50+" when it is a lower bound, in the user's number format then. */
export function pageCountText(t: TFunction, language: string, pages: number, atLeast: boolean): string | number {
  return atLeast ? t('lists.atLeast', { value: new Intl.NumberFormat(language).format(pages) }) : pages;
}

/** The last loaded page's answer: its number of pages, whether another follows, and how many rows it held. */
export interface LastPageAnswer {
  pages: number;
  has_next: boolean;
  rows: number;
}

/**
 * The pager under the loaded pages: how many pages the list has, whether that is a lower bound,
 * and whether Next leads on. Deciding Next by the first page's `pages` disabled Next on page 50 of
 * a longer list; the list has at least the last loaded page, and one more while another follows.
 * Until the last page has answered (`last` undefined), the first page's count decides.
 */
export function cappedPager(first: { pages: number }, last: LastPageAnswer | undefined, lastPage: number, capped: boolean): { pages: number; atLeast: boolean; hasNext: boolean } {
  if (last === undefined) return { pages: Math.max(first.pages, lastPage), atLeast: capped, hasNext: lastPage < first.pages };
  if (last.has_next) return { pages: Math.max(first.pages, last.pages, lastPage + 1), atLeast: capped, hasNext: true };
  // The end is in sight: the last loaded page is the list's last, or, empty, past it.
  return { pages: last.rows > 0 ? lastPage : Math.max(1, Math.min(last.pages, lastPage - 1)), atLeast: false, hasNext: false };
}

/**
 * The pager's text where the plain "Page n of m" is not right: a range of loaded pages ("Pages
 * 2–4 of 50+") or a lower bound ("Page 1 of 50+"); undefined for the plain text.
 */
export function cappedPagerLabel(t: TFunction, page: number, lastPage: number, pageCount: string | number, atLeast: boolean): string | undefined {
  if (lastPage > page) return t('tracking.pagesOf', { from: page, to: lastPage, pages: pageCount });
  return atLeast ? t('common.pageOf', { page, pages: pageCount }) : undefined;
}
