/**
 * What the status monitor's list says instead of rows (a page past its end, or the first steps)
 * and how many pages it tells (§2, §5).
 */
import { isCountCapped } from '../../../lib/capped-pages';
import type { TrackingStatusPage, TrackingStatusParams } from '../../../contract/parts';
import type { MonitorState } from './monitor-state';

/** The count of the list a status shows: its tab's. */
export function listCountOf(status: TrackingStatusParams['status']): 'count_total' | 'count_arrived' | 'count_incoming' {
  return status === 'arrived' ? 'count_arrived' : status === 'incoming' ? 'count_incoming' : 'count_total';
}

/** Whether the count of the list an answer pages through is a lower bound (docs/decisions/0021: it stops at 1,000). */
export function isListCountCapped(answer: Pick<TrackingStatusPage, 'counts_capped'>, status: TrackingStatusParams['status']): boolean {
  return isCountCapped(answer, listCountOf(status));
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
