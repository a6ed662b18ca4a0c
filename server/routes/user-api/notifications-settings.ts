/**
 * GET / PUT /user_api/v1/users/{uid}/notifications_settings (§3, §5, §6).
 * The user themselves may read and change their settings; super_manager, supervisor and
 * stock_admin (capability notificationSettings.editOthers) may read and change those of users
 * who share one of their notification plants (super managers: anyone), never of a super manager,
 * nor a stock admin's unless the caller is one. Nobody else reads them.
 * Push device tokens are answered to their owner only (#20); others get the devices without them.
 * §5 messages come from the contract; e-mail domains are checked against the allowed list here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { errorBody } from '../../../src/contract/common';
import { notificationSettingsResponse, updateNotificationSettingsBody, userIdParams } from '../../../src/contract/notifications';
import { checkEmail } from '../../../src/domain/email';
import { can, isSuperManager, mayEditNotificationsOf } from '../../../src/domain/permissions';
import type { Db } from '../../db/client';
import { userAttachments, userGrants, users } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { saveSettings } from '../../repositories/notifications';
import type { CurrentUser } from '../../repositories/users';
import { callerNotificationPlants, loadSettings } from '../../notifications/settings';
import { assertNotificationUser } from './notifications';

const tags = ['notifications'];

async function assertMayAccess(db: Db, caller: CurrentUser, uid: string): Promise<'self' | 'other'> {
  if (caller.id === uid) {
    await assertNotificationUser(db, caller);
    return 'self';
  }
  const refused = new HttpError(403, 'You may only read and change your own notification settings');
  if (!can(caller.grants, 'notificationSettings.editOthers')) throw refused;
  const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, uid));
  // Anyone's only for the writing super manager: a read-only super manager who is also a
  // supervisor or stock admin (§6: rights are the union) edits within that role's plants and rank.
  if (caller.grants.includes('super_manager')) {
    if (!target) throw new HttpError(404, `No user ${uid}`);
    return 'other';
  }
  if (!target) throw refused;
  const editing = { grants: caller.grants.filter((grant) => !isSuperManager([grant])), plants: caller.plants };
  const scope = (await callerNotificationPlants(db, editing)) ?? [];
  const targetPlants = await db
    .select({ code: userAttachments.code })
    .from(userAttachments)
    .where(and(eq(userAttachments.userId, uid), eq(userAttachments.kind, 'plant')));
  if (!targetPlants.some((p) => scope.includes(p.code))) {
    throw new HttpError(403, 'You may only change the notification settings of users in your notification plants');
  }
  // Not upwards: a supervisor or stock admin sharing a plant with a super manager (or a supervisor
  // with a stock admin) could otherwise send that person's messages to their own address, or
  // silence them. Super managers, as above, may edit anyone's.
  const targetGrants = (await db.select({ grant: userGrants.grantId }).from(userGrants).where(eq(userGrants.userId, uid))).map((row) => row.grant);
  if (!mayEditNotificationsOf(caller.grants, targetGrants)) {
    throw new HttpError(403, 'You may not change the notification settings of a user whose role ranks above yours');
  }
  return 'other';
}

export const notificationSettingsRoutes: FastifyPluginAsyncZod<{ db: Db; allowedDomains: string[] }> = async (app, { db, allowedDomains }) => {
  app.get(
    '/users/:uid/notifications_settings',
    {
      schema: {
        tags,
        summary: 'Primary and secondary notification settings of a user',
        params: userIdParams,
        response: { 200: notificationSettingsResponse, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const caller = requireUser(request);
      const access = await assertMayAccess(db, caller, request.params.uid);
      return { notification_settings: await loadSettings(db, request.params.uid, { isOwner: access === 'self' }) };
    },
  );

  app.put(
    '/users/:uid/notifications_settings',
    {
      schema: {
        tags,
        summary: 'Replace the primary (and secondary) notification settings of a user',
        params: userIdParams,
        body: updateNotificationSettingsBody,
        response: { 200: notificationSettingsResponse, 400: errorBody, 403: errorBody, 404: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const caller = requireUser(request);
      const { uid } = request.params;
      const access = await assertMayAccess(db, caller, uid);
      for (const entry of request.body.notificationSettings) {
        const email = entry.email?.trim();
        if (!email) continue;
        const check = checkEmail(email, allowedDomains);
        if (!check.ok) throw new HttpError(400, check.message);
      }
      return runMutation(db, request, reply, async (tx) => {
        // The browser that saves names itself (X-Device-Id): only its own device's token and
        // sign-in state come from the body; others' only their on/off switch (a form opened
        // before another device signed in or out must not bring back what it showed).
        const thisDevice = request.headers['x-device-id'];
        await saveSettings(tx, uid, request.body.notificationSettings, {
          ownDevices: access === 'self',
          ...(typeof thisDevice === 'string' && thisDevice.trim() ? { thisDevice: thisDevice.trim() } : {}),
          actor: { id: caller.id, email: caller.email },
        });
        return { body: { notification_settings: await loadSettings(tx, uid, { isOwner: access === 'self' }) } };
      });
    },
  );
};
