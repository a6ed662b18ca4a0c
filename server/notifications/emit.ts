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
import { recordNotifications, type RecordResult } from './record';

export type NotificationKey =
  | 'delivery_notification'
  | 'inventory_count_notification'
  | 'contact_notification'
  | 'other_notification';

export interface NotificationEvent {
  key: NotificationKey;
  /** Recipients (users.id). Unknown ids are skipped and reported, not an error. */
  userIds: string[];
  /** E-mail subject and push title. Plain text: never markup. */
  subject: string;
  /** Message body. Plain text: web and e-mail addresses become links when shown, nothing else. */
  body: string;
  /** An in-app path ("/order-details/…") or an http(s) URL the push notification opens. */
  link?: string;
  /** The plant the event belongs to; recipients must see notifications in it (§6). */
  plantCode?: string | null;
}

export type EmitResult = RecordResult;

/** Records the notifications of `event` in `tx` (state 'queued'); they are sent after commit. */
export async function emitNotifications(tx: Tx | Db, event: NotificationEvent): Promise<EmitResult> {
  return recordNotifications(tx, event);
}
