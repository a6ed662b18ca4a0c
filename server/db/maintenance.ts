/**
 * What autovacuum does, for the embedded engine. PGlite is one process with no background workers,
 * so nothing ever reclaims the row versions that updates and deletes leave behind (ERP files
 * rewrite orders and items three times a day; counts, summaries and bit strings are updated in
 * place), index-only scans stop paying off as pages lose their all-visible mark, and the planner's
 * statistics age while the data grows. Every few minutes the tables whose changes since their last
 * vacuum / analyze pass autovacuum's default thresholds are vacuumed and analyzed, one at a time.
 * PostgreSQL has its own autovacuum: this runs on PGlite only (server/start.ts).
 *
 * PGlite has one connection: a pass holds it while it runs (a large table takes about a second),
 * so passes are rare and only for tables that need one.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { startPeriodic, type Periodic } from '../periodic';
import { rowsOf, type Db } from './client';

/** PostgreSQL's defaults: autovacuum_vacuum_threshold / _scale_factor, and the analyze pair. */
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;

export interface MaintenancePass {
  vacuumed: string[];
  analyzed: string[];
}

/** One pass: VACUUM (ANALYZE) the tables with enough dead rows, ANALYZE those with enough changes. */
export async function maintainTables(db: Db): Promise<MaintenancePass> {
  // Counters of the statements just run are flushed when the backend is next idle (at most once a
  // second otherwise): ask for it, so the next statement reads them.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const due = rowsOf<{ schema: string; name: string; vacuum: boolean }>(
    await db.execute(sql`
      select s.schemaname as schema, s.relname as name,
        s.n_dead_tup > ${VACUUM_BASE} + ${VACUUM_SCALE} * greatest(c.reltuples, 0) as vacuum
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.n_dead_tup > ${VACUUM_BASE} + ${VACUUM_SCALE} * greatest(c.reltuples, 0)
         or s.n_mod_since_analyze > ${ANALYZE_BASE} + ${ANALYZE_SCALE} * greatest(c.reltuples, 0)
      order by s.n_dead_tup + s.n_mod_since_analyze desc`),
  );
  const pass: MaintenancePass = { vacuumed: [], analyzed: [] };
  for (const table of due) {
    const name = sql.identifier(table.schema);
    const relation = sql`${name}.${sql.identifier(table.name)}`;
    // VACUUM cannot run in a transaction block: each statement on its own.
    if (table.vacuum) {
      await db.execute(sql`vacuum (analyze) ${relation}`);
      pass.vacuumed.push(table.name);
    } else {
      await db.execute(sql`analyze ${relation}`);
    }
    pass.analyzed.push(table.name);
  }
  return pass;
}

/** Runs a pass every `intervalMs`; a pass still running when stopped is waited for. */
export function startTableMaintenance(db: Db, log: Pick<FastifyBaseLogger, 'info' | 'warn'>, intervalMs = 5 * 60_000): Periodic {
  return startPeriodic(async () => {
    const startedAt = Date.now();
    try {
      const pass = await maintainTables(db);
      if (pass.analyzed.length > 0) log.info({ ...pass, ms: Date.now() - startedAt }, 'table maintenance (PGlite has no autovacuum)');
    } catch (error) {
      log.warn({ err: error }, 'table maintenance failed');
    }
  }, intervalMs);
}
