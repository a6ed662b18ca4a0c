/**
 * my_plant_stock on the scaled seed (≥ 200,000 stock rows), as the super manager (every plant):
 * p50 and p99 for page 1, a deep page and searches (docs/decisions/0021): a description word
 * matching ~13% of the rows ("door", its count capped at 1,000), the same search's last counted page
 * and a page far past the cap, a full material code (rare) and a bin. Goal: p99 ≤ 50 ms.
 */
import type { Scaled } from './scaled';

interface ListPage {
  total: number;
  pages: number;
  counts_capped?: string[];
  stock_items: Array<{ material_code: string; bin: string | null }>;
}

/** Every list parameter, as the app sends them. */
const url = (given: Record<string, string | number>) =>
  `/api/v2/my_plant_stock?${new URLSearchParams({ query: '', page: '1', maxResults: '20', ...Object.fromEntries(Object.entries(given).map(([k, v]) => [k, String(v)])) }).toString()}`;

export async function stockBench(scaled: Scaled) {
  const first = JSON.parse((await scaled.get(url({}))).body) as ListPage;
  const door = JSON.parse((await scaled.get(url({ query: 'door' }))).body) as ListPage;
  const deep = Math.floor(first.pages * 0.9);
  const doorDeep = Math.max(1, Math.floor(door.pages * 0.9));
  const code = first.stock_items[0]!.material_code;
  const bin = first.stock_items.find((item) => item.bin !== null)?.bin ?? 'A-01-1';
  const cases = [
    ['page 1', url({ page: 1 })],
    [`deep page (${deep})`, url({ page: deep })],
    [`search "door" (${door.total}${door.counts_capped?.length ? '+' : ''} rows)`, url({ query: 'door' })],
    [`search "door", page ${doorDeep}`, url({ query: 'door', page: doorDeep })],
    ['search "door", page 500 (past the count cap)', url({ query: 'door', page: 500 })],
    [`search a material code (${code})`, url({ query: code })],
    [`search a bin (${bin})`, url({ query: bin })],
  ] as const;
  const rows = [];
  for (const [name, path] of cases) rows.push({ name, total: first.total, ...(await scaled.time(path)) });
  return rows;
}
