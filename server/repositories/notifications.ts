/**
 * Reading and changing a user's own notifications (§7 lists, dropdown, read marks) and the
 * notification settings (§3). Every query is scoped to ONE user id: callers pass the caller's.
 */
import { and, asc, count, desc, eq, ilike, ne, notInArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { auditLog, notificationDevices, notifications, notificationSettings } from '../db/schema';
import type {
  DeliveryState,
  DropdownEntry,
  NotificationChannel,
  NotificationItem,
  NotificationKey,
  NotificationListQuery,
  NotificationPage,
  NotificationSettingsEntry,
} from '../../src/contract/notifications';
import { normalizeEmail } from '../../src/domain/email';
import { isLooseMobileNumber, mobileDigits } from '../../src/contract/notifications';

type Executor = Db | Tx;
type Row = typeof notifications.$inferSelect;

const DROPDOWN_LIMIT = 50;

/** #19 item 22: the text as key and parameters, when the server wrote one. */
function textOf(row: Pick<Row, 'textKey' | 'textParams'>): { key: string; params: Record<string, string | number | null> } | null {
  return row.textKey ? { key: row.textKey, params: row.textParams ?? {} } : null;
}

export function toItem(row: Row): NotificationItem {
  const base = {
    id: row.id,
    notification_key: row.notificationKey as NotificationKey,
    user_email: row.userEmail,
    recipient: row.recipient ?? (row.channel === 'email' ? row.userEmail : row.channel === 'sms' ? row.phoneNumber : null),
    plant: row.plant,
    planner_group: row.plannerGroup,
    storage_location: row.storageLocation,
    work_center: row.workCenter,
    message: row.message,
    link: row.link,
    active: row.active,
    delivery_state: row.deliveryState as DeliveryState,
    created: row.created.toISOString(),
    text: textOf(row),
  };
  if (row.channel === 'email') return { ...base, subject: row.subject };
  if (row.channel === 'sms') return { ...base, phone_number: row.phoneNumber ?? row.recipient };
  return { ...base, title: row.title };
}

function dropdownText(row: Pick<Row, 'channel' | 'subject' | 'title' | 'message'>): string {
  const text = row.channel === 'email' ? row.subject : row.channel === 'push' ? row.title : null;
  return (text?.trim() ? text : row.message).slice(0, 200);
}

/**
 * A user's unread notifications, of every channel. `active` is written out, not compared with a
 * parameter, so every plan of the bell's queries matches the partial index notifications_unread_idx
 * (user_id, created desc, id desc where active; migration 0036).
 */
const unreadOf = (userId: string) => and(eq(notifications.userId, userId), sql`${notifications.active}`);

/** The bell's number: every unread notification of the user, counted up to UNREAD_COUNT_CAP. */
export const UNREAD_COUNT_CAP = 1000;
export async function unreadCount(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(
      db
        .select({ one: sql`1` })
        .from(notifications)
        .where(unreadOf(userId))
        .limit(UNREAD_COUNT_CAP)
        .as('unread'),
    );
  return Number(row?.n ?? 0);
}

export async function unreadNotifications(db: Executor, userId: string): Promise<DropdownEntry[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(unreadOf(userId))
    .orderBy(desc(notifications.created), desc(notifications.id))
    .limit(DROPDOWN_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    notification_type: row.channel as NotificationChannel,
    notification_key: row.notificationKey as NotificationKey,
    notification_text: dropdownText(row),
    created: row.created.toISOString(),
    text: textOf(row),
  }));
}

const SORT: Record<NonNullable<NotificationListQuery['orderByColumn']>, SQL | AnyColumn> = {
  created: notifications.created,
  subject: sql`coalesce(${notifications.subject}, ${notifications.title}, ${notifications.message})`,
  title: sql`coalesce(${notifications.title}, ${notifications.subject}, ${notifications.message})`,
  notification_key: notifications.notificationKey,
  active: notifications.active,
};

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listNotifications(
  db: Executor,
  userId: string,
  channel: NotificationChannel,
  query: { page: number; maxResults: number; orderByColumn?: keyof typeof SORT; sortDirection?: 'asc' | 'desc'; query?: string; notificationKey?: NotificationKey },
): Promise<NotificationPage<NotificationItem>> {
  const conditions: SQL[] = [eq(notifications.userId, userId), eq(notifications.channel, channel)];
  if (query.notificationKey) conditions.push(eq(notifications.notificationKey, query.notificationKey));
  const search = (query.query ?? '').trim();
  // §5: a search that looks like a phone number (looser check: optional +, 3 or more digits, spaces
  // allowed) finds the messages sent to that number however it was written: digits compared only.
  const terms = isLooseMobileNumber(search) ? [search] : search.split(/\s+/).filter(Boolean).slice(0, 10);
  for (const term of terms) {
    const pattern = `%${escapeLike(term)}%`;
    const digits = isLooseMobileNumber(term) ? mobileDigits(term) : '';
    conditions.push(
      or(
        ilike(notifications.message, pattern),
        ilike(sql`coalesce(${notifications.subject}, '')`, pattern),
        ilike(sql`coalesce(${notifications.title}, '')`, pattern),
        ilike(sql`coalesce(${notifications.recipient}, '')`, pattern),
        // The words as the reader sees them, in their language (decision 0069).
        ilike(sql`coalesce(${notifications.readerText}, '')`, pattern),
        digits ? sql`regexp_replace(coalesce(${notifications.recipient}, ${notifications.phoneNumber}, ''), '[^0-9]', '', 'g') like ${`%${digits}%`}` : undefined,
      )!,
    );
  }
  const where = and(...conditions);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(notifications).where(where);
  const direction = query.sortDirection ?? (query.orderByColumn ? 'asc' : 'desc');
  const column = SORT[query.orderByColumn ?? 'created'];
  const rows = await db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(direction === 'asc' ? asc(column) : desc(column), direction === 'asc' ? asc(notifications.id) : desc(notifications.id))
    .limit(query.maxResults)
    .offset((query.page - 1) * query.maxResults);
  const pages = Math.ceil(total / query.maxResults);
  return {
    page: query.page,
    pages,
    has_next: query.page < pages,
    has_prev: query.page > 1,
    items: rows.map(toItem),
  };
}

export async function findNotification(db: Executor, userId: string, channel: NotificationChannel, id: number): Promise<Row | null> {
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), eq(notifications.channel, channel)));
  return row ?? null;
}

export async function markRead(tx: Tx, userId: string, channel: NotificationChannel, id: number): Promise<Row | null> {
  const [row] = await tx
    .update(notifications)
    .set({ active: false })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), eq(notifications.channel, channel)))
    .returning();
  return row ?? null;
}

/**
 * Most push devices one user keeps: registering one more drops the least recently updated. Every
 * new browser, cleared storage or private window is a new device id, and the settings answer
 * carries at most PUSH_DEVICES_MAX of them.
 */
export const PUSH_DEVICES_PER_USER = 20;

/**
 * The revision of a user's settings (decision 0068): the sum of their rows' counters, 0 with none.
 * Every save adds at least one (the primary row is always written), and rows are never deleted
 * but with the user: a revision once read is never read again after a save.
 */
export async function settingsRevision(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ revision: sql<number>`coalesce(sum(${notificationSettings.revision}), 0)::int` })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));
  return Number(row?.revision ?? 0);
}

/**
 * Replaces the primary (and, when sent, the secondary) entry, each one revision further. Devices
 * are written only when `ownDevices` (a user's own call: the token is theirs); an admin never
 * touches tokens.
 */
export async function saveSettings(
  tx: Tx,
  userId: string,
  entries: NotificationSettingsEntry[],
  options: {
    ownDevices: boolean;
    actor: { id: string; email: string };
    /**
     * The device that saves (X-Device-Id): the browser in the caller's hand. Only it is added
     * when not stored, only its token and sign-in state come from the body, and only it is taken
     * from a previous user. Of the other devices listed, those stored take their switch (and,
     * from a client that does not name itself, a sign-out); none is added.
     */
    thisDevice?: string;
    /**
     * A form's save naming its revision (decision 0068): of the devices it writes only their
     * switches, this browser's too. Its device registers and signs out through its own calls
     * (registerDevice, signOutDevice), so a form opened before a renewed token or a sign-in does
     * not bring back the token or sign-in state it showed.
     */
    switchesOnly?: boolean;
  },
): Promise<void> {
  for (const entry of entries) {
    const values = {
      emailEnabled: entry.emailEnabled,
      email: entry.email?.trim() ? normalizeEmail(entry.email) : null,
      mobileEnabled: entry.mobileEnabled,
      mobileNumber: entry.mobileNumber?.trim() ? entry.mobileNumber.trim() : null,
      pushNotificationsEnabled: entry.pushNotificationsEnabled,
      preferences: entry.notificationsPreferences,
      updatedAt: sql`now()` as unknown as Date,
    };
    await tx
      .insert(notificationSettings)
      .values({ userId, primary: entry.primary, ...values, revision: 1 })
      .onConflictDoUpdate({
        target: [notificationSettings.userId, notificationSettings.primary],
        set: { ...values, revision: sql`${notificationSettings.revision} + 1` },
      });
  }
  if (options.ownDevices) {
    const devices = new Map<string, NotificationSettingsEntry['pushNotificationsSettings'][number]>();
    // The primary entry's view of a device wins over the secondary's.
    for (const entry of [...entries].sort((a, b) => Number(a.primary) - Number(b.primary))) {
      for (const device of entry.pushNotificationsSettings) devices.set(device.deviceId, device);
    }
    const switchesOnly = options.switchesOnly === true;
    for (const device of devices.values()) {
      if (!switchesOnly && device.deviceId === options.thisDevice) continue;
      // A body lists what its form was shown, maybe long ago: an id there is no proof of holding
      // that device, so it adds nothing and takes nothing from anyone. A client that does not
      // name itself may still sign its own devices out, never in (that is the device's own act).
      // Only a change is written: a form sending its list back does not make every device recent.
      const signOut = !switchesOnly && options.thisDevice === undefined && !device.isLoggedIn;
      await tx
        .update(notificationDevices)
        .set({ isEnabled: device.isEnabled, ...(signOut ? { isLoggedIn: false } : {}), updatedAt: sql`now()` as unknown as Date })
        .where(
          and(
            eq(notificationDevices.userId, userId),
            eq(notificationDevices.deviceId, device.deviceId),
            or(ne(notificationDevices.isEnabled, device.isEnabled), signOut ? eq(notificationDevices.isLoggedIn, true) : undefined),
          ),
        );
    }
    const own = switchesOnly || options.thisDevice === undefined ? undefined : devices.get(options.thisDevice);
    if (own) await saveThisDevice(tx, userId, own);
  }
  if (options.actor.id !== userId) {
    await tx.insert(auditLog).values({
      actorUserId: options.actor.id,
      actorEmail: options.actor.email,
      action: 'notificationSettings.update',
      targetType: 'user',
      targetId: userId,
      before: null,
      after: { entries: entries.map(({ pushNotificationsSettings: _devices, ...rest }) => rest) },
    });
  }
}

/**
 * This browser registering itself for push (PUT …/push_devices/{deviceId}), at every start with
 * push allowed and when its subscription is renewed: its own row only, signed in with its token,
 * its switch kept (on when new). Neither the recipients, the preferences nor another device's row
 * are written, nor the settings' revision moved: an open form's save is not refused for it.
 */
export async function registerDevice(tx: Tx, userId: string, device: { deviceId: string; deviceName: string; token: string }): Promise<void> {
  await saveThisDevice(tx, userId, { ...device, isLoggedIn: true });
}

/**
 * §2 sign-out of this browser (DELETE …/push_devices/{deviceId}/sign_in): its own row only, marked
 * signed out (the token stays, as the settings' save did; the browser drops its subscription).
 * False when the user has no such device (nothing to mark).
 */
export async function signOutDevice(tx: Tx, userId: string, deviceId: string): Promise<boolean> {
  const rows = await tx
    .update(notificationDevices)
    .set({ isLoggedIn: false, updatedAt: sql`now()` as unknown as Date })
    .where(and(eq(notificationDevices.userId, userId), eq(notificationDevices.deviceId, deviceId)))
    .returning({ deviceId: notificationDevices.deviceId });
  return rows.length > 0;
}

/**
 * The device that saves (X-Device-Id) or registers: written as told, added when new (then the
 * user's least recently updated devices beyond PUSH_DEVICES_PER_USER go), and, signed in, taken
 * from whoever used it before. Without `isEnabled` its switch stays (on when new).
 */
async function saveThisDevice(
  tx: Tx,
  userId: string,
  device: Omit<NotificationSettingsEntry['pushNotificationsSettings'][number], 'isEnabled'> & { isEnabled?: boolean },
): Promise<void> {
  const [stored] = await tx
    .select({ deviceId: notificationDevices.deviceId })
    .from(notificationDevices)
    .where(and(eq(notificationDevices.userId, userId), eq(notificationDevices.deviceId, device.deviceId)));
  const values = {
    // A nameless device stays nameless: the screen names it in the reader's language.
    deviceName: device.deviceName,
    token: device.token?.trim() ? device.token.trim() : null,
    ...(device.isEnabled === undefined ? {} : { isEnabled: device.isEnabled }),
    isLoggedIn: device.isLoggedIn,
    updatedAt: sql`now()` as unknown as Date,
  };
  await tx
    .insert(notificationDevices)
    .values({ userId, deviceId: device.deviceId, ...values })
    .onConflictDoUpdate({ target: [notificationDevices.userId, notificationDevices.deviceId], set: values });
  if (!stored) {
    // Rows written in this transaction share now(): the device that saves is kept first.
    const keep = tx
      .select({ deviceId: notificationDevices.deviceId })
      .from(notificationDevices)
      .where(eq(notificationDevices.userId, userId))
      .orderBy(desc(sql`${notificationDevices.deviceId} = ${device.deviceId}`), desc(notificationDevices.updatedAt), asc(notificationDevices.deviceId))
      .limit(PUSH_DEVICES_PER_USER);
    await tx.delete(notificationDevices).where(and(eq(notificationDevices.userId, userId), notInArray(notificationDevices.deviceId, keep)));
  }
  // One browser, one person signed in: whoever used this device (its id) or this push token
  // before is signed out of it and loses the token, so a shared phone or depot tablet never
  // shows the previous user's pushes — even when their own sign-out mark never reached us.
  if (device.isLoggedIn) {
    const sameDevice = values.token ? or(eq(notificationDevices.deviceId, device.deviceId), eq(notificationDevices.token, values.token)) : eq(notificationDevices.deviceId, device.deviceId);
    await tx
      .update(notificationDevices)
      // updated_at stays: a device given up by its user must not outrank their live ones when the
      // devices over the limit are trimmed (least recently updated first).
      .set({ isLoggedIn: false, token: null })
      .where(and(ne(notificationDevices.userId, userId), sameDevice));
  }
}
