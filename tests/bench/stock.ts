/**
 * my_plant_stock on the scaled seed (≥ 200,000 stock rows), as the super manager (every plant):
 * p50 and p99 for page 1, a deep page and searches (docs/decisions/0021): a description word
 * matching ~13% of the rows ("door", its count capped at 1,000), the same search's last counted page
 * and a page far past the cap, a full material code (rare) and a bin; deep pages also by cursor
 * (`after`, the page before's next_cursor). Goal: p99 ≤ 50 ms.
 */
import type { Scaled } from './scaled';

interface ListPage {
  total: number;
  pages: number;
  counts_capped?: string[];
  stock_items: Array<{ material_code: string; bin: string | null }>;
}

/** Every list parameter, as the app sends them. */
const url = (given: Record<string, string | number>, list = 'my_plant_stock') =>
  `/api/v2/${list}?${new URLSearchParams({ query: '', page: '1', maxResults: '20', ...Object.fromEntries(Object.entries(given).map(([k, v]) => [k, String(v)])) }).toString()}`;

export async function stockBench(scaled: Scaled) {
  const first = JSON.parse((await scaled.get(url({}))).body) as ListPage;
  const deep = Math.floor(first.pages * 0.9);
  const code = first.stock_items[0]!.material_code;
  const bin = first.stock_items.find((item) => item.bin !== null)?.bin ?? 'A-01-1';
  const location = (first.stock_items[0] as unknown as { storage_location: string }).storage_location;
  const rows: Array<{ list: string; name: string; total: number; p50: number; p99: number; max: number }> = [];
  const measure = async (name: string, path: string, list = 'my_plant_stock') => rows.push({ list, name, total: first.total, ...(await scaled.time(path)) });
  // The same page by keyset (docs/decisions/0035 addendum 2026-11-25): the page before's next_cursor as `after`.
  const cursorOf = async (given: Record<string, string | number>) =>
    (JSON.parse((await scaled.get(url(given))).body) as ListPage & { next_cursor?: string | null }).next_cursor ?? null;
  const measureByCursor = async (name: string, given: Record<string, string | number>) => {
    const after = await cursorOf({ ...given, page: Number(given.page) - 1 });
    if (after) await measure(`${name} by cursor (after=)`, url({ ...given, after }));
  };
  await measure('page 1', url({ page: 1 }));
  await measure(`deep page (${deep})`, url({ page: deep }));
  await measureByCursor(`deep page (${deep})`, { page: deep });
  const searches: Array<[string, string]> = [
    ['"door" (a description word)', 'door'],
    [`a material code (${code})`, code],
    [`a bin (${bin})`, bin],
    [`a storage location (${location})`, location],
    ['a part of a material code ("0001")', '0001'],
    ['one letter "q"', 'q'],
    ['two letters "xz" (rare)', 'xz'],
  ];
  for (const [name, query] of searches) {
    const answer = JSON.parse((await scaled.get(url({ query }))).body) as ListPage;
    const rowsNote = `${answer.total}${answer.counts_capped?.length ? '+' : ''} rows`;
    await measure(`search ${name} (${rowsNote}), page 1`, url({ query }));
    if (answer.pages > 1) {
      const page = Math.max(2, Math.floor(answer.pages * 0.9));
      await measure(`search ${name}, page ${page} of ${answer.pages}`, url({ query, page }));
      await measureByCursor(`search ${name}, page ${page}`, { query, page });
    }
  }
  await measure('search "door", page 500 (past the count cap)', url({ query: 'door', page: 500 }));
  await measureByCursor('search "door", page 500', { query: 'door', page: 500 });
  return rows;
}
