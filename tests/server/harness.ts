/**
 * Test harness: a real app on a real database through `app.inject`. Every test file gets its
 * own database: PGlite in memory always, and a PostgreSQL database too when DATABASE_URL is set
 * (CI sets it), so each suite runs on both engines through the same schema. Under vitest each
 * starts as a copy of the run's migrated and seeded template (tests/server/template.ts); elsewhere
 * (the benchmarks) it is migrated and seeded here.
 */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { createLocalIssuer, type LocalIssuer } from '../../server/auth/local-issuer';
import { buildApp } from '../../server/app';
import { Caches } from '../../server/cache';
import { createLocalErpAdapter, type ErpAdapter } from '../../server/erp/adapter';
import { TrackingSearchIndex } from '../../server/search/tracking-index';
import { createScratchDatabase, openPgliteCopy, providedTemplates, seedTestData } from './template';

export { createScratchDatabase, SEED_NOW } from './template';

export type Engine = 'pglite' | 'postgres';

/** The engines this run covers: PGlite, plus PostgreSQL when DATABASE_URL is set. */
export const ENGINES: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

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

export async function createTestProduct(
  engine: Engine,
  env: Record<string, string> = {},
  erp: ErpAdapter = createLocalErpAdapter(),
): Promise<TestProduct> {
  // env and erp change the app's configuration only, never the data: every product shares the template.
  const template = (await providedTemplates())?.[engine] ?? undefined;
  const pgDatabase = engine === 'postgres' ? await createScratchDatabase(process.env.DATABASE_URL!, 'pt_test', template) : null;
  const database = pgDatabase
    ? await openDatabase({ databaseUrl: pgDatabase.url })
    : template
      ? await openPgliteCopy(template)
      : await openDatabase({ memory: true });
  if (!template) {
    await database.migrate();
    await seedTestData(database.db);
  }
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
