/**
 * §7 stock count planning: POST /my_stock_count (create), PUT /my_stock_count (edit or cancel),
 * POST /my_stock_count/recount, GET /my_stock_count/occupancy_report (front-liner statistics)
 * and GET /relationship/print_materials (the printable count sheet).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, eq, sql } from 'drizzle-orm';
import { errorBody } from '../../../src/contract/common';
import {
  createStockCountBody,
  occupancyQuery,
  occupancyResponse,
  printMaterialsResponse,
  recountBody,
  stockCountRow,
  submitQuery,
  updateStockCountBody,
} from '../../../src/contract/stock';
import { can, isSuperManager, type Capability } from '../../../src/domain/permissions';
import type { Db } from '../../db/client';
import { materialCounts, stockCountPartLines, stockCounts, stockItems } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError, permissionDenied } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { notifyStockCountAssigned, resolveStockCountNotifications } from '../../notifications/producers';
import { assertEditable, assertOverseer, findStockCount, readsWhole, stockCountScope, toStockCountRows } from '../../repositories/stock-counts';
import { applySplit, isSplit, myPart, partsOf } from '../../repositories/stock-count-parts';
import { tellAllCounters, tellCounters } from './stock-count-parts';
import {
  assertCounter,
  assertCountAsShown,
  allowed,
  assertDeadlineAhead,
  assertDeadlineAllowed,
  assertWorkCenter,
  createStockCount,
  occupancyReport,
  plannerGroupOfCount,
  recount,
} from '../../repositories/stock-count-management';

const tags = ['stock counts'];
const writeErrors = { 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody };

export const stockCountManagementRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/my_stock_count',
    {
      config: { capability: 'stockCount.create' },
      schema: { tags, summary: 'Create a stock count (single or wall-to-wall; as a draft or sent)', body: createStockCountBody, response: { 201: stockCountRow, ...writeErrors } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      return runMutation(db, request, reply, async (tx) => {
        const count = await createStockCount(tx, user, request.body);
        // #6 notifications: tell the person counting, in this transaction (sent after commit).
        await notifyStockCountAssigned(tx, count);
        // #18: split among counters at once; each is told about their part.
        if (request.body.parts) {
          const outcome = await applySplit(tx, user, count, { parts: request.body.parts, controlMaterialCodes: request.body.controlMaterialCodes });
          await tellCounters(tx, count, user.email, outcome);
        }
        const [row] = await toStockCountRows(tx, [count], user);
        return { status: 201, body: row };
      });
    },
  );

  app.put(
    '/my_stock_count',
    {
      config: { capability: 'stockCount.read' },
      schema: {
        tags,
        summary: 'Edit a stock count (who counts, work center, deadline, send a draft) or cancel it ({status: cancelled})',
        body: updateStockCountBody,
        response: { 200: stockCountRow, ...writeErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      const cancelling = 'status' in body;
      if (!can(user.grants, cancelling ? 'stockCount.cancel' : 'stockCount.edit')) {
        throw permissionDenied(cancelling ? 'stockCount.cancel' : 'stockCount.edit');
      }
      return runMutation(db, request, reply, async (tx) => {
        const count = await findStockCount(tx, user, body.stockCountId, true);
        await assertOverseer(tx, user, count.id, cancelling ? 'cancel it' : 'change it');
        assertEditable(count);
        // What the planner's screen showed (decision 0068), against the count under its lock.
        assertCountAsShown(count, body.expected);
        let changes: Partial<typeof stockCounts.$inferInsert>;
        if ('status' in body) {
          changes = { status: 'cancelled' };
        } else {
          const counter = body.conductedBy ?? count.conductedBy;
          // Sending a draft: someone must count it (or its parts), and that person still can.
          if (body.draft === false && count.isDraft) {
            if (!counter && !(await isSplit(tx, count.id))) {
              throw new HttpError(400, 'Choose who counts (conductedBy) before sending the count', { code: 'sendNeedsCounter', params: { id: count.id } });
            }
            if (counter && !body.conductedBy) await assertCounter(tx, count.plant, counter);
          }
          if (body.conductedBy) await assertCounter(tx, count.plant, body.conductedBy);
          if (body.workCenter) await assertWorkCenter(tx, count.plant, body.workCenter);
          // Another work center may mean another planner group: one the planner must hold (#20).
          const plannerGroup = body.workCenter ? await plannerGroupOfCount(tx, user, count.plant, body.workCenter, count.storageLocation) : undefined;
          if (body.shouldBeDoneAt) await assertDeadlineAllowed(tx, count.plant);
          if (body.shouldBeDoneAt && body.shouldBeDoneAt !== count.shouldBeDoneAt) await assertDeadlineAhead(tx, count.plant, body.shouldBeDoneAt);
          const newCounter = body.conductedBy && body.conductedBy.toLowerCase() !== count.conductedBy;
          changes = {
            // Someone else counts: their own "due" reminder, when the time comes (#6).
            ...(body.conductedBy ? { conductedBy: body.conductedBy.toLowerCase(), ...(newCounter ? { dueReminderSentAt: null } : {}) } : {}),
            ...(body.workCenter ? { workCenter: body.workCenter, plannerGroup } : {}),
            // A new deadline gets its own "due" reminder (#6).
            ...(body.shouldBeDoneAt && body.shouldBeDoneAt !== count.shouldBeDoneAt ? { shouldBeDoneAt: body.shouldBeDoneAt, dueReminderSentAt: null } : {}),
            ...(body.draft === false ? { isDraft: false } : {}),
          };
        }
        const [updated] = await tx
          .update(stockCounts)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(eq(stockCounts.id, count.id))
          .returning();
        // #6: a draft sent, or a count handed to someone else, tells the person who now counts.
        const sent = count.isDraft && updated!.isDraft === false;
        const reassigned = updated!.conductedBy !== count.conductedBy;
        if (updated!.status !== 'cancelled' && (sent || reassigned)) await notifyStockCountAssigned(tx, { ...updated!, createdBy: user.email });
        // #18: a split draft sent tells each counter about their part.
        if (updated!.status !== 'cancelled' && sent) await tellAllCounters(tx, user, updated!);
        // #19 item 21: nobody is left with an unread "assigned to you" for a count that is not theirs to do.
        if (updated!.status === 'cancelled') await resolveStockCountNotifications(tx, count.id, 'Stock count cancelled');
        else if (reassigned) {
          // The counters of its parts (#18) keep theirs.
          const counters = (await partsOf(tx, count.id)).map((part) => part.counter);
          await resolveStockCountNotifications(tx, count.id, 'Stock count handed to someone else', [...(updated!.conductedBy ? [updated!.conductedBy] : []), ...counters]);
        }
        const [row] = await toStockCountRows(tx, [updated!], user);
        return { body: row };
      });
    },
  );

  app.post(
    '/my_stock_count/recount',
    {
      config: { capability: 'stockCount.recount' },
      schema: { tags, summary: 'Recount the lines of a completed count whose quantity differs from the book', body: recountBody, response: { 201: stockCountRow, ...writeErrors } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      return runMutation(db, request, reply, async (tx) => {
        const source = await findStockCount(tx, user, request.body.stockCountId, true);
        await assertOverseer(tx, user, source.id, 'recount it');
        const count = await recount(tx, user, source);
        // #6: the person counting is told about the recount, as about any count handed to them.
        await notifyStockCountAssigned(tx, count);
        const [row] = await toStockCountRows(tx, [count], user);
        return { status: 201, body: row };
      });
    },
  );

  app.get(
    '/my_stock_count/occupancy_report',
    {
      config: { capability: 'stockCount.read' },
      schema: {
        tags,
        summary: 'Front-liner statistics per person counting, with a total row (by plant or planner group, optionally one person)',
        querystring: occupancyQuery,
        response: { 200: occupancyResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query;
      if (!q.plant === !q.planner_group) throw new HttpError(400, 'Give either plant or planner_group');
      if (q.start_date > q.end_date) throw new HttpError(400, 'start_date must not be after end_date');
      const needs: Capability[] = [q.plant ? 'frontliner.byPlant' : 'frontliner.byPlannerGroup', ...(q.conducted_by ? (['frontliner.byEmail'] as const) : [])];
      for (const capability of needs) {
        if (!can(user.grants, capability)) throw permissionDenied(capability);
      }
      const superManager = isSuperManager(user.grants);
      if (q.plant && !superManager && !user.plants.includes(q.plant)) throw new HttpError(403, `You do not see plant ${q.plant}`);
      // A plant that does not use stock counts has none to report: said, not an empty report. The
      // super managers read counts of every plant (those made before a plant left the list too).
      if (q.plant && !superManager && !(await allowed(db, 'stock_count_allowed_plants')).includes(q.plant)) {
        throw new HttpError(403, `Stock counts are not used in plant ${q.plant}`, { code: 'stockCountsNotUsed', params: { plant: q.plant } });
      }
      // Planner groups are codes within a plant: the plants where the caller holds this one.
      const groupPlants = user.attachments.filter((a) => a.kind === 'planner_group' && a.code === q.planner_group).map((a) => a.plant);
      if (q.planner_group && !superManager && groupPlants.length === 0) {
        throw new HttpError(403, `You do not see planner group ${q.planner_group}`);
      }
      return occupancyReport(db, {
        startDate: q.start_date,
        endDate: q.end_date,
        plant: q.plant,
        plannerGroup: q.planner_group,
        ...(q.planner_group && !superManager ? { plannerGroupPlants: groupPlants } : {}),
        conductedBy: q.conducted_by,
        // Only counts the caller sees in the count lists (§6: stock counts only in allowed plants):
        // by plant as a plant-wide reader, by planner group as its overseer.
        scope: await stockCountScope(db, user, q.plant ? 'any' : 'overseer'),
      });
    },
  );

  app.get(
    '/relationship/print_materials',
    {
      config: { capability: 'stockCount.read' },
      schema: { tags, summary: 'The printable count sheet of a stock count (lines by bin)', querystring: submitQuery, response: { 200: printMaterialsResponse, 404: errorBody } },
    },
    async (request) => {
      const user = requireUser(request);
      const count = await findStockCount(db, user, request.query.stockCountId);
      // #18: a counter of a split count prints their part, and whoever reads it as a counter but has
      // no part prints nothing (as GET /my_material_count refuses them); a counter of a blind count
      // gets no book quantity. Who reads the whole count is the same rule as the list's (readsWhole).
      const whole = await readsWhole(db, user, count);
      const part = whole ? undefined : await myPart(db, user, count.id);
      if (!whole && !part && (await isSplit(db, count.id))) {
        throw new HttpError(403, `Stock count ${count.id} is split among counters and you have no part in it`, { code: 'splitNoPartForYou', params: { id: count.id } });
      }
      // The printed sheet is what a counter counts from: a blind count's sheet has no book quantity,
      // whoever prints it (a planner who needs them reads the count on screen).
      const blind = count.isBlind;
      const lines = await db
        .select({ line: materialCounts, bin: stockItems.bin })
        .from(materialCounts)
        .leftJoin(
          stockItems,
          and(eq(stockItems.plant, count.plant), eq(stockItems.storageLocation, count.storageLocation), eq(stockItems.materialCode, materialCounts.materialCode)),
        )
        .where(
          and(
            eq(materialCounts.stockCountId, count.id),
            part ? sql`exists (select 1 from ${stockCountPartLines} where ${stockCountPartLines.partId} = ${part.id} and ${stockCountPartLines.materialCountId} = ${materialCounts.id})` : undefined,
          ),
        )
        .orderBy(sql`${stockItems.bin} asc nulls last`, asc(materialCounts.materialCode));
      const [row] = await toStockCountRows(db, [count], user);
      return {
        stock_count: row!,
        lines: lines.map(({ line, bin }) => ({
          material_code: line.materialCode,
          material_description_english: line.materialDescriptionEnglish,
          unit: line.unit,
          bin,
          book_quantity: blind || line.bookQuantity === null ? null : Number(line.bookQuantity),
        })),
      };
    },
  );
};

