/**
 * my_plant_stock on the scaled seed (≥ 200,000 stock rows), as the super manager (every plant):
 * p50 and p99 for page 1, a deep page and a search term. Goal: p99 ≤ 50 ms.
 */
import type { Scaled } from './scaled';

export async function stockBench(scaled: Scaled) {
  const first = JSON.parse((await scaled.get('/api/v2/my_plant_stock')).body) as { total: number; pages: number };
  const deep = Math.floor(first.pages * 0.9);
  const cases = [
    ['page 1', '/api/v2/my_plant_stock?page=1'],
    [`deep page (${deep})`, `/api/v2/my_plant_stock?page=${deep}`],
    ['search "door"', '/api/v2/my_plant_stock?query=door'],
  ] as const;
  const rows = [];
  for (const [name, url] of cases) rows.push({ name, total: first.total, ...(await scaled.time(url)) });
  return rows;
}
