/**
 * §7 /api/v2/my_stock_count (list, one count by stockCountId) and /my_stock_count/submit,
 * plus /my_material to find a material to add. Submission books the count in the ERP through
 * the adapter: completed with its physical inventory document, or error with latest_sap_error.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import * as z from 'zod/mini';
import { errorBody } from '../../../src/contract/common';
import {
  myMaterialQuery,
  myMaterialResponse,
  stockCountListQuery,
  stockCountListResponse,
  stockCountRow,
  submitStockCountQuery,
} from '../../../src/contract/stock';
import { submitConflict } from '../../../src/contract/stock-count-parts';
import { can } from '../../../src/domain/permissions';
import type { Db, Tx } from '../../db/client';
import { materialCounts, stockCounts } from '../../db/schema';
import type { ErpAdapter, PhysicalInventoryResult } from '../../erp/adapter';
import { requireUser } from '../../plugins/auth';
import type { CurrentUser } from '../../repositories/users';
import { HttpError } from '../../plugins/errors';
import { assertIdempotencyKey, replayStored, runMutation } from '../../plugins/idempotency';
import { assertEditable, findStockCount, isBeingBooked, isBlindFor, listStockCounts, oversees, searchMaterials, toStockCountRows, movedBookLines } from '../../repositories/stock-counts';
import { splitSubmitRefusal } from '../../repositories/stock-count-parts';

const tags = ['stock counts'];

export const stockCountRoutes: FastifyPluginAsyncZod<{ db: Db; erp: ErpAdapter }> = async (app, { db, erp }) => {
  app.get(
    '/my_stock_count',
    {
      config: { capability: 'stockCount.read' },
      schema: {
        tags,
        summary: 'Stock counts the caller may see (default sort: plant)',
        querystring: stockCountListQuery,
        response: { 200: stockCountListResponse, 400: errorBody },
      },
    },
    async (request) => listStockCounts(db, requireUser(request), request.query),
  );

  app.get(
    '/my_stock_count/submit',
    {
      // The spec's submission is a GET; a HEAD (which Fastify adds beside every GET) is a safe
      // method that must book nothing, so this route has none: HEAD answers 404.
      exposeHeadRoute: false,
      config: { capability: 'stockCount.submit' },
      schema: {
        tags,
        summary: 'Submit a stock count to the ERP system (completed, or error with latest_sap_error; 503 when the ERP gave no answer or another try is still with it: send it again, it is booked once; a count booked already is answered as booked)',
        querystring: submitStockCountQuery,
        response: { 200: stockCountRow, 400: errorBody, 403: errorBody, 404: errorBody, 409: z.union([submitConflict, errorBody]), 422: errorBody, 503: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { stockCountId, confirmOpenParts, openPartIds } = request.query;
      // Decision 0053: the ERP books outside any transaction. (1) The count is checked and marked
      // `submitted` under its ERP reference, committed; (2) the ERP is asked under that reference;
      // (3) the outcome is written, then the answer is stored with the idempotency key. A count
      // has one reference for good (a recount is another count): every try, repeat or later
      // submission asks the ERP under it, and the ERP books it once.
      assertIdempotencyKey(request);
      if (await replayStored(db, request, reply)) return reply;

      const step = await db.transaction(async (tx) => {
        const count = await findStockCount(tx, user, stockCountId, true);
        // Booked already under its reference: the outcome of a submission is committed, but its
        // answer may never have reached the phone (a 503 whose booking a later submission
        // finished, a server that stopped before storing the answer under the key). Submitting a
        // booked count is answered with the count as booked, as the submission that booked it was,
        // whoever asks and under whatever key: there is nothing left to do, and a 409 would mark
        // the phone's submission failed for good. The ERP is not asked again.
        if (isBooked(count)) return { booked: true as const, count };
        const lines = await tx
          .select()
          .from(materialCounts)
          .where(eq(materialCounts.stockCountId, count.id))
          .orderBy(asc(materialCounts.materialCode));
        // Submitted already, its booking not finished (a lost answer, a server that stopped, a try
        // still with the ERP): the lines were checked and are frozen since; the same submission goes on.
        if (isBeingBooked(count)) {
          await tx.update(stockCounts).set(startTry).where(eq(stockCounts.id, count.id));
          return { booked: false as const, count, lines, reference: count.erpReference! };
        }
        await assertSubmittable(tx, user, count, lines, confirmOpenParts === true, openPartIds);
        const reference = count.erpReference ?? randomUUID();
        await tx
          .update(stockCounts)
          .set({ status: 'submitted', erpReference: reference, isDraft: false, submittedAt: sql`now()`, updatedAt: sql`now()`, ...startTry })
          .where(eq(stockCounts.id, count.id));
        return { booked: false as const, count, lines, reference };
      });
      const { count } = step;

      if (!step.booked) {
        const outcome = await bookUnderReference(db, erp, count, step.lines, step.reference, request.log);
        if (outcome === 'noAnswer') {
          throw new HttpError(
            503,
            `The ERP system did not answer. Stock count ${count.id} stays submitted: send it again to finish booking it (it is booked once).`,
            { code: 'erpNoAnswer', params: { id: count.id } },
            { 'retry-after': String(ERP_RETRY_AFTER_SECONDS) },
          );
        }
        if (outcome === 'pending') {
          // Refused while another try of the same reference is with the ERP (a resend while the
          // first call runs: "blocked by a running posting"). That try may still book the count,
          // so it stays submitted and frozen, and this caller asks again for the outcome.
          throw new HttpError(
            503,
            `Stock count ${count.id} is still being booked in the ERP system by an earlier submission: it stays submitted. Send it again in a moment for the outcome (it is booked once).`,
            { code: 'submitStillBooking', params: { id: count.id } },
            { 'retry-after': String(ERP_RETRY_AFTER_SECONDS) },
          );
        }
      }
      return runMutation(db, request, reply, async (tx) => {
        const [current] = await tx.select().from(stockCounts).where(eq(stockCounts.id, count.id));
        const [row] = await toStockCountRows(tx, [current!], user);
        return { body: row };
      });
    },
  );

  app.get(
    '/my_material',
    {
      config: { capability: 'stock.read' },
      schema: {
        tags: ['stock'],
        summary: 'Materials by code prefix or description, to add to a count',
        querystring: myMaterialQuery,
        response: { 200: myMaterialResponse, 400: errorBody },
      },
    },
    async (request) => searchMaterials(db, request.query.materialCode, request.query.page, request.query.maxResults),
  );
};

/** How long a phone waits before asking again when the ERP gave no answer. */
const ERP_RETRY_AFTER_SECONDS = 5;

/**
 * How long a try of a booking counts as outstanding at most (decision 0053): longer than any ERP
 * call is let run. A try whose server stopped mid-call never ends; after this it no longer keeps
 * another try's refusal from being written, nor the sweep (periodic.ts) from asking again.
 */
export const ERP_TRY_EXPIRES_MINUTES = 5;

/** The newest outstanding try of the count's booking began recently enough to count. */
const tryFresh = sql`${stockCounts.erpTryStartedAt} > now() - make_interval(mins => ${ERP_TRY_EXPIRES_MINUTES})`;

/** A try of the count's booking is outstanding (registered, not ended, not expired). */
export const tryOutstanding = sql`(${stockCounts.erpTries} > 0 and coalesce(${tryFresh}, false))`;

/**
 * One try more of the booking: set in the transaction that hands the count to the ERP (step 1,
 * or the sweep's claim). Tries left by a server that stopped are forgotten once expired.
 */
export const startTry = {
  erpTries: sql`case when ${tryFresh} then ${stockCounts.erpTries} + 1 else 1 end`,
  // From the newest try: timed from the first, a try started 4 minutes later expired a minute after
  // it began, while it could still book the count.
  erpTryStartedAt: sql`now()`,
};

/**
 * One try less, whatever its outcome. A try that outlived its expiry may take off a newer try's
 * mark: the counter never goes below 0, and that try's outcome is written as any other's.
 */
const endTry = {
  erpTries: sql`greatest(${stockCounts.erpTries} - 1, 0)`,
  erpTryStartedAt: sql`case when ${stockCounts.erpTries} <= 1 then null else ${stockCounts.erpTryStartedAt} end`,
};

type StockCountRecord = typeof stockCounts.$inferSelect;

/** Booked by a submission: completed under its ERP reference, with the ERP's document. */
export function isBooked(count: Pick<StockCountRecord, 'status' | 'erpReference' | 'physicalInventoryDocumentNumber'>): boolean {
  return count.status === 'completed' && count.erpReference !== null && count.physicalInventoryDocumentNumber !== null;
}

/**
 * Steps (2) and (3) of a submission (decision 0053), for a try registered in step (1) (startTry):
 * asks the ERP under the count's reference, outside any transaction, and writes the outcome.
 * Shared by the route and the sweep of counts left submitted (periodic.ts). Answers `noAnswer`
 * when the ERP gave none (the count stays submitted), `pending` when it refused while another try
 * of the reference is outstanding (the count stays submitted: that try may still book it), else
 * `written` (completed, error, or the count already settled by another try).
 */
export async function bookUnderReference(
  db: Db,
  erp: ErpAdapter,
  count: StockCountRecord,
  lines: ReadonlyArray<typeof materialCounts.$inferSelect>,
  reference: string,
  log: FastifyBaseLogger,
): Promise<'written' | 'pending' | 'noAnswer'> {
  let result: PhysicalInventoryResult;
  try {
    result = await erp.postPhysicalInventory({
      reference,
      stockCountId: count.id,
      plant: count.plant,
      storageLocation: count.storageLocation,
      lines: lines.map((line) => ({ materialCode: line.materialCode, quantity: Number(line.quantity), unit: line.unit })),
    });
  } catch (error) {
    log.warn({ err: error, stockCountId: count.id, reference }, 'the ERP system gave no answer to a submission');
    await db.update(stockCounts).set(endTry).where(eq(stockCounts.id, count.id));
    return 'noAnswer';
  }

  // The outcome, whatever the caller's key holds: a try that booked must leave the count
  // completed even when another try (or a repeat of this key) answered first. A booking wins
  // over a refusal of another try under the same reference; a refusal changes only a count
  // still waiting for its booking, and only when no other try is outstanding: a refusal written
  // as `error` makes the count editable and cancellable, under a try that may still book it.
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        status: stockCounts.status,
        erpReference: stockCounts.erpReference,
        others: sql<number>`case when ${tryFresh} then greatest(${stockCounts.erpTries} - 1, 0) else 0 end`,
      })
      .from(stockCounts)
      .where(eq(stockCounts.id, count.id))
      .for('update');
    if (!current) return 'written';
    let outcome: 'written' | 'pending' = 'written';
    let changes: PgUpdateSetSource<typeof stockCounts> = endTry;
    if (current.status === 'completed' || current.erpReference !== reference) {
      // Settled by another try: only this try ends.
    } else if (result.ok) {
      changes = { ...endTry, status: 'completed', physicalInventoryDocumentNumber: result.documentNumber, latestSapError: null, updatedAt: sql`now()` };
    } else if (current.status === 'submitted') {
      if (Number(current.others) > 0) outcome = 'pending';
      else changes = { ...endTry, status: 'error', latestSapError: JSON.stringify(result.error), updatedAt: sql`now()` };
    }
    await tx.update(stockCounts).set(changes).where(eq(stockCounts.id, count.id));
    return outcome;
  });
}

/**
 * Whether a count may be submitted now (editable, every line counted, no book quantity moved
 * unanswered, on a split count every part done or confirmed by its planner): a 409 saying what
 * stands in the way otherwise.
 */
async function assertSubmittable(
  tx: Tx,
  user: CurrentUser,
  count: typeof stockCounts.$inferSelect,
  lines: Array<typeof materialCounts.$inferSelect>,
  confirmOpenParts: boolean,
  shownOpenPartIds?: readonly number[],
): Promise<void> {
  assertEditable(count);
  // #18: a split count is submitted when every part is done, or by its planner confirming the open ones; never with a variance.
  const refusal = await splitSubmitRefusal(tx, user, count, {
    confirmOpenParts,
    ...(shownOpenPartIds ? { shownOpenPartIds } : {}),
    mayConfirm: can(user.grants, 'stockCount.edit') && (await oversees(tx, user, count.id)),
  });
  if (refusal) {
    const { message, ...lists } = refusal;
    throw new HttpError(409, message, lists);
  }
  const missing = lines.filter((line) => line.quantity === null).length;
  if (missing > 0) {
    throw new HttpError(409, `${missing} material${missing === 1 ? ' is' : 's are'} not counted yet: count every line before submitting`, {
      code: 'submitNotCounted',
      params: { count: missing },
    });
  }
  const moved = await movedBookLines(tx, lines);
  if (moved.length > 0) {
    const codes = moved.map((line) => line.material_code).join(', ');
    // A counter of a blind count is shown no book quantity and may accept none (decision 0054):
    // the choice is its planner's, and the message says so instead of asking for buttons it lacks.
    if (await isBlindFor(tx, user, count)) {
      throw new HttpError(
        409,
        `The book quantity changed after counting started for ${codes}: this count is blind, so its planner chooses which book quantity to keep before it can be submitted`,
        { code: 'submitBookMovedBlind', params: { codes, count: moved.length } },
      );
    }
    throw new HttpError(409, `The book quantity changed after counting started for ${codes}: keep the counted quantity or keep the difference before submitting`, {
      code: 'submitBookMoved',
      params: { codes, count: moved.length },
    });
  }
}
