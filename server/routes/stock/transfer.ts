/**
 * Stock transfer requests (§3: from, to, material, quantity > 0): POST stores one, GET lists the
 * caller's own (super managers: everyone's). Path not in the spec: /api/v2/stock_transfer_request.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq } from 'drizzle-orm';
import { errorBody } from '../../../src/contract/common';
import { transferRequestBody, transferRequestList, transferRequestRow } from '../../../src/contract/stock';
import { holdsPlant, isSuperManager } from '../../../src/domain/permissions';
import type { Db } from '../../db/client';
import { materials, stockTransferRequests, storageLocations } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';

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
      if (!holdsPlant(user.grants, user.plants, body.plant)) throw new HttpError(403, `You do not see plant ${body.plant}`);
      return runMutation(db, request, reply, async (tx) => {
        for (const code of [body.storageLocationFrom, body.storageLocationTo]) {
          const [location] = await tx.select().from(storageLocations).where(and(eq(storageLocations.plant, body.plant), eq(storageLocations.code, code)));
          if (!location) throw new HttpError(400, `Storage location ${code} does not exist in plant ${body.plant}`);
        }
        const [material] = await tx.select().from(materials).where(eq(materials.code, body.materialCode));
        if (!material) throw new HttpError(400, `Unknown material: ${body.materialCode}`);
        const [row] = await tx
          .insert(stockTransferRequests)
          .values({ userId: user.id, plant: body.plant, storageLocationFrom: body.storageLocationFrom, storageLocationTo: body.storageLocationTo, materialCode: body.materialCode, quantity: String(body.quantity) })
          .returning();
        return { status: 201, body: toRow(row!) };
      });
    },
  );

  app.get(
    '/stock_transfer_request',
    { config: { capability: 'stock.read' }, schema: { tags: ['stock'], summary: 'Your stock transfer requests, newest first', response: { 200: transferRequestList } } },
    async (request) => {
      const user = requireUser(request);
      const rows = await db
        .select()
        .from(stockTransferRequests)
        .where(isSuperManager(user.grants) ? undefined : eq(stockTransferRequests.userId, user.id))
        .orderBy(desc(stockTransferRequests.createdAt))
        .limit(100);
      return { items: rows.map(toRow) };
    },
  );
};
