import { and, asc, eq, isNotNull, isNull, notInArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/client';
import { materialCounts, stockCounts } from './db/schema';
import type { ErpAdapter } from './erp/adapter';
import { bookUnderReference, startTry, tryOutstanding } from './routes/stock/stock-count';

/**
 * A background task run every `intervalMs` (and once at start when asked). A run still going when
 * the next is due is not started twice; stop() clears the timer and waits for a running one. The
 * task handles its own errors (it logs them): a failed run never stops the next.
 */
export interface Periodic {
  stop(): Promise<void>;
}

export function startPeriodic(task: () => Promise<void>, intervalMs: number, options: { runAtStart?: boolean } = {}): Periodic {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = task().finally(() => {
      running = null;
    });
  };
  if (options.runAtStart) run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Counts left `submitted` under an ERP reference without a document (decision 0053): the server
 * stopped before asking the ERP, or before writing its answer, and the phone that submitted never
 * sends the submission again (its outbox lost, the phone gone). Such a count is frozen until
 * someone submits it again; this asks the ERP again under its reference, once it has been
 * submitted longer than SUBMITTED_SWEEP_MINUTES with no try outstanding, and writes the outcome as
 * the submit route does (bookUnderReference): completed with the document, or error. One count at
 * a time, claimed with FOR UPDATE SKIP LOCKED and registered as a try in the claim's transaction,
 * so two replicas never ask for one count at once and a submission meanwhile sees the try.
 */
export const SUBMITTED_SWEEP_MINUTES = 15;

/** Asks the ERP again for up to `batch` counts left submitted; answers what became of each. */
export async function finishSubmittedCounts(
  db: Db,
  erp: ErpAdapter,
  log: FastifyBaseLogger,
  batch = 20,
): Promise<Array<{ stockCountId: number; outcome: 'written' | 'pending' | 'noAnswer' }>> {
  const done: Array<{ stockCountId: number; outcome: 'written' | 'pending' | 'noAnswer' }> = [];
  while (done.length < batch) {
    const claimed = await db.transaction(async (tx) => {
      const [count] = await tx
        .select()
        .from(stockCounts)
        .where(
          and(
            eq(stockCounts.status, 'submitted'),
            isNotNull(stockCounts.erpReference),
            isNull(stockCounts.physicalInventoryDocumentNumber),
            sql`coalesce(${stockCounts.submittedAt}, ${stockCounts.updatedAt}) < now() - make_interval(mins => ${SUBMITTED_SWEEP_MINUTES})`,
            sql`not ${tryOutstanding}`,
            // Asked once a run: a count whose ERP gave no answer waits for the next run.
            done.length > 0 ? notInArray(stockCounts.id, done.map((row) => row.stockCountId)) : undefined,
          ),
        )
        .orderBy(stockCounts.id)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!count) return null;
      await tx.update(stockCounts).set(startTry).where(eq(stockCounts.id, count.id));
      const lines = await tx.select().from(materialCounts).where(eq(materialCounts.stockCountId, count.id)).orderBy(asc(materialCounts.materialCode));
      return { count, lines };
    });
    if (!claimed) break;
    const outcome = await bookUnderReference(db, erp, claimed.count, claimed.lines, claimed.count.erpReference!, log);
    done.push({ stockCountId: claimed.count.id, outcome });
  }
  return done;
}

/** Runs finishSubmittedCounts every `intervalMs` (and once at start); stop() waits for a running one. */
export function startSubmittedCountSweep(db: Db, erp: ErpAdapter, log: FastifyBaseLogger, intervalMs = 5 * 60 * 1000): Periodic {
  return startPeriodic(
    async () => {
      try {
        const asked = await finishSubmittedCounts(db, erp, log);
        if (asked.length > 0) log.info({ asked }, 'stock counts left submitted were asked again in the ERP system');
      } catch (error) {
        log.error({ err: error }, 'asking the ERP system again for counts left submitted failed');
      }
    },
    intervalMs,
    { runAtStart: true },
  );
}
