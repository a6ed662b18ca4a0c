/**
 * Starting the product: open the database (PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR),
 * apply the committed migrations, seed an empty database with demo data, build the app.
 * Used by server/main.ts, the end-to-end tests and the benchmarks alike.
 */
import type { FastifyInstance } from 'fastify';
import { signInWarning, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { seedDatabase } from './db/seed';
import { bootstrapDatabase } from './db/bootstrap';
import { createLocalIssuer } from './auth/local-issuer';
import { buildApp } from './app';
import { Caches } from './cache';
import { createLocalErpAdapter } from './erp/adapter';
import { purgeExpiredIdempotencyKeys } from './plugins/idempotency';
import { startNotificationDispatch } from './notifications/start';
import { startDueReminders } from './notifications/due-reminders';
import { createIngestionWorker, type IngestionWorker } from './ingestion/worker';
import { startTableMaintenance } from './db/maintenance';
import { startSubmittedCountSweep } from './periodic';
import { backfillReaderTexts } from './notifications/reader-text-backfill';

export interface Started {
  app: FastifyInstance;
  database: Database;
  /** The verified-token cache (docs/decisions/0021); benchmarks read its counters. */
  caches: Caches;
  close(): Promise<void>;
}

export async function startProduct(config: Config, options: { logger?: boolean | object } = {}): Promise<Started> {
  const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  await database.migrate();
  if (config.seedOnStart) {
    await seedDatabase(database.db, { scale: config.seedScale, supportEmail: config.supportEmail });
  }
  // After the seed (which fills an empty database only): the catalogue, plants and first super
  // managers of the configuration. A bad plants file stops the start, the database closed.
  let bootstrapped: Awaited<ReturnType<typeof bootstrapDatabase>>;
  try {
    bootstrapped = await bootstrapDatabase(database.db, config.bootstrap);
  } catch (error) {
    await database.close();
    throw error;
  }
  const localIssuer = config.localAuth
    ? await createLocalIssuer(config.dataDir, config.localTokenTtlSeconds)
    : null;
  const erp = createLocalErpAdapter({ failure: config.erpFailure });
  // #9: ERP files from INBOX_DIR and uploads, claimed through the database (see ingestion/queue.ts).
  const uploads: { worker?: IngestionWorker } = {};
  const caches = new Caches({ enabled: config.responseCache });
  const app = await buildApp({
    config,
    db: database.db,
    localIssuer,
    erp,
    logger: options.logger,
    ingestion: { wake: () => uploads.worker?.wake() },
    caches,
  });
  // Starts anyway, but tells the operator why every sign-in fails and what to set (config.ts).
  const noSignIn = signInWarning(config);
  if (noSignIn) app.log.warn(noSignIn);
  // What the configuration's bootstrap wrote (rows per file, super managers made): the operator sees the files were read.
  if (config.bootstrap.dir || bootstrapped.superManagersAdded.length > 0) app.log.info({ bootstrap: { rows: bootstrapped.rows, superManagersAdded: bootstrapped.superManagersAdded } }, 'bootstrap applied');
  const ingestion = createIngestionWorker(database.db, config.ingestion, app.log);
  uploads.worker = ingestion;
  if (config.ingestion.workerEnabled) ingestion.start();
  // Idempotency keys are kept ≥ 24 h; older ones are purged at start and every hour.
  const purge = () => purgeExpiredIdempotencyKeys(database.db).catch((error: unknown) => app.log.warn({ err: error }, 'purge failed'));
  await purge();
  const purgeTimer = setInterval(purge, 60 * 60 * 1000);
  purgeTimer.unref();
  // #6: sends the notifications recorded by emitNotifications (outbox), after their commit.
  const notificationDispatch = await startNotificationDispatch(database.db, app.log);
  // #6: open stock counts due by tomorrow remind the person counting, once.
  const dueReminders = startDueReminders(database.db, app.log);
  // PGlite has no autovacuum: vacuum and analyze what changed, now and then (db/maintenance.ts).
  const maintenance = database.engine === 'pglite' ? startTableMaintenance(database.db, app.log) : null;
  // Decision 0053: counts left submitted by a server that stopped mid-booking are asked again.
  const submittedSweep = startSubmittedCountSweep(database.db, erp, app.log);
  // Decision 0077: the reader's words of notifications recorded before they were stored (0069),
  // written once in the background; the server answers meanwhile.
  const stopReaderTexts = new AbortController();
  const readerTexts = backfillReaderTexts(database.db, { signal: stopReaderTexts.signal }).then(
    (rows) => {
      if (rows > 0) app.log.info({ rows }, 'notification texts in their readers\' languages written');
    },
    (error: unknown) => app.log.warn({ err: error }, 'notification texts in their readers\' languages not written; the next start tries again'),
  );
  return {
    app,
    database,
    caches,
    async close() {
      clearInterval(purgeTimer);
      await maintenance?.stop();
      await submittedSweep.stop();
      // Stopped between two batches: the server does not wait for a long backlog.
      stopReaderTexts.abort();
      await readerTexts;
      await dueReminders.stop();
      await notificationDispatch.stop();
      await ingestion.stop();
      await app.close();
      await database.close();
    },
  };
}
