/**
 * §7 /api/v2/relationship/{plant|storage_location|mechanic_storage_location|work_center|mechanic}
 * and /relationship/all_stock_visibility: what the count forms offer, filtered by plant or
 * work center, limited to the plants the caller sees (super managers: all).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { errorBody } from '../../../src/contract/common';
import { relationshipResponse, type Relationships } from '../../../src/contract/stock';
import { isSuperManager } from '../../../src/domain/permissions';
import type { Db } from '../../db/client';
import { plants, storageLocations, userAttachments, users, workCenters } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { notExpiredSql } from '../../repositories/users';

const KINDS = ['plant', 'storage_location', 'mechanic_storage_location', 'work_center', 'mechanic', 'all_stock_visibility'] as const;
const query = z.object({ plant: z.string().optional(), workCenter: z.string().optional() });

export const relationshipRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  for (const kind of KINDS) {
    app.get(
      `/relationship/${kind}`,
      {
        config: { capability: 'stock.read' },
        schema: { tags: ['stock'], summary: `Relationships: ${kind.replaceAll('_', ' ')}`, querystring: query, response: { 200: relationshipResponse, 400: errorBody, 403: errorBody } },
      },
      async (request) => {
        const user = requireUser(request);
        const visible = isSuperManager(user.grants) ? undefined : user.plants;
        const plant = request.query.plant;
        // Coded (decision 0055): the transfer dialog's list of storage locations shows it in the reader's language.
        if (plant && visible && !visible.includes(plant)) throw new HttpError(403, `You do not see plant ${plant}`, { code: 'plantNotYours', params: { plant } });
        if ((kind === 'storage_location' || kind === 'all_stock_visibility' || kind === 'work_center') && !plant) {
          throw new HttpError(400, 'Query parameter plant is required');
        }
        const plantFilter = plant ? [plant] : visible;
        const empty: Relationships = { plants: [], storage_locations: [], work_centers: [], mechanics: [] };
        if (kind === 'plant') {
          const rows = await db.select().from(plants).where(plantFilter ? inArray(plants.code, plantFilter) : undefined).orderBy(asc(plants.code));
          return { ...empty, plants: rows.map((p) => ({ code: p.code, name: p.name })) };
        }
        if (kind === 'storage_location' || kind === 'all_stock_visibility' || kind === 'mechanic_storage_location') {
          const rows = await db
            .select()
            .from(storageLocations)
            .where(
              and(
                plantFilter ? inArray(storageLocations.plant, plantFilter) : undefined,
                kind === 'mechanic_storage_location' ? isNotNull(storageLocations.workCenter) : undefined,
                request.query.workCenter ? eq(storageLocations.workCenter, request.query.workCenter) : undefined,
              ),
            )
            .orderBy(asc(storageLocations.plant), asc(storageLocations.code));
          return { ...empty, storage_locations: rows.map((s) => ({ plant: s.plant, code: s.code, name: s.name, work_center: s.workCenter })) };
        }
        if (kind === 'work_center') {
          const rows = await db.select().from(workCenters).where(eq(workCenters.plant, plant!)).orderBy(asc(workCenters.code));
          return { ...empty, work_centers: rows.map((w) => ({ plant: w.plant, code: w.code, name: w.name, planner_group: w.plannerGroup })) };
        }
        // mechanics: users holding the mechanic role in the plant (or work center)
        const rows = await db
          .selectDistinct({ email: users.email, name: users.displayName, userId: users.id })
          .from(users)
          .innerJoin(userAttachments, eq(userAttachments.userId, users.id))
          .where(
            and(
              eq(users.approvalStatus, 'Approved'),
              // Someone whose access has expired cannot be asked to count.
              notExpiredSql(),
              // A work center filter stays within the plants the caller sees, like the plant filter.
              request.query.workCenter
                ? and(
                    eq(userAttachments.kind, 'work_center'),
                    eq(userAttachments.code, request.query.workCenter),
                    plantFilter ? inArray(userAttachments.plant, plantFilter) : undefined,
                  )
                : and(eq(userAttachments.kind, 'plant'), plantFilter ? inArray(userAttachments.code, plantFilter) : undefined),
            ),
          )
          .orderBy(asc(users.email));
        const ids = rows.map((r) => r.userId);
        const centers = ids.length
          ? await db
              .select({ userId: userAttachments.userId, code: userAttachments.code })
              .from(userAttachments)
              .where(and(inArray(userAttachments.userId, ids), eq(userAttachments.kind, 'work_center')))
          : [];
        const grants = ids.length ? await db.query.userGrants.findMany({ where: (g, { inArray: within }) => within(g.userId, ids) }) : [];
        return {
          ...empty,
          mechanics: rows
            .filter((r) => grants.some((g) => g.userId === r.userId && g.grantId === 'mechanic'))
            .map((r) => ({ email: r.email, display_name: r.name, work_centers: centers.filter((c) => c.userId === r.userId).map((c) => c.code) })),
        };
      },
    );
  }
};
