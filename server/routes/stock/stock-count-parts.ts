/**
 * #18 several counters on one stock count (decision 0033), under /api/v2/my_stock_count:
 * GET/PUT parts (progress per counter; the split), GET part (a counter's lines), PUT
 * part/quantities, PUT part/status ("my part is done"), GET merge and POST merge/resolve (the
 * planner's view of lines counted twice and the resolution of variances). §6: planners (create
 * and edit stock counts) split and resolve within what they oversee (their plants, their planner
 * groups); a counter reads and writes only their own part.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import { errorBody } from '../../../src/contract/common';
import {
  mergeQuery,
  mergeLineRow,
  mergeResponse,
  partLineConflict,
  partLinesQuery,
  partLinesResponse,
  partQuantitiesBody,
  partQuantitiesResponse,
  partStatusBody,
  resolveLineBody,
  splitStockCountBody,
  stockCountPartRow,
  stockCountPartsQuery,
  stockCountPartsResponse,
} from '../../../src/contract/stock-count-parts';
import type { StockCountStatus } from '../../../src/domain/constants';
import type { Db, Tx } from '../../db/client';
import { stockCountParts, type stockCounts } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { assertEditable, assertOverseer, findStockCount, isBlindFor, oversees } from '../../repositories/stock-counts';
import {
  applySplit,
  assertLinesInPart,
  isSplit,
  mergeRows,
  myPart,
  linesElsewhere,
  splitRevision,
  partLineRows,
  partRows,
  partsOf,
  partsProgress,
  resolveLine,
  setPartStatus,
  writePartQuantities,
  type SplitOutcome,
} from '../../repositories/stock-count-parts';
import { notifyStockCountPartAssigned, notifyStockCountRecountLine, resolveStockCountNotifications } from '../../notifications/producers';
import type { CurrentUser } from '../../repositories/users';

const tags = ['stock counts'];
const writeErrors = { 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody };

/**
 * Tells each counter given a part, or whose part gained or lost lines (their phone reads it
 * again), and withdraws the "your part" of those who lost theirs.
 */
export async function tellCounters(tx: Tx, count: typeof stockCounts.$inferSelect, by: string, outcome: SplitOutcome): Promise<void> {
  for (const told of outcome.told) await notifyStockCountPartAssigned(tx, { ...count, createdBy: by }, told);
  const removed = outcome.removed.filter((email) => email !== count.conductedBy);
  if (removed.length > 0) await resolveStockCountNotifications(tx, count.id, 'Part of the stock count given to someone else', null, removed);
}

/** A draft sent: every counter of its parts is told about their part. */
export async function tellAllCounters(tx: Tx, user: CurrentUser, count: typeof stockCounts.$inferSelect): Promise<void> {
  const rows = await partRows(tx, user, await partsOf(tx, count.id));
  await tellCounters(tx, count, user.email, { told: rows.map((row) => ({ counter: row.counter, lines: row.total_lines })), removed: [] });
}

export const stockCountPartRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/my_stock_count/parts',
    {
      config: { capability: 'stockCount.read' },
      schema: {
        tags,
        summary: 'The parts of a stock count split among counters, with progress per counter (no quantities)',
        querystring: stockCountPartsQuery,
        response: { 200: stockCountPartsResponse, 400: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const count = await findStockCount(db, user, request.query.stockCountId);
      return partsProgress(db, user, count);
    },
  );

  app.put(
    '/my_stock_count/parts',
    {
      config: { capability: 'stockCount.edit' },
      schema: {
        tags,
        summary:
          'Split a stock count among counters, or change the split (parts by bin range, by material, or the rest; control counts listed); with expectedPartIds, a split changed since is a 409',
        body: splitStockCountBody,
        response: { 200: stockCountPartsResponse, ...writeErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { stockCountId, ...split } = request.body;
      return runMutation(db, request, reply, async (tx) => {
        const count = await findStockCount(tx, user, stockCountId, true);
        await assertOverseer(tx, user, count.id, 'split it among counters');
        assertEditable(count);
        const outcome = await applySplit(tx, user, count, split);
        await tellCounters(tx, count, user.email, outcome);
        const updated = await findStockCount(tx, user, count.id);
        return { body: await partsProgress(tx, user, updated) };
      });
    },
  );

  app.get(
    '/my_stock_count/part',
    {
      config: { capability: 'stockCount.read' },
      schema: {
        tags,
        summary: "A part's lines with what its counter counted: a counter their own part (no book quantity on a blind count), a planner any part",
        querystring: partLinesQuery,
        response: { 200: partLinesResponse, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { stockCountId, partId } = request.query;
      const count = await findStockCount(db, user, stockCountId);
      let part = await myPart(db, user, count.id);
      if (partId !== undefined && part?.id !== partId) {
        const [other] = await db
          .select()
          .from(stockCountParts)
          .where(and(eq(stockCountParts.id, partId), eq(stockCountParts.stockCountId, count.id)));
        if (!other) throw new HttpError(404, `Part ${partId} not found in stock count ${count.id}`);
        if (!(await oversees(db, user, count.id))) throw new HttpError(403, `Part ${partId} of stock count ${count.id} is another counter's: you read only your own part`);
        part = other;
      }
      if (!part) throw new HttpError(404, `You have no part in stock count ${count.id}`);
      const blind = await isBlindFor(db, user, count);
      const [row] = await partRows(db, user, [part]);
      return {
        stock_count: { id: count.id, status: count.status as StockCountStatus, is_blind: count.isBlind },
        part: row!,
        lines: await partLineRows(db, count, part, blind),
        elsewhere: await linesElsewhere(db, count.id, part.id),
        split_revision: await splitRevision(db, count.id),
      };
    },
  );

  app.put(
    '/my_stock_count/part/quantities',
    {
      config: { capability: 'materialCount.editQuantity' },
      schema: {
        tags,
        summary: 'Write counted quantities on lines of your own part (all lines or none); a changed quantity reopens a part marked done',
        body: partQuantitiesBody,
        response: { 200: partQuantitiesResponse, 400: errorBody, 403: errorBody, 404: errorBody, 409: z.union([partLineConflict, errorBody]), 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { stockCountId, quantities } = request.body;
      return runMutation(db, request, reply, async (tx) => {
        // Each counter writes their own part: the count is only shared (lockCountsForEdit), the part locked.
        const count = await findStockCount(tx, user, stockCountId, 'edit');
        assertEditable(count);
        const part = await myPart(tx, user, count.id, true);
        if (!part) throw new HttpError(403, `You have no part in stock count ${count.id}: only its counters write quantities to it`);
        await assertLinesInPart(tx, count, part, quantities.map((line) => line.materialCountId));
        const blind = await isBlindFor(tx, user, count);
        const result = await writePartQuantities(tx, user, count, part, quantities, blind);
        if ('conflicts' in result) {
          const codes = result.conflicts.map((line) => line.material_code).join(', ');
          return { status: 409, body: { message: `Changed since you edited it: ${codes}. Keep your quantity or take the one shown.`, conflicts: result.conflicts } };
        }
        // The part as the write left it: a correction after "my part is done" reopened it.
        const [row] = await partRows(tx, user, [result.part]);
        const status = (count.status === 'initiated' ? 'in_progress' : count.status) as StockCountStatus;
        return { body: { part: row!, lines: result.lines, stock_count: { id: count.id, status } } };
      });
    },
  );

  app.put(
    '/my_stock_count/part/status',
    {
      config: { capability: 'materialCount.editQuantity' },
      schema: {
        tags,
        summary: '"My part is done" (every line of it counted), or open it again',
        body: partStatusBody,
        response: { 200: stockCountPartRow, ...writeErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { stockCountId, status } = request.body;
      return runMutation(db, request, reply, async (tx) => {
        const count = await findStockCount(tx, user, stockCountId, true);
        assertEditable(count);
        const part = await myPart(tx, user, count.id, true);
        if (!part) throw new HttpError(403, `You have no part in stock count ${count.id}`);
        const updated = await setPartStatus(tx, user, count, part, status);
        const [row] = await partRows(tx, user, [updated]);
        return { body: row! };
      });
    },
  );

  app.get(
    '/my_stock_count/merge',
    {
      config: { capability: 'stockCount.read' },
      schema: {
        tags,
        summary: "The merge of a split count for its planner: lines counted by two or more counters with each counter's quantity, and every variance",
        querystring: mergeQuery,
        response: { 200: mergeResponse, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const count = await findStockCount(db, user, request.query.stockCountId);
      await assertOverseer(db, user, count.id, "see every counter's quantities");
      return { stock_count_id: count.id, lines: await mergeRows(db, count.id, request.query.state) };
    },
  );

  app.post(
    '/my_stock_count/merge/resolve',
    {
      config: { capability: 'stockCount.edit' },
      schema: {
        tags,
        summary: "Resolve a line of a split count: take one counter's quantity, or send the line to recount (its counters' parts reopen)",
        body: resolveLineBody,
        response: { 200: mergeLineRow, ...writeErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      return runMutation(db, request, reply, async (tx) => {
        const count = await findStockCount(tx, user, body.stockCountId, true);
        await assertOverseer(tx, user, count.id, 'resolve differences between counters');
        assertEditable(count);
        if (!(await isSplit(tx, count.id))) throw new HttpError(409, `Stock count ${count.id} is not split among counters: there is nothing to merge`);
        const row = await resolveLine(tx, user, count, body);
        if (body.action === 'recount') {
          const counters = row.counts.map((held) => held.counter);
          await notifyStockCountRecountLine(tx, count, user.email, `${row.material_code} ${row.material_description_english}`, counters);
        }
        return { body: row };
      });
    },
  );
};
