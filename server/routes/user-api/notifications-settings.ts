/**
 * GET / PUT /user_api/v1/users/{uid}/notifications_settings (§3, §5, §6).
 * The user themselves may read and change their settings; super_manager, supervisor and
 * stock_admin (capability notificationSettings.editOthers) may read and change those of users
 * who share one of their notification plants (super managers: anyone), never of a super manager,
 * nor a stock admin's unless the caller is one. Nobody else reads them.
 * Push device tokens are answered to their owner only (#20); others get the devices without them.
 * §5 messages come from the contract; e-mail domains are checked against the allowed list here.
 * Decision 0068: the answer carries the settings' revision, and a save naming the one its form was
 * opened with (expectedRevision) is refused (409 notificationSettingsChangedMeanwhile) when another
 * save came since. A browser registers itself for push and signs out through calls of its own
 * (PUT …/push_devices/{deviceId}, DELETE …/sign_in): its own row, never the whole settings read moments before.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, eq, exists, ilike, inArray, ne, notExists, or } from 'drizzle-orm';
import { errorBody } from '../../../src/contract/common';
import {
  NOTIFICATION_TEAM_MAX,
  notificationSettingsResponse,
  notificationTeamQuery,
  notificationTeamResponse,
  pushDeviceParams,
  registerPushDeviceBody,
  updateNotificationSettingsBody,
  userIdParams,
} from '../../../src/contract/notifications';
import { checkEmail } from '../../../src/domain/email';
import { can, isSuperManager, mayEditNotificationsOf, notificationEditBlockers, writesEverywhere } from '../../../src/domain/permissions';
import type { Db, Tx } from '../../db/client';
import { userAttachments, userGrants, users } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { escapeLike, registerDevice, saveSettings, settingsRevision, signOutDevice } from '../../repositories/notifications';
import type { CurrentUser } from '../../repositories/users';
import { callerNotificationPlants, loadSettings } from '../../notifications/settings';
import { assertNotificationUser } from './notifications';

const tags = ['notifications'];

/**
 * The plants whose users' notification settings `caller` may change: null for anyone's (the
 * writing super manager); else the caller's notification plants as the role they write with (a
 * read-only super manager who is also a supervisor: the supervisor's, not every plant).
 */
async function editingPlants(db: Db, caller: CurrentUser): Promise<string[] | null> {
  if (writesEverywhere(caller.grants)) return null;
  const asWriter = { grants: caller.grants.filter((grant) => !isSuperManager([grant])), plants: caller.plants };
  return (await callerNotificationPlants(db, asWriter)) ?? [];
}

/** The refusal of another user's settings to an editor of others, whichever rule refuses them. */
const NOT_YOURS = 'You may read and change the notification settings only of users in your notification plants whose role does not rank above yours';

async function assertMayAccess(db: Db, caller: CurrentUser, uid: string): Promise<'self' | 'other'> {
  if (caller.id === uid) {
    await assertNotificationUser(db, caller);
    return 'self';
  }
  if (!can(caller.grants, 'notificationSettings.editOthers')) throw new HttpError(403, 'You may only read and change your own notification settings');
  const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, uid));
  const scope = await editingPlants(db, caller);
  if (scope === null) {
    if (!target) throw new HttpError(404, `No user ${uid}`);
    return 'other';
  }
  // One answer whatever the reason (no such user, none of the caller's plants, a higher role):
  // three would tell an editor which user ids exist, where they work and what they rank.
  const notYours = new HttpError(403, NOT_YOURS);
  if (!target) throw notYours;
  const targetPlants = await db
    .select({ code: userAttachments.code })
    .from(userAttachments)
    .where(and(eq(userAttachments.userId, uid), eq(userAttachments.kind, 'plant')));
  if (!targetPlants.some((p) => scope.includes(p.code))) throw notYours;
  // Not upwards: a supervisor or stock admin sharing a plant with a super manager (or a supervisor
  // with a stock admin) could otherwise send that person's messages to their own address, or
  // silence them. Super managers, as above, may edit anyone's.
  const targetGrants = (await db.select({ grant: userGrants.grantId }).from(userGrants).where(eq(userGrants.userId, uid))).map((row) => row.grant);
  if (!mayEditNotificationsOf(caller.grants, targetGrants)) throw notYours;
  return 'other';
}

/**
 * The approved users whose settings `caller` may change, by the rule of assertMayAccess: anyone for
 * a super manager; otherwise those holding one of the caller's notification plants, never a super
 * manager, nor a stock admin unless the caller is one. Not the caller.
 */
async function notificationTeam(db: Db, caller: CurrentUser, query: string | undefined) {
  const scope = await editingPlants(db, caller);
  if (scope !== null && scope.length === 0) return { users: [], has_more: false };
  const above = notificationEditBlockers(caller.grants);
  const term = query?.trim() ? `%${escapeLike(query.trim())}%` : null;
  const rows = await db
    .select({ uid: users.id, email: users.email, display_name: users.displayName })
    .from(users)
    .where(
      and(
        ne(users.id, caller.id),
        eq(users.approvalStatus, 'Approved'),
        term ? or(ilike(users.email, term), ilike(users.displayName, term)) : undefined,
        scope === null
          ? undefined
          : exists(
              db
                .select({ one: userAttachments.userId })
                .from(userAttachments)
                .where(and(eq(userAttachments.userId, users.id), eq(userAttachments.kind, 'plant'), inArray(userAttachments.code, scope))),
            ),
        above.length === 0
          ? undefined
          : notExists(db.select({ one: userGrants.userId }).from(userGrants).where(and(eq(userGrants.userId, users.id), inArray(userGrants.grantId, above)))),
      ),
    )
    .orderBy(asc(users.email))
    .limit(NOTIFICATION_TEAM_MAX + 1);
  return { users: rows.slice(0, NOTIFICATION_TEAM_MAX), has_more: rows.length > NOTIFICATION_TEAM_MAX };
}

/**
 * The user's settings take turns (decision 0068): a save, and the check of the revision it names,
 * waits for the save before it. The user's row is the lock (there may be no settings row yet), FOR
 * NO KEY UPDATE: notifications written for the user meanwhile (their key share) do not wait.
 */
async function takeSettingsTurn(tx: Tx, uid: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, uid)).for('no key update');
}

/** A save naming a revision that is no longer the stored one: nothing is written. */
const changedMeanwhile = () =>
  new HttpError(
    409,
    'These notification settings were changed on another device or by someone else after you opened them: nothing was saved. Look at them again as they are now, then make your change',
    { code: 'notificationSettingsChangedMeanwhile' },
  );

/** Only the user registers or signs out a browser of theirs: the device id and its token are theirs. */
async function assertOwnDevice(db: Db, caller: CurrentUser, uid: string): Promise<void> {
  if (caller.id !== uid) throw new HttpError(403, 'You may only register or sign out your own devices for push notifications');
  await assertNotificationUser(db, caller);
}

export const notificationSettingsRoutes: FastifyPluginAsyncZod<{ db: Db; allowedDomains: string[] }> = async (app, { db, allowedDomains }) => {
  app.get(
    '/users/notification_settings_team',
    {
      config: { capability: 'notificationSettings.editOthers' },
      schema: {
        tags,
        summary: 'The people whose notification settings the caller may change (their notification plants, not upwards), by e-mail, at most 50',
        querystring: notificationTeamQuery,
        response: { 200: notificationTeamResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => notificationTeam(db, requireUser(request), request.query.query),
  );

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
      return loadSettings(db, request.params.uid, { isOwner: access === 'self', id: caller.id });
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
        response: { 200: notificationSettingsResponse, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const caller = requireUser(request);
      const { uid } = request.params;
      const { expectedRevision } = request.body;
      const access = await assertMayAccess(db, caller, uid);
      for (const entry of request.body.notificationSettings) {
        const email = entry.email?.trim();
        if (!email) continue;
        const check = checkEmail(email, allowedDomains);
        if (!check.ok) throw new HttpError(400, check.message);
      }
      return runMutation(db, request, reply, async (tx) => {
        await takeSettingsTurn(tx, uid);
        // Compared under the turn: a save landing between the form's read and this one (the
        // mechanic's phone, another editor) is refused here, not turned back unseen.
        if (expectedRevision !== undefined && expectedRevision !== (await settingsRevision(tx, uid))) throw changedMeanwhile();
        // The browser that saves names itself (X-Device-Id): only its own device's token and
        // sign-in state come from the body; others' only their on/off switch (a form opened
        // before another device signed in or out must not bring back what it showed). A save
        // naming its revision writes the switches only: its device registers by its own call.
        const thisDevice = request.headers['x-device-id'];
        await saveSettings(tx, uid, request.body.notificationSettings, {
          ownDevices: access === 'self',
          ...(typeof thisDevice === 'string' && thisDevice.trim() ? { thisDevice: thisDevice.trim() } : {}),
          switchesOnly: expectedRevision !== undefined,
          actor: { id: caller.id, email: caller.email },
        });
        return { body: await loadSettings(tx, uid, { isOwner: access === 'self', id: caller.id }) };
      });
    },
  );

  app.put(
    '/users/:uid/push_devices/:deviceId',
    {
      schema: {
        tags,
        summary: 'Register this browser for push: its own device only (signed in, with its token; its switch kept, on when new)',
        params: pushDeviceParams,
        body: registerPushDeviceBody,
        response: { 200: notificationSettingsResponse, 400: errorBody, 403: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const caller = requireUser(request);
      const { uid, deviceId } = request.params;
      await assertOwnDevice(db, caller, uid);
      return runMutation(db, request, reply, async (tx) => {
        await registerDevice(tx, uid, { deviceId, deviceName: request.body.deviceName, token: request.body.token });
        return { body: await loadSettings(tx, uid, { isOwner: true, id: caller.id }) };
      });
    },
  );

  // DELETE, not POST: idempotent, so retried like the GET and PUT the sign-out made before.
  app.delete(
    '/users/:uid/push_devices/:deviceId/sign_in',
    {
      schema: {
        tags,
        summary: 'Mark this browser signed out of push (§2 sign-out): its own device only; nothing when it is not registered',
        params: pushDeviceParams,
        response: { 200: notificationSettingsResponse, 400: errorBody, 403: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const caller = requireUser(request);
      const { uid, deviceId } = request.params;
      await assertOwnDevice(db, caller, uid);
      return runMutation(db, request, reply, async (tx) => {
        await signOutDevice(tx, uid, deviceId);
        return { body: await loadSettings(tx, uid, { isOwner: true, id: caller.id }) };
      });
    },
  );
};
