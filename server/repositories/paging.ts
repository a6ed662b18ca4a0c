/**
 * Paging of lists whose counts stop at a cap (docs/decisions/0021): PostgreSQL counts at most
 * COUNT_CAP + 1 rows, so a count is exact up to COUNT_CAP and a lower bound above it (the envelope
 * names such counts in `counts_capped`). Whether a next page exists is read with the page itself
 * (one row more than asked), so `has_next` is always exact and `pages` at least one past the page
 * when it is true.
 */
import { LIST_COUNT_CAP } from '../../src/contract/common';

export const COUNT_CAP = LIST_COUNT_CAP;

export function cappedPageOf(total: number, capped: boolean, page: number, maxResults: number, hasNext: boolean) {
  const counted = Math.max(1, Math.ceil(total / maxResults));
  const pages = capped || hasNext ? Math.max(counted, hasNext ? page + 1 : page) : counted;
  return { envelope: { page, pages, has_next: hasNext, has_prev: page > 1 }, offset: (page - 1) * maxResults };
}
