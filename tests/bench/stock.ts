/**
 * my_plant_stock on the scaled seed (≥ 200,000 stock rows), as the super manager (every plant):
 * p50 and p99 over repeated calls for page 1, a deep page and a search term. Goal: p99 ≤ 50 ms.
 * Measured through app.inject (the whole request path: auth, scoping, SQL, serialization).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config';
import { startProduct } from '../../server/start';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export async function stockBench(runs = 100): Promise<Array<{ name: string; p50: number; p99: number; total: number }>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-bench-stock-'));
  const product = await startProduct(
    loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '', LOG_LEVEL: 'warn', SEED_SCALE: '50', RATE_LIMIT_PER_MINUTE: '1000000' }),
    { logger: false },
  );
  try {
    const token = JSON.parse(
      (await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email: 'manager@example.com' } })).body,
    ).idToken as string;
    const call = (url: string) => product.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const first = JSON.parse((await call('/api/v2/my_plant_stock')).body) as { total: number; pages: number };
    const cases = [
      { name: 'page 1', url: '/api/v2/my_plant_stock?page=1' },
      { name: `deep page (${Math.floor(first.pages * 0.9)})`, url: `/api/v2/my_plant_stock?page=${Math.floor(first.pages * 0.9)}` },
      { name: 'search "door"', url: '/api/v2/my_plant_stock?query=door' },
    ];
    const results = [];
    for (const { name, url } of cases) {
      for (let i = 0; i < 5; i += 1) await call(url); // warm-up
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const t0 = performance.now();
        const res = await call(url);
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
      }
      results.push({ name, p50: percentile(times, 50), p99: percentile(times, 99), total: first.total });
    }
    return results;
  } finally {
    await product.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
