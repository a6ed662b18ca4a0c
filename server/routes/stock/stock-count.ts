/**
 * §7 /api/v2/my_stock_count (list, one count by stockCountId) and /my_stock_count/submit,
 * plus /my_material to find a material to add. Submission books the count in the ERP through
 * the adapter: completed with its physical inventory document, or error with latest_sap_error.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq, sql } from 'drizzle-orm';
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
      config: { capability: 'stockCount.submit' },
      schema: {
        tags,
        summary: 'Submit a stock count to the ERP system (completed, or error with latest_sap_error; 503 when the ERP gave no answer: send it again, it is booked once)',
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
      const replayed = await replayStored(db, request, reply);
      if (replayed) return replayed;

      const { count, lines, reference } = await db.transaction(async (tx) => {
        const count = await findStockCount(tx, user, stockCountId, true);
        const lines = await tx
          .select()
          .from(materialCounts)
          .where(eq(materialCounts.stockCountId, count.id))
          .orderBy(asc(materialCounts.materialCode));
        // Submitted already, its booking not finished (a lost answer, a server that stopped): the
        // lines were checked and are frozen since; the same submission goes on.
        if (isBeingBooked(count)) return { count, lines, reference: count.erpReference! };
        await assertSubmittable(tx, user, count, lines, confirmOpenParts === true, openPartIds);
        const reference = count.erpReference ?? randomUUID();
        await tx
          .update(stockCounts)
          .set({ status: 'submitted', erpReference: reference, isDraft: false, submittedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(stockCounts.id, count.id));
        return { count, lines, reference };
      });

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
        request.log.warn({ err: error, stockCountId: count.id, reference }, 'the ERP system gave no answer to a submission');
        throw new HttpError(
          503,
          `The ERP system did not answer. Stock count ${count.id} stays submitted: send it again to finish booking it (it is booked once).`,
          {},
          { 'retry-after': String(ERP_RETRY_AFTER_SECONDS) },
        );
      }

      // The outcome, whatever this request's key holds: a try that booked must leave the count
      // completed even when another try (or a repeat of this key) answered first. A booking wins
      // over a refusal of another try under the same reference; a refusal changes only a count
      // still waiting for its booking.
      await db.transaction(async (tx) => {
        const [current] = await tx.select().from(stockCounts).where(eq(stockCounts.id, count.id)).for('update');
        if (!current || current.status === 'completed' || current.erpReference !== reference) return;
        if (result.ok) {
          await tx
            .update(stockCounts)
            .set({ status: 'completed', physicalInventoryDocumentNumber: result.documentNumber, latestSapError: null, updatedAt: sql`now()` })
            .where(eq(stockCounts.id, count.id));
        } else if (current.status === 'submitted') {
          await tx.update(stockCounts).set({ status: 'error', latestSapError: JSON.stringify(result.error), updatedAt: sql`now()` }).where(eq(stockCounts.id, count.id));
        }
      });
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
    throw new HttpError(409, `${missing} material${missing === 1 ? ' is' : 's are'} not counted yet: count every line before submitting`);
  }
  const moved = await movedBookLines(tx, lines);
  if (moved.length > 0) {
    const codes = moved.map((line) => line.material_code).join(', ');
    // A counter of a blind count is shown no book quantity and may accept none (decision 0054):
    // the choice is its planner's, and the message says so instead of asking for buttons it lacks.
    if (await isBlindFor(tx, user, count)) {
      throw new HttpError(409, `The book quantity changed after counting started for ${codes}: this count is blind, so its planner chooses which book quantity to keep before it can be submitted`);
    }
    throw new HttpError(409, `The book quantity changed after counting started for ${codes}: keep the counted quantity or keep the difference before submitting`);
  }
}
