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
   * Forgets the verified tokens. Nothing else is kept between calls (docs/decisions/0021): a write
   * to the database is seen by the very next call, on either engine.
   */
  invalidateCaches(): void;
  /** The app's verified-token cache (tests of the cache itself). */
  caches: Caches;
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
  // A file's many calls come from one address: the per-minute limit is the rate-limit tests' own
  // (they pass theirs), not something a fast machine should run into (#16 review).
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_DIR: './no-such-dir', RATE_LIMIT_PER_MINUTE: '1000000', ...env });
  const issuer = await createLocalIssuer(null, 600);
  const caches = new Caches({ enabled: config.responseCache });
  const app = await buildApp({ config, db: database.db, localIssuer: issuer, erp, logger: false, caches });
  await app.ready();
  return {
    app,
    database,
    issuer,
    config,
    token: async (email) => (await issuer.issue(email)).idToken,
    invalidateCaches: () => caches.invalidate(),
    caches,
    async close() {
      await app.close();
      await database.close();
      await pgDatabase?.drop();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
