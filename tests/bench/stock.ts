/**
 * my_plant_stock on the scaled seed (≥ 200,000 stock rows), as the super manager (every plant):
 * p50 and p99 for page 1, a deep page and searches (decision 0012): a description word matching
 * ~13% of the rows ("door"), the same search's deep page, a full material code (rare) and a bin.
 * Goal: p99 ≤ 50 ms.
 */
import type { Scaled } from './scaled';

interface ListPage {
  total: number;
  pages: number;
  stock_items: Array<{ material_code: string; bin: string | null }>;
}

export async function stockBench(scaled: Scaled) {
  const first = JSON.parse((await scaled.get('/api/v2/my_plant_stock')).body) as ListPage;
  const door = JSON.parse((await scaled.get('/api/v2/my_plant_stock?query=door')).body) as ListPage;
  const deep = Math.floor(first.pages * 0.9);
  const doorDeep = Math.max(1, Math.floor(door.pages * 0.9));
  const code = first.stock_items[0]!.material_code;
  const bin = first.stock_items.find((item) => item.bin !== null)?.bin ?? 'A-01-1';
  const cases = [
    ['page 1', '/api/v2/my_plant_stock?page=1'],
    [`deep page (${deep})`, `/api/v2/my_plant_stock?page=${deep}`],
    ['search "door"', '/api/v2/my_plant_stock?query=door'],
    [`search "door", deep page (${doorDeep})`, `/api/v2/my_plant_stock?query=door&page=${doorDeep}`],
    [`search a material code (${code})`, `/api/v2/my_plant_stock?query=${encodeURIComponent(code)}`],
    [`search a bin (${bin})`, `/api/v2/my_plant_stock?query=${encodeURIComponent(bin)}`],
  ] as const;
  const rows = [];
  for (const [name, url] of cases) rows.push({ name, total: first.total, ...(await scaled.time(url)) });
  return rows;
}
