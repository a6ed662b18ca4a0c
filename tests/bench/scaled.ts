/** One product on the scale-50 seed for the list benchmarks (PGlite, or BENCH_DATABASE_URL). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config';
import { startProduct, type Started } from '../../server/start';

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** What every browser (and so the app) sends with each call. */
export const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };

export interface Scaled {
  product: Started;
  engine: 'PGlite' | 'PostgreSQL';
  get(url: string, email?: string, headers?: Record<string, string>): Promise<{ statusCode: number; body: string }>;
  token(email: string): Promise<string>;
  /** p50 / p99 of repeated calls through the whole request path (app.inject), compressed as a browser asks. */
  time(url: string, runs?: number): Promise<{ p50: number; p99: number }>;
}

export async function withScaledProduct<T>(work: (scaled: Scaled) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-bench-scaled-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
  const product = await startProduct(
    loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', SEED_SCALE: '50', RATE_LIMIT_PER_MINUTE: '100000000' }),
    { logger: false },
  );
  const tokens = new Map<string, string>();
  const token = async (email: string) => {
    if (!tokens.has(email)) {
      const res = await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email } });
      tokens.set(email, JSON.parse(res.body).idToken as string);
    }
    return tokens.get(email)!;
  };
  const get = async (url: string, email = 'manager@example.com', headers: Record<string, string> = {}) =>
    product.app.inject({ method: 'GET', url, headers: { ...headers, authorization: `Bearer ${await token(email)}` } });
  const scaled: Scaled = {
    product,
    engine: databaseUrl ? 'PostgreSQL' : 'PGlite',
    get,
    token,
    async time(url, runs = 100) {
      for (let i = 0; i < 5; i += 1) await get(url);
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const t0 = performance.now();
        const res = await get(url, undefined, BROWSER);
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      }
      return { p50: percentile(times, 50), p99: percentile(times, 99) };
    },
  };
  try {
    return await work(scaled);
  } finally {
    await product.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
