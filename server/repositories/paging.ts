/**
 * Paging of lists whose counts stop at a cap (docs/decisions/0021): PostgreSQL counts at most
 * COUNT_CAP + 1 rows, so a count is exact up to COUNT_CAP and a lower bound above it (the envelope
 * names such counts in `counts_capped`). Whether a next page exists is read with the page itself
 * (one row more than asked), so `has_next` is always exact and `pages` at least one past the page
 * when it is true.
 */
import { LIST_COUNT_CAP } from '../../src/contract/common';

export const COUNT_CAP = LIST_COUNT_CAP;

/**
 * `rows`: how many rows the page itself holds. A page past the end holds none, so the list has
 * fewer pages than its number: `pages` is then below `page` (the client's "page past the end"),
 * at most the counted pages, which past the cap stay a lower bound as `counts_capped` says.
 * Without it a capped tab answered pages = page for every page past its end, and the client
 * showed an empty page instead of saying it was past the end.
 */
export function cappedPageOf(total: number, capped: boolean, page: number, maxResults: number, hasNext: boolean, rows?: number) {
  const counted = Math.max(1, Math.ceil(total / maxResults));
  const pages =
    rows === 0 && page > 1
      ? Math.max(1, Math.min(counted, page - 1))
      : capped || hasNext
        ? Math.max(counted, hasNext ? page + 1 : page)
        : counted;
  return { envelope: { page, pages, has_next: hasNext, has_prev: page > 1 }, offset: (page - 1) * maxResults };
}

/** What a list route answers (400) for an `after` that is not one of its cursors. */
export const BAD_CURSOR = 'after must be the next_cursor of a page of this list';

/**
 * Keyset cursors (docs/decisions/0035): the list-order key of a page's last row, as opaque text
 * (base64url of a JSON array of strings). A list reads the rows after it through its order's
 * index, at the same cost at any depth. `decodeCursor` answers null for anything that is not a
 * cursor of `parts` strings (the route's 400).
 */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string, parts: number): string[] | null {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(key) || key.length !== parts || !key.every((part) => typeof part === 'string' && part.length <= 100)) return null;
    return key as string[];
  } catch {
    return null;
  }
}

/** A timestamp as the tracking cursor holds it: UTC to the microsecond, as PostgreSQL writes it (to_char … "US"). */
export const CURSOR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
