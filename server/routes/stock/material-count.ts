/**
 * §7 /api/v2/my_material_count: list, change quantities, add and delete lines of a stock count.
 * Rules of §4 and §6: the first quantity edit of an initiated count moves it to in progress;
 * closed counts (submitted, completed, cancelled) refuse changes with 409; an edit made from a
 * stale version whose value differs from the server's is a 409 naming the lines and their values.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, getTableColumns, inArray, isNotNull, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { errorBody } from '../../../src/contract/common';
import {
  addMaterialBody,
  deleteMaterialQuery,
  materialCountConflict,
  materialCountListQuery,
  materialCountListResponse,
  materialCountRow,
  modifyMaterialsBody,
  modifyMaterialsResponse,
  type MaterialCountRow,
} from '../../../src/contract/stock';
import type { Db } from '../../db/client';
import { materialCounts, materials, stockCountPartLines, stockCounts } from '../../db/schema';
import { can } from '../../../src/domain/permissions';
import { toThousandths } from '../../../src/domain/stock';
import { requireUser } from '../../plugins/auth';
import { HttpError, permissionDenied } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import {
  assertEditable,
  bookQuantity,
  findStockCount,
  isBlindFor,
  listMaterialCounts,
  lockCountsForEdit,
  materialCountRows,
  oversees,
  readsWhole,
  stockCountScope,
  toMaterialCountRow,
  withoutBook,
} from '../../repositories/stock-counts';
import { addLineToPart, isSplit, myPart, setPartStatus } from '../../repositories/stock-count-parts';

const tags = ['stock counts'];

export const materialCountRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/my_material_count',
    {
      config: { capability: 'stockCount.read' },
      schema: {
        tags,
        summary: 'Material counts of one stock count (default sort: quantity ascending)',
        querystring: materialCountListQuery,
        response: { 200: materialCountListResponse, 400: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { stockCountId, ...options } = request.query;
      const count = await findStockCount(db, user, stockCountId);
      // #18: a counter of a split count reads their part only; a counter of a blind count gets no book quantity.
      const overseer = await readsWhole(db, user, count);
      if (!overseer && (await isSplit(db, count.id))) {
        throw new HttpError(403, `Stock count ${count.id} is split among counters: read your part with GET /api/v2/my_stock_count/part?stockCountId=${count.id}`);
      }
      const page = await listMaterialCounts(db, stockCountId, options);
      return count.isBlind && !overseer ? { ...page, material_counts: page.material_counts.map(withoutBook) } : page;
    },
  );

  app.put(
    '/my_material_count',
    {
      config: { capability: 'materialCount.editQuantity' },
      schema: {
        tags,
        summary: 'Change counted quantities (all lines or none)',
        body: modifyMaterialsBody,
        response: { 200: modifyMaterialsResponse, 400: errorBody, 404: errorBody, 409: z.union([materialCountConflict, errorBody]), 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const edits = request.body.modifiedMaterials;
      return runMutation(db, request, reply, async (tx) => {
        // Lines of counts the caller may change: a plant-wide reader's reading is not counting (0054).
        const scope = await stockCountScope(tx, user, 'write');
        const ids = edits.map((edit) => edit.id);
        await lockCountsForEdit(tx, and(inArray(stockCounts.id, tx.select({ id: materialCounts.stockCountId }).from(materialCounts).where(inArray(materialCounts.id, ids))), scope));
        // The lines themselves, each edit's own row (in id order: two batches naming the same
        // lines lock them in one order); their counts are locked above.
        const lines = await tx
          .select({ line: materialCounts, count: stockCounts })
          .from(materialCounts)
          .innerJoin(stockCounts, eq(stockCounts.id, materialCounts.stockCountId))
          .where(and(inArray(materialCounts.id, ids), scope))
          .orderBy(materialCounts.id)
          .for('update', { of: materialCounts });
        const missing = edits.filter((edit) => !lines.some(({ line }) => line.id === edit.id));
        if (missing.length > 0) throw new HttpError(404, `Material count ${missing.map((m) => m.id).join(', ')} not found`, { code: 'materialCountGone', params: { count: missing.length } });
        const counts = new Map(lines.map(({ count }) => [count.id, count]));
        counts.forEach(assertEditable);
        // #18: on a split count the quantities come from the counters' parts; a planner only
        // accepts a moved book quantity here (the quantity unchanged), never overwrites a count.
        const blindCounts = new Set<number>();
        for (const count of counts.values()) {
          if (await isBlindFor(tx, user, count)) blindCounts.add(count.id);
          if (!(await isSplit(tx, count.id))) continue;
          if (!(await oversees(tx, user, count.id))) {
            throw new HttpError(403, `Stock count ${count.id} is split among counters: write quantities to your part (PUT /api/v2/my_stock_count/part/quantities)`, {
              code: 'countSplitWriteToPart',
              params: { id: count.id },
            });
          }
          const overwritten = lines.filter(({ line }) => line.stockCountId === count.id && edits.find((e) => e.id === line.id)!.quantity !== (line.quantity === null ? null : Number(line.quantity)));
          if (overwritten.length > 0) {
            const codes = overwritten.map(({ line }) => line.materialCode).join(', ');
            throw new HttpError(
              409,
              `Stock count ${count.id} is split among counters: ${codes} take their quantity from the counters' parts; resolve a difference with POST /api/v2/my_stock_count/merge/resolve`,
              { code: 'countSplitQuantityFromParts', params: { id: count.id, codes, count: overwritten.length } },
            );
          }
        }
        const shown = (rows: MaterialCountRow[]) => rows.map((row) => (blindCounts.has(row.stock_count_id) ? withoutBook(row) : row));

        const conflicts = lines.filter(({ line }) => {
          const edit = edits.find((e) => e.id === line.id)!;
          const serverQuantity = line.quantity === null ? null : Number(line.quantity);
          return edit.version !== undefined && edit.version !== line.version && serverQuantity !== edit.quantity;
        });
        if (conflicts.length > 0) {
          const codes = conflicts.map(({ line }) => line.materialCode).join(', ');
          return {
            status: 409,
            body: {
              message: `Changed by someone else since you edited it: ${codes}. Keep your quantity or take theirs.`,
              conflicts: shown(await materialCountRows(tx, conflicts.map(({ line }) => line))),
            },
          };
        }

        // A book quantity is accepted only as it is now: the one the counter was shown as moved.
        // Never on a count that is blind for the caller (it is not shown the book, and a 409 on a
        // guess would tell it the book quantity); never a value of the caller's choosing, which
        // would clear the submit's "book moved" check and falsify the line's reference.
        const accepting = lines.filter(({ line }) => edits.find((e) => e.id === line.id)!.acceptBookQuantity !== undefined);
        const blindAccepting = accepting.filter(({ line }) => blindCounts.has(line.stockCountId));
        if (blindAccepting.length > 0) {
          throw new HttpError(403, `Stock count ${blindAccepting[0]!.line.stockCountId} is counted blind: its book quantities are not shown to you, so none can be accepted`, {
            code: 'blindNoBookAccept',
            params: { id: blindAccepting[0]!.line.stockCountId },
          });
        }
        if (accepting.length > 0) {
          const now = await materialCountRows(tx, accepting.map(({ line }) => line));
          const stale = now.filter((row) => edits.find((e) => e.id === row.id)!.acceptBookQuantity !== row.book_quantity_now);
          if (stale.length > 0) {
            return {
              status: 409,
              body: {
                message: `The book quantity is no longer the one accepted for ${stale.map((row) => row.material_code).join(', ')}: choose again.`,
                conflicts: shown(stale),
              },
            };
          }
        }

        // Every line in one statement (a device syncs up to 100 edits a request; one UPDATE each
        // was 100 round trips): the edits as arrays side by side, each line's once (the contract
        // refuses a line listed twice). An accepted book quantity is taken now, as before.
        const accepted = new Date();
        const edit = sql`unnest(
            ${sql.param(edits.map((e) => e.id))}::bigint[],
            ${sql.param(edits.map((e) => String(toThousandths(e.quantity))))}::numeric[],
            ${sql.param(edits.map((e) => e.acceptBookQuantity !== undefined))}::boolean[],
            ${sql.param(edits.map((e) => (e.acceptBookQuantity === undefined || e.acceptBookQuantity === null ? null : String(e.acceptBookQuantity))))}::numeric[]
          ) as edit(id, quantity, accepts, book)`;
        const written = await tx
          .update(materialCounts)
          .set({
            quantity: sql`edit.quantity`,
            bookQuantity: sql`case when edit.accepts then edit.book else ${materialCounts.bookQuantity} end`,
            bookQuantityAt: sql`case when edit.accepts then ${accepted}::timestamptz else ${materialCounts.bookQuantityAt} end`,
            version: sql`${materialCounts.version} + 1`,
            updatedBy: user.email,
            updatedAt: sql`now()`,
          })
          .from(edit)
          .where(sql`${materialCounts.id} = edit.id`)
          .returning(getTableColumns(materialCounts));
        const byId = new Map(written.map((row) => [row.id, row]));
        const updated = edits.map((e) => byId.get(e.id)!);
        // §4: the first successful quantity edit of an initiated count moves it to in progress.
        const started = [...counts.values()].filter((count) => count.status === 'initiated').map((count) => count.id);
        if (started.length > 0) {
          await tx.update(stockCounts).set({ status: 'in_progress', updatedAt: sql`now()` }).where(inArray(stockCounts.id, started));
        }
        return {
          body: {
            material_counts: shown(await materialCountRows(tx, updated)),
            stock_counts: [...counts.values()].map((count) => ({
              id: count.id,
              status: (started.includes(count.id) ? 'in_progress' : count.status) as never,
            })),
          },
        };
      });
    },
  );

  app.post(
    '/my_material_count',
    {
      config: { capability: 'materialCount.add' },
      schema: {
        tags,
        summary: 'Add a material line to a stock count (200 with the line when it is there already)',
        body: addMaterialBody,
        response: { 200: materialCountRow, 201: materialCountRow, 400: errorBody, 404: errorBody, 409: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { stockCountId, materialCode } = request.body;
      return runMutation(db, request, reply, async (tx) => {
        const count = await findStockCount(tx, user, stockCountId, true);
        assertEditable(count);
        // #18: on a split count a counter's new line joins their part; a planner's waits for a part (PUT /my_stock_count/parts).
        const split = await isSplit(tx, count.id);
        const part = split ? await myPart(tx, user, count.id, true) : undefined;
        if (split && !part && !(await oversees(tx, user, count.id))) {
          throw new HttpError(403, `Stock count ${count.id} is split among counters and you have no part in it`, { code: 'splitNoPartForYou', params: { id: count.id } });
        }
        const [material] = await tx.select().from(materials).where(eq(materials.code, materialCode));
        if (!material) throw new HttpError(404, `Material ${materialCode} not found`, { code: 'materialNotFound', params: { code: materialCode } });
        const book = await bookQuantity(tx, count.plant, count.storageLocation, material.code);
        const [row] = await tx
          .insert(materialCounts)
          .values({
            stockCountId,
            materialCode: material.code,
            materialDescriptionEnglish: material.descriptionEnglish,
            unit: material.unit,
            bookQuantity: book === null ? null : String(book),
            bookQuantityAt: new Date(),
            // Who added the line: a counter may take back a line they added and nobody counted.
            updatedBy: user.email,
          })
          .onConflictDoNothing()
          .returning();
        if (!row) {
          // The line is there already: a colleague or the planner added it meanwhile, or this
          // device's own add went through and its answer was lost. Answered with that line, so the
          // quantities waiting on the device land on it (one already counted comes back to the
          // counter as a conflict, never overwritten), instead of a refusal that hid the line and
          // left only Discard for what was counted. On a split count only a line of the caller's
          // own part not counted there yet is answered (part quantities are written without a
          // version, so a counted one would be overwritten), as the caller's part holds it (the
          // merged quantity may be another counter's); anything else stays refused.
          const [existing] = await tx
            .select()
            .from(materialCounts)
            .where(and(eq(materialCounts.stockCountId, stockCountId), eq(materialCounts.materialCode, material.code)));
          const myPartLine = async (lineId: number) =>
            (
              await tx
                .select({ quantity: stockCountPartLines.quantity })
                .from(stockCountPartLines)
                .where(and(eq(stockCountPartLines.partId, part!.id), eq(stockCountPartLines.materialCountId, lineId)))
            )[0];
          const mine = existing && part ? await myPartLine(existing.id) : undefined;
          if (!existing || (part && (!mine || mine.quantity !== null))) throw new HttpError(409, `Material ${material.code} is already in stock count ${stockCountId}`, { code: 'materialAlreadyOnCount', params: { code: material.code, id: stockCountId } });
          const line = part ? { ...toMaterialCountRow(existing, book), quantity: null } : toMaterialCountRow(existing, book);
          return { status: 200, body: (await isBlindFor(tx, user, count)) ? withoutBook(line) : line };
        }
        if (part) {
          await addLineToPart(tx, part, row.id);
          if (part.status === 'done') await setPartStatus(tx, user, count, part, 'open');
        }
        const added = toMaterialCountRow(row, book);
        return { status: 201, body: (await isBlindFor(tx, user, count)) ? withoutBook(added) : added };
      });
    },
  );

  app.delete(
    '/my_material_count',
    {
      // §6: planners delete lines; a counter (materialCount.add) only takes back a line they
      // added themselves that nobody has counted (an add made offline, undone — decision 0019).
      config: {},
      schema: {
        tags,
        summary: 'Delete a material line from a stock count (counters: only a line they added, not yet counted)',
        querystring: deleteMaterialQuery,
        response: { 200: materialCountRow, 400: errorBody, 404: errorBody, 409: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { materialCountId } = request.query;
      const planner = can(user.grants, 'materialCount.delete');
      const refused = permissionDenied('materialCount.delete');
      if (!planner && !can(user.grants, 'materialCount.add')) throw refused;
      // Not there, or not the caller's to see: the same answer either way.
      const gone = () => new HttpError(404, `Material count ${materialCountId} not found`, { code: 'materialCountGone', params: { count: 1 } });
      return runMutation(db, request, reply, async (tx) => {
        const [found] = await tx.select().from(materialCounts).where(eq(materialCounts.id, materialCountId));
        if (!found) throw gone();
        // The count's scope first: a line of a count the caller does not see is "not found", never
        // "not allowed" (which would tell that the line exists).
        const count = await findStockCount(tx, user, found.stockCountId, true).catch((error: unknown) => {
          // Not found means not the caller's: the line is "not found" too. Anything else (a
          // deadlock, the database away) keeps its own answer.
          if (error instanceof HttpError && error.statusCode === 404) throw gone();
          throw error;
        });
        const ownUncounted = (line: typeof found) => line.version === 0 && line.updatedBy === user.email;
        if (!planner && !ownUncounted(found)) throw refused;
        // A planner's delete is for the counts they plan: one who only counts this count (a
        // supervisor asked to count another planner group's) takes back what a counter may.
        const asPlanner = planner && (await oversees(tx, user, count.id));
        const mayTakeBack = (line: typeof found) => asPlanner || ownUncounted(line);
        const notYours = planner && !asPlanner ? new HttpError(403, `Only a planner of stock count ${count.id} can delete its lines`, { code: 'onlyPlannerDeletesLines', params: { id: count.id } }) : refused;
        if (!mayTakeBack(found)) throw notYours;
        assertEditable(count);
        // Read again under the count's lock: an edit that committed before it (edits share the
        // count) may have counted the line since the first read, and a counter may only take back
        // a line nobody counted.
        const [line] = await tx.select().from(materialCounts).where(eq(materialCounts.id, materialCountId)).for('update');
        if (!line) throw gone();
        if (!mayTakeBack(line)) throw notYours;
        // A split count (#18): what its counters counted on the line is not thrown away with it,
        // as a new split may not take counted lines from a part (stock-count-parts.ts).
        const counted = await tx
          .select({ countedBy: stockCountPartLines.countedBy })
          .from(stockCountPartLines)
          .where(and(eq(stockCountPartLines.materialCountId, line.id), isNotNull(stockCountPartLines.quantity)));
        if (counted.length > 0) {
          const by = [...new Set(counted.map((part) => part.countedBy ?? '?'))].join(', ');
          throw new HttpError(409, `Line ${line.materialCode} is already counted in a part (by ${by}) and cannot be deleted: send it to recount first`, {
            code: 'lineCountedInPart',
            params: { code: line.materialCode, by },
          });
        }
        const [removed] = await materialCountRows(tx, [line]);
        await tx.delete(materialCounts).where(eq(materialCounts.id, materialCountId));
        return { body: (await isBlindFor(tx, user, count)) ? withoutBook(removed!) : removed! };
      });
    },
  );
};
