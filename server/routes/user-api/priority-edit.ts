/**
 * PUT /user_api/v1/uap_priority: PM_write (and the super manager) change one access point's
 * priority for a ship-to-party number they hold, or turn it on or off (§6 "view and change").
 * One transaction with its audit-log row; unknown or foreign pairs are 404 (existence not revealed);
 * a row changed since the editor opened (expectedPriority / expectedIsEnabled) is 409.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, sql } from 'drizzle-orm';
import { errorBody } from '../../../src/contract/common';
import { uapInfo, updatePriorityBody } from '../../../src/contract/priority';
import type { Db } from '../../db/client';
import { accessPointPriorities, accessPoints, auditLog } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { shipToPartyWriteScope } from '../../repositories/priority';
import { takePriorityWriteTurn } from '../../priority/upload';

export const priorityEditRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.put(
    '/uap_priority',
    {
      config: { capability: 'priority.write' },
      schema: {
        tags: ['priority manager'],
        summary: 'Change the priority of one access point for a ship-to-party number (or turn it on or off)',
        body: updatePriorityBody,
        response: { 200: uapInfo, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      // The numbers it may change: a read-only super manager's own only (decision 0063).
      const scope = shipToPartyWriteScope(user);
      const notFound = () =>
        new HttpError(404, `No priority of access point ${body.accessPointId} for ship-to-party ${body.shipToPartyCode}`, {
          // Decision 0055: in the reader's language. The same for an unknown pair and a number not held.
          code: 'priorityNotFound',
          params: { accessPoint: body.accessPointId, shipToParty: body.shipToPartyCode },
        });
      if (scope !== null && !scope.includes(body.shipToPartyCode)) throw notFound();
      return runMutation(db, request, reply, async (tx) => {
        const where = and(eq(accessPointPriorities.shipToPartyCode, body.shipToPartyCode), eq(accessPointPriorities.accessPointId, body.accessPointId));
        // Every priority of the ship-to-party, locked, after any other writer of priorities (an
        // upload may be inserting siblings): decision 0025 compares this access point with its siblings.
        await takePriorityWriteTurn(tx);
        const siblings = await tx.select().from(accessPointPriorities).where(eq(accessPointPriorities.shipToPartyCode, body.shipToPartyCode)).for('update');
        const before = siblings.find((row) => row.accessPointId === body.accessPointId);
        if (!before) throw notFound();
        // Decision 0065: the editor says what it was opened with; a change by someone else since
        // (another editor, an upload) is refused, never overwritten unseen (a disabled access point
        // turned on again by an editor opened before). Checked under the lock: nothing moves it now.
        const changedPriority = body.expectedPriority !== undefined && body.expectedPriority !== before.priority;
        const changedState = body.expectedIsEnabled !== undefined && body.expectedIsEnabled !== before.isEnabled;
        if (changedPriority || changedState) {
          throw new HttpError(
            409,
            `The priority of access point ${body.accessPointId} at ship-to-party ${body.shipToPartyCode} was changed by someone else after you opened it: nothing was saved. Look at it again as it is now, then make your change`,
            { code: 'priorityChangedMeanwhile', params: { accessPoint: body.accessPointId, shipToParty: body.shipToPartyCode } },
          );
        }
        const isEnabled = body.isEnabled ?? before.isEnabled;
        const taken = siblings.find((row) => row.accessPointId !== body.accessPointId && row.isEnabled && row.priority === body.priority);
        if (isEnabled && taken) {
          throw new HttpError(
            409,
            `Access point ${taken.accessPointId} already has priority ${body.priority} at ship-to-party ${body.shipToPartyCode}: give it another priority first, or choose another priority for ${body.accessPointId}`,
            // Decision 0055: in the reader's language.
            { code: 'priorityTakenByOther', params: { taken: taken.accessPointId, priority: body.priority, shipToParty: body.shipToPartyCode, accessPoint: body.accessPointId } },
          );
        }
        const [after] = await tx
          .update(accessPointPriorities)
          .set({ priority: body.priority, isEnabled, updatedBy: user.email, updatedAt: sql`now()` })
          .where(where)
          .returning();
        await tx.insert(auditLog).values({
          actorUserId: user.id,
          actorEmail: user.email,
          action: 'priority.update',
          targetType: 'access_point_priority',
          targetId: `${body.shipToPartyCode}/${body.accessPointId}`,
          before: { priority: before.priority, isEnabled: before.isEnabled },
          after: { priority: after!.priority, isEnabled: after!.isEnabled },
        });
        const [point] = await tx.select().from(accessPoints).where(eq(accessPoints.id, body.accessPointId));
        return {
          body: {
            accessPointId: point!.id,
            name: point!.name,
            address: point!.address,
            postalCode: point!.postalCode,
            city: point!.city,
            country: point!.country,
            priority: after!.priority,
            isEnabled: after!.isEnabled,
          },
        };
      });
    },
  );
};
