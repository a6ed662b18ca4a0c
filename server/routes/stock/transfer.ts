/**
 * Stock transfer requests (§3: from, to, material, quantity > 0): POST stores one; GET lists the
 * caller's own and, to those who read the plant's storage locations, the plant's (super managers:
 * every plant); PUT …/:id/decision marks one done or declined, once, by a holder of
 * `storageLocations.update` in its plant, and tells the requester (decision 0061). A new request
 * tells those who may decide it; its decision resolves what they were told.
 * Paths not in the spec: /api/v2/stock_transfer_request[/:id/decision].
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { errorBody } from '../../../src/contract/common';
import { TRANSFER_LIST_MAX, transferDecisionBody, transferIdParams, transferRequestBody, transferRequestList, transferRequestRow, type TransferRequestRow } from '../../../src/contract/stock';
import { can, isSuperManager, writesInPlant } from '../../../src/domain/permissions';
import type { NotificationText } from '../../../src/domain/notification-texts';
import type { Db, Tx } from '../../db/client';
import { materials, stockItems, stockTransferRequests, storageLocations, users } from '../../db/schema';
import type { CurrentUser } from '../../repositories/users';
import { emitNotifications } from '../../notifications/emit';
import { notifyTransferRequested, resolveTransferRequestNotifications, TRANSFER_REQUESTS_LINK } from '../../notifications/producers';
import { englishNotificationText } from '../../notifications/texts';
import { blindLinesOf, stockLineKey } from '../../repositories/stock-counts';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

/** Requests with who asked, the material's unit and description, and who decided. */
async function transferRows(db: Db | Tx, where: SQL | undefined, limit: number): Promise<TransferRequestRow[]> {
  const rows = await db
    .select({
      request: stockTransferRequests,
      requestedBy: requester.email,
      decidedBy: decider.email,
      unit: materials.unit,
      description: materials.descriptionEnglish,
    })
    .from(stockTransferRequests)
    .innerJoin(requester, eq(requester.id, stockTransferRequests.userId))
    .leftJoin(decider, eq(decider.id, stockTransferRequests.decidedBy))
    .innerJoin(materials, eq(materials.code, stockTransferRequests.materialCode))
    .where(where)
    // Waiting requests first, however old: one beyond the newest TRANSFER_LIST_MAX could otherwise never be decided.
    .orderBy(sql`${stockTransferRequests.status} = 'requested' desc`, desc(stockTransferRequests.createdAt), desc(stockTransferRequests.id))
    .limit(limit);
  return rows.map(({ request: r, requestedBy, decidedBy, unit, description }) => ({
    ...toRow(r),
    requested_by: requestedBy,
    unit,
    material_description: description,
    decided_by: decidedBy,
    decided_at: r.decidedAt?.toISOString() ?? null,
  }));
}

/** Which requests a caller sees: their own; those of their plants where they read storage locations; super managers every one. */
function visibleTo(user: CurrentUser): SQL | undefined {
  if (isSuperManager(user.grants)) return undefined;
  const own = eq(stockTransferRequests.userId, user.id);
  if (!can(user.grants, 'storageLocations.read') || user.plants.length === 0) return own;
  return or(own, inArray(stockTransferRequests.plant, user.plants));
}

/**
 * The rows with the unrestricted stock at their `from` location now (from_unrestricted_count), for
 * a caller who sees that stock: as the stock lists do, the plant's (my plant stock: their plants;
 * super managers every one), and not a line they count blind (decision 0064: the counts of a line
 * counted blind would tell the hidden book quantity). Other rows are left without the field.
 */
async function withFromStock(db: Db, user: CurrentUser, rows: TransferRequestRow[]): Promise<TransferRequestRow[]> {
  const plantSeen = (plant: string) => isSuperManager(user.grants) || user.plants.includes(plant);
  const lines = rows.filter((row) => plantSeen(row.plant)).map((row) => ({ plant: row.plant, storage_location: row.storage_location_from, material_code: row.material_code }));
  if (lines.length === 0) return rows;
  const blind = await blindLinesOf(db, user, lines);
  const keyOf = (line: (typeof lines)[number]) => stockLineKey(line.plant, line.storage_location, line.material_code);
  const shown = [...new Map(lines.filter((line) => !blind.has(keyOf(line))).map((line) => [keyOf(line), line])).values()];
  if (shown.length === 0) return rows;
  const stock = await db
    .select({ plant: stockItems.plant, storageLocation: stockItems.storageLocation, materialCode: stockItems.materialCode, unrestricted: stockItems.unrestrictedCount })
    .from(stockItems)
    // Through the (plant, storage location, material) index: at most TRANSFER_LIST_MAX keys.
    .where(
      sql`(${stockItems.plant}, ${stockItems.storageLocation}, ${stockItems.materialCode}) in (${sql.join(
        shown.map((line) => sql`(${line.plant}, ${line.storage_location}, ${line.material_code})`),
        sql`, `,
      )})`,
    );
  const unrestricted = new Map(stock.map((item) => [stockLineKey(item.plant, item.storageLocation, item.materialCode), item.unrestricted === null ? null : Number(item.unrestricted)]));
  const shownKeys = new Set(shown.map(keyOf));
  return rows.map((row) => {
    const key = stockLineKey(row.plant, row.storage_location_from, row.material_code);
    return shownKeys.has(key) ? { ...row, from_unrestricted_count: unrestricted.get(key) ?? null } : row;
  });
}

const toRow = (r: typeof stockTransferRequests.$inferSelect) => ({
  id: r.id,
  plant: r.plant,
  storage_location_from: r.storageLocationFrom,
  storage_location_to: r.storageLocationTo,
  material_code: r.materialCode,
  quantity: Number(r.quantity),
  status: r.status,
  created: r.createdAt.toISOString(),
});

export const transferRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/stock_transfer_request',
    {
      config: { capability: 'stockTransfer.request' },
      schema: {
        tags: ['stock'],
        summary: 'Request a stock transfer between two storage locations of a plant',
        body: transferRequestBody,
        response: { 201: transferRequestRow, 400: errorBody, 403: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      // A request is a write: in the caller's plants (the super manager: any). A read-only super
      // manager who also counts requests in its own plants only (decision 0063).
      // Refusals carry a code and its parameters: the app words them in the reader's language (decision 0055).
      if (!writesInPlant(user.grants, user.plants, body.plant)) {
        throw new HttpError(403, `You do not see plant ${body.plant}`, { code: 'transferPlantNotYours', params: { plant: body.plant } });
      }
      return runMutation(db, request, reply, async (tx) => {
        for (const code of [body.storageLocationFrom, body.storageLocationTo]) {
          const [location] = await tx.select().from(storageLocations).where(and(eq(storageLocations.plant, body.plant), eq(storageLocations.code, code)));
          if (!location) {
            throw new HttpError(400, `Storage location ${code} does not exist in plant ${body.plant}`, { code: 'transferLocationUnknown', params: { code, plant: body.plant } });
          }
        }
        const [material] = await tx.select().from(materials).where(eq(materials.code, body.materialCode));
        if (!material) throw new HttpError(400, `Unknown material: ${body.materialCode}`, { code: 'transferUnknownMaterial', params: { code: body.materialCode } });
        // A transfer moves stock the `from` location holds: a material it has no row of cannot leave it.
        const [stocked] = await tx
          .select({ id: stockItems.id })
          .from(stockItems)
          .where(and(eq(stockItems.plant, body.plant), eq(stockItems.storageLocation, body.storageLocationFrom), eq(stockItems.materialCode, body.materialCode)));
        if (!stocked) {
          throw new HttpError(400, `Material ${body.materialCode} is not stocked in storage location ${body.storageLocationFrom} of plant ${body.plant}`, {
            code: 'transferNotStockedAtFrom',
            params: { code: body.materialCode, location: body.storageLocationFrom, plant: body.plant },
          });
        }
        const [row] = await tx
          .insert(stockTransferRequests)
          .values({ userId: user.id, plant: body.plant, storageLocationFrom: body.storageLocationFrom, storageLocationTo: body.storageLocationTo, materialCode: body.materialCode, quantity: String(body.quantity) })
          .returning();
        // In the request's own transaction: a rolled-back request tells nobody, and a replayed
        // Idempotency-Key answers from the stored reply without running this again.
        await notifyTransferRequested(tx, row!, user);
        return { status: 201, body: toRow(row!) };
      });
    },
  );

  app.get(
    '/stock_transfer_request',
    {
      config: { capability: 'stock.read' },
      schema: {
        tags: ['stock'],
        summary: `Stock transfer requests the caller sees (their own; their plants' where they read storage locations), waiting then newest first, at most ${TRANSFER_LIST_MAX} (has_more: true when there are more); from_unrestricted_count where the caller sees that stock`,
        response: { 200: transferRequestList },
      },
    },
    async (request) => {
      const user = requireUser(request);
      // One more than a list holds says whether more exist: a list of exactly 100 looked cut short.
      const rows = await transferRows(db, visibleTo(user), TRANSFER_LIST_MAX + 1);
      // Deciders weigh a request against the stock it would leave (decision 0061).
      const items = await withFromStock(db, user, rows.slice(0, TRANSFER_LIST_MAX));
      return rows.length > TRANSFER_LIST_MAX ? { items, has_more: true } : { items };
    },
  );

  app.put(
    '/stock_transfer_request/:id/decision',
    {
      config: { capability: 'storageLocations.update' },
      schema: {
        tags: ['stock'],
        summary: 'Mark a stock transfer request done or declined (once); the requester is told',
        params: transferIdParams,
        body: transferDecisionBody,
        response: { 200: transferRequestRow, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { id } = request.params;
      const { status } = request.body;
      return runMutation(db, request, reply, async (tx) => {
        // One decision: the row is locked, and only a request still "requested" changes.
        const [row] = await tx.select().from(stockTransferRequests).where(eq(stockTransferRequests.id, id)).for('update');
        // Another plant's request is as unknown as a missing one (nothing about it is told).
        // The writing super manager decides anywhere; others (a read-only super manager who is also a
        // stock admin included) only in their own plants.
        if (!row || !writesInPlant(user.grants, user.plants, row.plant)) throw new HttpError(404, `Transfer request ${id} not found`, { code: 'transferNotFound', params: { id } });
        // The loser of two deciders meets this: one code per outcome, as approvals (no English status word in another language).
        if (row.status !== 'requested') {
          throw new HttpError(409, `This transfer request was already marked ${row.status}`, { code: row.status === 'done' ? 'transferAlreadyDone' : 'transferAlreadyDeclined' });
        }
        await tx
          .update(stockTransferRequests)
          .set({ status, decidedBy: user.id, decidedAt: sql`now()` })
          .where(eq(stockTransferRequests.id, id));
        // Decided: the deciders' "waiting for you" leave their unread lists, the decider's own included.
        await resolveTransferRequestNotifications(tx, id, `Stock transfer request marked ${status}`);
        if (row.userId !== user.id) {
          const text: NotificationText = {
            key: status === 'done' ? 'stockTransferDone' : 'stockTransferDeclined',
            params: {
              material: row.materialCode,
              quantity: Number(row.quantity),
              from: row.storageLocationFrom,
              to: row.storageLocationTo,
              plant: row.plant,
              by: user.email,
            },
          };
          await emitNotifications(tx, {
            key: 'other_notification',
            userIds: [row.userId],
            ...englishNotificationText(text),
            text,
            link: TRANSFER_REQUESTS_LINK,
            plantCode: row.plant,
          });
        }
        const [decided] = await transferRows(tx, eq(stockTransferRequests.id, id), 1);
        return { status: 200, body: decided! };
      });
    },
  );
};
