/**
 * Test harness: a real app on a real database through `app.inject`. Every test file gets its
 * own database: PGlite in memory always, and a fresh PostgreSQL database too when DATABASE_URL
 * is set (CI sets it), so each suite runs on both engines through the same schema.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { seedDatabase } from '../../server/db/seed';
import { createLocalIssuer, type LocalIssuer } from '../../server/auth/local-issuer';
import { buildApp } from '../../server/app';
import { Caches } from '../../server/cache';
import { createLocalErpAdapter, type ErpAdapter } from '../../server/erp/adapter';
import { TrackingSearchIndex } from '../../server/search/tracking-index';

export type Engine = 'pglite' | 'postgres';

/** The engines this run covers: PGlite, plus PostgreSQL when DATABASE_URL is set. */
export const ENGINES: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A fixed clock for the seed, so data-dependent assertions never drift. */
export const SEED_NOW = new Date('2026-11-20T09:00:00Z');

export interface TestProduct {
  app: FastifyInstance;
  database: Database;
  issuer: LocalIssuer;
  config: Config;
  token(email: string): Promise<string>;
  /**
   * Forgets every cached answer. Call it after writing to the database directly (not through the
   * API) when the next call must see the write: PGlite announces it at once, but PostgreSQL's
   * NOTIFY reaches the app a moment later, through another connection.
   */
  invalidateCaches(): void;
  /** The app's caches (tests of the caches themselves). */
  caches: Caches;
  /** The tracking search index (docs/decisions/0016), built before the first test; TRACKING_SEARCH_INDEX=off: none. */
  trackingIndex: TrackingSearchIndex;
  close(): Promise<void>;
}

/**
 * Creates an empty database named `<prefix>_<random>` on the PostgreSQL server of `adminUrl`;
 * `drop()` removes it again (forcing out open connections). Used by the tests and the benchmarks.
 */
export async function createScratchDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function createTestProduct(
  engine: Engine,
  env: Record<string, string> = {},
  erp: ErpAdapter = createLocalErpAdapter(),
): Promise<TestProduct> {
  const pgDatabase = engine === 'postgres' ? await createScratchDatabase(process.env.DATABASE_URL!, 'pt_test') : null;
  const database = await openDatabase(pgDatabase ? { databaseUrl: pgDatabase.url } : { memory: true });
  await database.migrate();
  await seedDatabase(database.db, { now: SEED_NOW, supportEmail: 'support@example.com' });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_DIR: './no-such-dir', ...env });
  const issuer = await createLocalIssuer(null, 600);
  const caches = new Caches({ enabled: config.responseCache });
  const quiet = { info: () => {}, warn: () => {} };
  const trackingIndex = new TrackingSearchIndex(database.db, { ...config.trackingSearchIndex, log: quiet });
  const app = await buildApp({ config, db: database.db, localIssuer: issuer, erp, logger: false, caches, trackingIndex });
  await app.ready();
  await caches.listen(database.changes, app.log);
  // Built before the tests run, so every search goes through it (the product builds it in the background).
  await trackingIndex.start();
  return {
    app,
    database,
    issuer,
    config,
    token: async (email) => (await issuer.issue(email)).idToken,
    invalidateCaches: () => caches.invalidate(),
    caches,
    trackingIndex,
    async close() {
      await trackingIndex.stop();
      await app.close();
      await caches.close();
      await database.close();
      await pgDatabase?.drop();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
