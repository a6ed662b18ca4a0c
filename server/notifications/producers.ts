/**
 * Events this feature produces itself. Other producers (ERP delivery status changes, stock-count
 * assignment edits) call emitNotifications directly; these helpers keep the wording in one place.
 */
import { and, asc, eq, exists, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { notifications, userAttachments, userGrants, users } from '../db/schema';
import { notExpiredSql } from '../repositories/users';
import { emitNotifications, type EmitResult } from './emit';
import { englishNotificationText } from './texts';
import type { NotificationText } from '../../src/domain/notification-texts';
import { CAPABILITY_GRANTS } from '../../src/domain/permissions';

interface AssignedCount {
  id: number;
  plant: string;
  storageLocation: string;
  conductedBy: string | null;
  shouldBeDoneAt: string | null;
  isDraft: boolean;
  createdBy: string;
}

/** A sent (not draft) stock count with a person counting tells that person (key inventory_count_notification). */
export async function notifyStockCountAssigned(tx: Tx, count: AssignedCount): Promise<EmitResult | null> {
  if (count.isDraft || !count.conductedBy) return null;
  const text: NotificationText = {
    key: 'stockCountAssigned',
    params: { id: count.id, by: count.createdBy, storageLocation: count.storageLocation, plant: count.plant, deadline: count.shouldBeDoneAt },
  };
  return notifyCounter(tx, count.conductedBy, count, text);
}

/** A stock-count notification to one person (key inventory_count_notification, opening the count's mechanic view). */
export function emitCountNotification(tx: Tx, userId: string, count: { id: number; plant: string }, text: NotificationText): Promise<EmitResult> {
  return emitNotifications(tx, {
    key: 'inventory_count_notification',
    userIds: [userId],
    ...englishNotificationText(text),
    text,
    link: countLink(count.id),
    plantCode: count.plant,
  });
}

/** The same, to the account of an e-mail address; none when nobody has that address. */
async function notifyCounter(tx: Tx, email: string, count: { id: number; plant: string }, text: NotificationText): Promise<EmitResult | null> {
  const [counter] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  return counter ? emitCountNotification(tx, counter.id, count, text) : null;
}

/**
 * #18: each counter of a split count is told about their part (key inventory_count_notification,
 * the same link as a whole count: the mechanic view opens on their part).
 */
export async function notifyStockCountPartAssigned(tx: Tx, count: AssignedCount, part: { counter: string; lines: number }): Promise<EmitResult | null> {
  if (count.isDraft) return null;
  const text: NotificationText = {
    key: 'stockCountPartAssigned',
    params: { id: count.id, by: count.createdBy, storageLocation: count.storageLocation, plant: count.plant, deadline: count.shouldBeDoneAt, lines: part.lines },
  };
  return notifyCounter(tx, part.counter, count, text);
}

/**
 * #18: the counters of a line sent to recount are told which material to count again (their part
 * has reopened); the planner who sent it is not told of their own decision.
 */
export async function notifyStockCountRecountLine(
  tx: Tx,
  count: { id: number; plant: string; storageLocation: string },
  by: string,
  material: string,
  counters: string[],
): Promise<void> {
  const text: NotificationText = { key: 'stockCountRecountLine', params: { id: count.id, by, storageLocation: count.storageLocation, plant: count.plant, material } };
  for (const counter of new Set(counters.map((email) => email.toLowerCase()))) {
    if (counter !== by.toLowerCase()) await notifyCounter(tx, counter, count, text);
  }
}

/**
 * The notifications of one stock count: those of key inventory_count_notification that open its
 * mechanic view. The key is written out, not a parameter, so the planner always matches the
 * partial index notifications_count_link_idx (migration 0036): these are read in the row-locked
 * transactions that cancel, hand over or split a count, and by the "due" reminder (due-reminders.ts).
 */
export const countNotificationKeySql = sql`${notifications.notificationKey} = 'inventory_count_notification'`;

/** The link every notification of a stock count opens (its mechanic view). */
export const countLink = (countId: number) => `/mechanic-view/${countId}`;

/**
 * Not yet sent: still waiting ('queued'), or being sent right now ('sending'). Withdrawing takes
 * both: a send in flight whose provider fails would otherwise be queued again and sent later. The
 * dispatcher records nothing over a withdrawal but a send that had already gone (dispatcher.ts, finish).
 */
const NOT_YET_SENT = ['queued', 'sending'];

/**
 * #19 item 21: a cancelled count's notifications ("assigned to you", "is due") are resolved in the
 * cancelling transaction: marked read (§4 active = false) so they leave the unread list, and any
 * not yet sent are withdrawn (delivery state 'skipped') so nobody is asked to count a cancelled
 * count. With `exceptEmail`, the person who counts now keeps theirs (a count handed to someone else
 * resolves only the previous counter's).
 */
export async function resolveStockCountNotifications(
  tx: Tx,
  countId: number,
  reason: string,
  exceptEmail?: string | null | readonly string[],
  onlyEmails?: readonly string[],
): Promise<number> {
  const except = (typeof exceptEmail === 'string' ? [exceptEmail] : (exceptEmail ?? [])).map((email) => email.toLowerCase());
  const ofCount = and(
    countNotificationKeySql,
    eq(notifications.link, countLink(countId)),
    except.length > 0 ? notInArray(notifications.userEmail, except) : undefined,
    onlyEmails ? inArray(notifications.userEmail, onlyEmails.map((email) => email.toLowerCase())) : undefined,
  );
  await tx
    .update(notifications)
    .set({ deliveryState: 'skipped', deliveryError: reason, nextAttemptAt: null })
    .where(and(ofCount, inArray(notifications.deliveryState, NOT_YET_SENT)));
  const read = await tx
    .update(notifications)
    .set({ active: false })
    .where(and(ofCount, eq(notifications.active, true)))
    .returning({ id: notifications.id });
  return read.length;
}

/** What the list of transfer requests opens at (decision 0061): the stock screen with its dialog open. */
export const TRANSFER_REQUESTS_LINK = '/stock-management?transfers=1';

interface RequestedTransfer {
  id: string;
  userId: string;
  plant: string;
  storageLocationFrom: string;
  storageLocationTo: string;
  materialCode: string;
  quantity: string;
}

/**
 * Decision 0061's "Not done", done: a new transfer request tells those who may decide it, so it
 * no longer waits for someone to open the list (key other_notification, the requester's key for
 * the decision too; their settings pick the channels). Who decides is the decision route's rule:
 * `storageLocations.update` (stock admin, super manager), approved, not expired, holding the
 * plant. The writing super manager decides in every plant, yet only those who hold the plant are
 * told (a super manager who holds it included): every request of every plant would bury the super
 * managers, and their list shows them all. The requester is not told of their own request.
 */
export async function notifyTransferRequested(tx: Tx, request: RequestedTransfer, requester: { email: string; displayName: string }): Promise<EmitResult | null> {
  const deciders = await tx
    .selectDistinct({ id: users.id })
    .from(users)
    .innerJoin(userAttachments, and(eq(userAttachments.userId, users.id), eq(userAttachments.kind, 'plant'), eq(userAttachments.code, request.plant)))
    .where(
      and(
        ne(users.id, request.userId),
        eq(users.approvalStatus, 'Approved'),
        // Expired by the day of their plants, as the sign-in check judges it.
        notExpiredSql(),
        exists(
          tx
            .select({ one: sql`1` })
            .from(userGrants)
            .where(and(eq(userGrants.userId, users.id), inArray(userGrants.grantId, [...CAPABILITY_GRANTS['storageLocations.update']]))),
        ),
      ),
    )
    .orderBy(asc(users.id));
  if (deciders.length === 0) return null;
  const text: NotificationText = {
    key: 'stockTransferRequested',
    params: {
      id: request.id,
      name: requester.displayName,
      by: requester.email,
      material: request.materialCode,
      quantity: Number(request.quantity),
      from: request.storageLocationFrom,
      to: request.storageLocationTo,
      plant: request.plant,
    },
  };
  return emitNotifications(tx, {
    key: 'other_notification',
    userIds: deciders.map((decider) => decider.id),
    ...englishNotificationText(text),
    text,
    link: TRANSFER_REQUESTS_LINK,
    plantCode: request.plant,
  });
}

/**
 * A decided request's "waiting for you" notifications are resolved in the deciding transaction,
 * every decider's, as a cancelled count's (resolveStockCountNotifications): marked read, and those
 * not yet sent withdrawn, so nobody is asked to decide what is decided. Found by the request's id
 * in the text: the link is the list's, shared with the requester's notice of the decision.
 */
export async function resolveTransferRequestNotifications(tx: Tx, requestId: string, reason: string): Promise<number> {
  // As the partial index notifications_transfer_request_idx (migration 0036) says it, key and
  // text key written out: the plan reads that index, never every notification, under the row lock.
  const ofRequest = and(
    sql`${notifications.notificationKey} = 'other_notification'`,
    sql`${notifications.textKey} = 'stockTransferRequested'`,
    sql`${notifications.textParams} ->> 'id' = ${requestId}`,
  );
  await tx
    .update(notifications)
    .set({ deliveryState: 'skipped', deliveryError: reason, nextAttemptAt: null })
    .where(and(ofRequest, inArray(notifications.deliveryState, NOT_YET_SENT)));
  const read = await tx
    .update(notifications)
    .set({ active: false })
    .where(and(ofRequest, eq(notifications.active, true)))
    .returning({ id: notifications.id });
  return read.length;
}
