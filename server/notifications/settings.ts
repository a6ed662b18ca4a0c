/**
 * A user's notification settings (§3 notification settings entry) as stored, or the defaults for a
 * user who never saved any: the primary entry sends e-mail to the account's address for every
 * type, the secondary entry sends nothing. Emitting and the settings routes read the same
 * function, so "what the screen shows" is exactly "what the pipeline does".
 */
import { createHmac, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db, Tx } from '../db/client';
import { allowedPlants, notificationDevices, notificationSettings, userAttachments, userGrants, users } from '../db/schema';
import {
  NOTIFICATION_KEYS,
  notificationPreferences,
  PUSH_DEVICES_MAX,
  type NotificationPreferences,
  type NotificationSettingsEntry,
  type NotificationSettingsResponse,
} from '../../src/contract/notifications';
import { isSuperManager } from '../../src/domain/permissions';
import { notExpiredSql, type CurrentUser } from '../repositories/users';

type Executor = Db | Tx;

export function defaultPreferences(enabled: { email: boolean; sms: boolean; push: boolean }): NotificationPreferences {
  return Object.fromEntries(
    NOTIFICATION_KEYS.map((key) => [key, { emailEnabled: enabled.email, smsEnabled: enabled.sms, pushEnabled: enabled.push }]),
  ) as NotificationPreferences;
}

/** Stored preferences may miss keys added later: fill them with "off" rather than failing. */
function readPreferences(value: unknown): NotificationPreferences {
  const base = defaultPreferences({ email: false, sms: false, push: false });
  const parsed = z.partial(notificationPreferences).safeParse(value);
  return parsed.success ? { ...base, ...parsed.data } : base;
}

/**
 * Keys a non-owner's stand-in for a device id (below). Random per process: nothing outside it can
 * turn a stand-in back into the id, and within it a reader sees the same one at every read.
 */
const DEVICE_ALIAS_KEY = randomBytes(32);

/** A stand-in for a device id; never all digits, so never a browser's own id (§3: a random number). */
function deviceAlias(userId: string, deviceId: string, readerId: string | undefined): string {
  return `other-${createHmac('sha256', DEVICE_ALIAS_KEY).update(`${readerId ?? ''}\0${userId}\0${deviceId}`).digest('base64url').slice(0, 24)}`;
}

/**
 * The settings as a reader sees them. A push device token is a credential of its owner's browser
 * (whoever holds it can address pushes to that device), so only the owner reads it; anyone else
 * (a supervisor, stock admin or manager editing the settings, §6) sees the devices with `token: null`.
 * Nor do they read the device ids: an id sent as one's own X-Device-Id takes that device from its
 * user (signed out, token dropped). They get a stable stand-in; their save ignores devices anyway.
 */
export async function loadSettings(
  db: Executor,
  userId: string,
  reader: { isOwner: boolean; id?: string },
): Promise<NotificationSettingsResponse> {
  const [user] = await db.select({ email: users.email, phoneNumber: users.phoneNumber }).from(users).where(eq(users.id, userId));
  if (!user) return { notification_settings: [], revision: 0 };
  const { entries, revision } = await settingsWithRevision(db, userId, user);
  if (reader.isOwner) return { notification_settings: entries, revision };
  return {
    notification_settings: entries.map((entry) => ({
      ...entry,
      pushNotificationsSettings: entry.pushNotificationsSettings.map((device) => ({
        ...device,
        deviceId: deviceAlias(userId, device.deviceId, reader.id),
        token: null,
      })),
    })),
    revision,
  };
}

/** loadSettings for a user whose row is already loaded (the defaults name its e-mail address and phone number). */
export async function settingsOf(
  db: Executor,
  userId: string,
  user: { email: string; phoneNumber: string | null },
): Promise<NotificationSettingsEntry[]> {
  return (await settingsWithRevision(db, userId, user)).entries;
}

/**
 * The entries and their revision (decision 0068: the sum of the rows' counters, as the save's
 * check reads it, repositories/notifications.ts settingsRevision) from the same rows: a revision
 * read apart could be newer than the entries answered with it, and a save naming it would then
 * write over a change its form never showed.
 */
async function settingsWithRevision(
  db: Executor,
  userId: string,
  user: { email: string; phoneNumber: string | null },
): Promise<{ entries: NotificationSettingsEntry[]; revision: number }> {
  // One query after the other: inside a transaction the executor is one connection.
  const rows = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  // The most recently used first, no more than the answer may carry (saves keep PUSH_DEVICES_PER_USER;
  // rows from before that rule wait for the next device registered to be trimmed).
  const devices = await db
    .select()
    .from(notificationDevices)
    .where(eq(notificationDevices.userId, userId))
    .orderBy(desc(notificationDevices.updatedAt), asc(notificationDevices.deviceId))
    .limit(PUSH_DEVICES_MAX);
  const push = devices.map((d) => ({
    deviceId: d.deviceId,
    deviceName: d.deviceName,
    token: d.token,
    isEnabled: d.isEnabled,
    isLoggedIn: d.isLoggedIn,
  }));
  const entry = (primary: boolean): NotificationSettingsEntry => {
    const row = rows.find((r) => r.primary === primary);
    if (row) {
      return {
        primary,
        emailEnabled: row.emailEnabled,
        email: row.email,
        mobileEnabled: row.mobileEnabled,
        mobileNumber: row.mobileNumber,
        pushNotificationsEnabled: row.pushNotificationsEnabled,
        pushNotificationsSettings: push,
        notificationsPreferences: readPreferences(row.preferences),
      };
    }
    return {
      primary,
      emailEnabled: primary,
      email: primary ? user.email : null,
      mobileEnabled: false,
      mobileNumber: primary ? user.phoneNumber : null,
      pushNotificationsEnabled: false,
      pushNotificationsSettings: push,
      notificationsPreferences: defaultPreferences({ email: primary, sms: false, push: false }),
    };
  };
  return { entries: [entry(true), entry(false)], revision: rows.reduce((sum, row) => sum + row.revision, 0) };
}

async function notificationAllowedPlants(db: Executor): Promise<Set<string>> {
  const rows = await db.select({ plant: allowedPlants.plant }).from(allowedPlants).where(eq(allowedPlants.parameter, 'notifications_allowed_plants'));
  return new Set(rows.map((r) => r.plant));
}

/**
 * §6: super managers see notifications in all plants; others only in notifications_allowed_plants
 * that are among their own plants. Null for "all plants", else the list (maybe empty).
 */
function scopeOf(grants: readonly string[], plants: readonly string[], allowed: ReadonlySet<string>): string[] | null {
  if (isSuperManager(grants)) return null;
  return plants.filter((code) => allowed.has(code));
}

/** The §6 notification plants of the calling user, whose grants and plants the request already holds. */
export async function callerNotificationPlants(db: Executor, caller: Pick<CurrentUser, 'grants' | 'plants'>): Promise<string[] | null> {
  return scopeOf(caller.grants, caller.plants, await notificationAllowedPlants(db));
}

/** The §6 notification plants of each of `userIds` (ids of existing users), in three queries. */
export async function notificationPlantsOf(db: Executor, userIds: string[]): Promise<Map<string, string[] | null>> {
  if (userIds.length === 0) return new Map();
  const grantRows = await db.select({ userId: userGrants.userId, id: userGrants.grantId }).from(userGrants).where(inArray(userGrants.userId, userIds));
  const plantRows = await db
    .select({ userId: userAttachments.userId, code: userAttachments.code })
    .from(userAttachments)
    .where(and(inArray(userAttachments.userId, userIds), eq(userAttachments.kind, 'plant')));
  const allowed = await notificationAllowedPlants(db);
  return new Map(
    userIds.map((userId) => [
      userId,
      scopeOf(
        grantRows.filter((g) => g.userId === userId).map((g) => g.id),
        plantRows.filter((p) => p.userId === userId).map((p) => p.code),
        allowed,
      ),
    ]),
  );
}

/** True when the user receives notifications at all, and for `plant` when one is given. */
export function seesPlant(scope: string[] | null, plant: string | null | undefined): boolean {
  if (scope === null) return true;
  if (scope.length === 0) return false;
  return plant === null || plant === undefined || scope.includes(plant);
}

/** A recipient as emitting judges it: where to write, and whether their access stands (§1). */
export interface RecipientUser {
  email: string;
  phoneNumber: string | null;
  isApproved: boolean;
  /** Not expired by the day of their plants, as the sign-in check judges it (notExpiredSql). */
  isNotExpired: boolean;
  /** The language they read the app in (users.locale). */
  locale: string;
}

export async function existingUsers(db: Executor, ids: string[]): Promise<Map<string, RecipientUser>> {
  const valid = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (valid.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email, phoneNumber: users.phoneNumber, approvalStatus: users.approvalStatus, isNotExpired: notExpiredSql(), locale: users.locale })
    .from(users)
    .where(inArray(users.id, valid));
  return new Map(
    rows.map((r) => [r.id, { email: r.email, phoneNumber: r.phoneNumber, isApproved: r.approvalStatus === 'Approved', isNotExpired: Boolean(r.isNotExpired), locale: r.locale }]),
  );
}
