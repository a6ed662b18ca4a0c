/**
 * One product on a seeded database for the list benchmarks: the seed at BENCH_SCALE (default 50)
 * in PGlite, or in PostgreSQL when BENCH_DATABASE_URL names an empty database; when it names a
 * database that is already seeded (e.g. `npm run seed -- --scale 500`), that data is used as it is
 * (nothing seeded, BENCH_SCALE ignored) and the output says so.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config';
import { startProduct, type Started } from '../../server/start';
import { seedDatabase } from '../../server/db/seed';
import { rowsOf, type Db } from '../../server/db/client';
import { sql } from 'drizzle-orm';

/**
 * The nearest-rank percentile: the smallest value with at least p % of the values at or below it
 * (of 100 calls, p99 is the 99th fastest and p50 the 50th). Until 2026-12-02 this took the value
 * one rank higher, so "p99" of 100 calls was their slowest; the slowest is printed as `max`.
 */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

/** What every browser (and so the app) sends with each call. */
export const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };

/**
 * The V8 flags the product's server runs with (`npm run serve`, decision 0050): the bench starts
 * its server processes with them, and a bench whose server runs in its own process (the lists) says
 * when it was started without them (`npm run bench` passes them).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

export function warnWithoutServerFlags(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const missing = SERVER_NODE_FLAGS.filter((flag) => !given.includes(flag));
  if (missing.length > 0) console.warn(`the server runs in this process without ${missing.join(' ')} (as \`npm run serve\` has it): start it with \`node ${missing.join(' ')} --import tsx …\` for the product's figures`);
}

export interface Scaled {
  product: Started;
  engine: 'PGlite' | 'PostgreSQL';
  /** What the figures ran on: the seed's scale, or the already seeded database's row counts. */
  data: string;
  /** The product's DATA_DIR (its local issuer's key): another replica started on it accepts the same tokens. */
  dataDir: string;
  /** The PostgreSQL database's address ('' on PGlite). */
  databaseUrl: string;
  get(url: string, email?: string, headers?: Record<string, string>): Promise<{ statusCode: number; body: string }>;
  token(email: string): Promise<string>;
  /** p50 / p99 of repeated calls through the whole request path (app.inject), compressed as a browser asks. */
  time(url: string, runs?: number): Promise<{ p50: number; p99: number; max: number }>;
}

export async function withScaledProduct<T>(work: (scaled: Scaled) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-bench-scaled-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
  const scale = Number(process.env.BENCH_SCALE ?? 50);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`BENCH_SCALE must be a positive number, got "${process.env.BENCH_SCALE}"`);
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', SEED_ON_START: 'false', RATE_LIMIT_PER_MINUTE: '100000000', AUTH_LOCAL_ENABLED: 'true' });
  const product = await startProduct(config, { logger: false });
  const db = product.database.db;
  const [state] = rowsOf<{ seeded: boolean }>(await db.execute(sql`select exists (select 1 from users) as seeded`));
  let data: string;
  if (state?.seeded) {
    const [counts] = rowsOf<{ orders: number; items: number; stock: number }>(
      await db.execute(sql`select (select count(*) from orders)::int as orders, (select count(*) from order_items)::int as items, (select count(*) from stock_items)::int as stock`),
    );
    data = `the already seeded database (${counts!.orders.toLocaleString('en-US')} orders, ${counts!.items.toLocaleString('en-US')} order items, ${counts!.stock.toLocaleString('en-US')} stock rows; nothing seeded, BENCH_SCALE not applied)`;
  } else {
    const t0 = performance.now();
    await seedDatabase(db, { scale, supportEmail: config.supportEmail });
    data = `the scale-${scale} seed (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`;
  }
  console.log(`list figures on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${data}`);
  console.log(await machineBaseline(db));
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
    data,
    dataDir,
    databaseUrl,
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
      return { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times) };
    },
  };
  try {
    return await work(scaled);
  } finally {
    await product.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What this machine makes of the work every figure is built of, printed before them so figures
 * of two sessions can be compared (they were once 3-7x apart on two machines of the same kind;
 * docs/decisions/0075): a system call (one-byte reads of /dev/zero: the server's and the
 * database's socket writes and wake-ups are system calls), PostgreSQL's own row speed (counting
 * generated rows, no table read) and a round trip of `select 1` through the product's pool.
 */
export async function machineBaseline(db: Db): Promise<string> {
  const fd = openSync('/dev/zero', 'r');
  const byte = Buffer.alloc(1);
  const calls = 200_000;
  let t0 = performance.now();
  try {
    for (let i = 0; i < calls; i += 1) readSync(fd, byte, 0, 1, null);
  } finally {
    closeSync(fd);
  }
  const syscallUs = ((performance.now() - t0) * 1000) / calls;
  const rows = 2_000_000;
  await db.execute(sql`select count(*) from generate_series(1, ${rows}::int)`);
  t0 = performance.now();
  await db.execute(sql`select count(*) from generate_series(1, ${rows}::int)`);
  const countMs = performance.now() - t0;
  const trips = 200;
  t0 = performance.now();
  for (let i = 0; i < trips; i += 1) await db.execute(sql`select 1`);
  const tripMs = (performance.now() - t0) / trips;
  return `machine baseline: a system call ${syscallUs.toFixed(2)} µs; the database counts ${rows.toLocaleString('en-US')} generated rows in ${countMs.toFixed(0)} ms (${((countMs * 1e6) / rows).toFixed(0)} ns a row); a \`select 1\` round trip ${tripMs.toFixed(2)} ms`;
}
