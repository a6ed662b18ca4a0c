/**
 * What the status monitor's list says instead of rows (a page past its end, or the first steps)
 * and how many pages it tells (§2, §5).
 */
import type { TFunction } from 'i18next';
import type { TrackingStatusPage, TrackingStatusParams } from '../../../contract/parts';
import type { MonitorState } from './monitor-state';

/** The count of the list a status shows: its tab's. */
export function listCountOf(status: TrackingStatusParams['status']): 'count_total' | 'count_arrived' | 'count_incoming' {
  return status === 'arrived' ? 'count_arrived' : status === 'incoming' ? 'count_incoming' : 'count_total';
}

/** Whether the count of the list an answer pages through is a lower bound (docs/decisions/0021: it stops at 1,000). */
export function isListCountCapped(answer: Pick<TrackingStatusPage, 'counts_capped'>, status: TrackingStatusParams['status']): boolean {
  return Boolean(answer.counts_capped?.includes(listCountOf(status)));
}

/** A number of pages as told: "50+" when it is a lower bound, in the user's number format then. */
export function pageCountText(t: TFunction, language: string, pages: number, atLeast: boolean): string | number {
  return atLeast ? t('lists.atLeast', { value: new Intl.NumberFormat(language).format(pages) }) : pages;
}

interface PageAnswer {
  page: number;
  pages: number;
  has_next: boolean;
  rows: number;
}

/**
 * The pager under the loaded pages: how many pages the list has, whether that is a lower bound,
 * and whether Next leads on. Past the count's cap the first page's `pages` is only a lower bound,
 * and deciding Next by it disabled Next on page 50 of a longer list; the last loaded page's
 * `has_next`, read with the page itself, is always exact (server/repositories/paging.ts). So the
 * list has at least the last loaded page, and one more while another follows. Until the last
 * page has answered (`last` undefined), the first page's count decides as before.
 */
export function monitorPager(first: { pages: number }, last: PageAnswer | undefined, lastPage: number, capped: boolean): { pages: number; atLeast: boolean; hasNext: boolean } {
  if (last === undefined) return { pages: Math.max(first.pages, lastPage), atLeast: capped, hasNext: lastPage < first.pages };
  if (last.has_next) return { pages: Math.max(first.pages, last.pages, lastPage + 1), atLeast: capped, hasNext: true };
  // The end is in sight: the last loaded page is the list's last, or, empty, past it.
  return { pages: last.rows > 0 ? lastPage : Math.max(1, Math.min(last.pages, lastPage - 1)), atLeast: false, hasNext: false };
}

/**
 * The number of pages to tell when the shown page is past the list's end, else null. A page
 * beyond `pages` is past it; so is an empty page after the first: a capped list (1,000+ orders,
 * `pages` a lower bound at least the page asked for) does not know where it ends, and said
 * nothing more than "no orders to track yet". There the pages the count vouches for are told.
 */
export function pastEndPages(page: number, answer: { pages: number; rows: number; count: number }, pageSize: number): number | null {
  if (page > Math.max(1, answer.pages)) return answer.pages;
  if (page > 1 && answer.rows === 0) return Math.max(1, Math.min(page - 1, Math.ceil(answer.count / pageSize)));
  return null;
}

/** The first-steps panel (#19 item 23) is the empty answer of the whole list only: All, no search, not My orders, page 1. */
export function offersFirstSteps(state: MonitorState): boolean {
  return state.tab === 'all' && !state.mine && state.query === '' && state.page === 1;
}
