/**
 * THE entry point for producing notifications (#6). Call it inside your own transaction:
 *
 *   await db.transaction(async (tx) => {
 *     ... your write ...
 *     await emitNotifications(tx, { key: 'delivery_notification', userIds: [id], subject, body, plantCode });
 *   });
 *
 * Strategy (transactional outbox): this function only RECORDS, in the caller's transaction, one
 * `notifications` row per channel the recipient's preferences ask for, in delivery state
 * 'queued'. Nothing leaves the machine here. The dispatcher (server/notifications/dispatcher.ts,
 * started by server/start.ts) claims committed 'queued' rows with FOR UPDATE SKIP LOCKED and
 * sends them. So a rolled-back transaction sends nothing, a crash between commit and send loses
 * nothing (the row stays queued), and two replicas never send the same row twice.
 *
 * Who receives what: the recipient must see notifications at all (§6: super managers in all
 * plants, others only in notifications_allowed_plants that are among their own plants; with a
 * plantCode, that plant must be one of them); then, for the primary and the secondary settings
 * entry, a channel is used when the entry enables it (emailEnabled + email, mobileEnabled +
 * mobileNumber, pushNotificationsEnabled) AND the entry's preference for this key enables it.
 */
import type { Db, Tx } from '../db/client';
import { recordNotifications, type NotificationEvent, type RecordResult } from './record';

export type { NotificationEvent };
export type EmitResult = RecordResult;

/** Records the notifications of `event` in `tx` (state 'queued'); they are sent after commit. */
export async function emitNotifications(tx: Tx | Db, event: NotificationEvent): Promise<EmitResult> {
  return recordNotifications(tx, event);
}
