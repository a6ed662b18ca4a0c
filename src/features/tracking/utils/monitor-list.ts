/** What the status monitor's list says instead of rows: a page past its end, or the first steps (§2, §5). */
import type { MonitorState } from './monitor-state';

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
