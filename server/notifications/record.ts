/**
 * Turning one event into outbox rows (see emit.ts for the strategy). Pure decisions live in
 * `channelsFor`, so the rule "preferences decide the channels" is testable without a database.
 */
import type { Db, Tx } from '../db/client';
import { notifications } from '../db/schema';
import { mobileDigits, type NotificationChannel, type NotificationKey, type NotificationSettingsEntry } from '../../src/contract/notifications';
import type { NotificationText } from '../../src/domain/notification-texts';
import { resolveLocale } from '../../src/domain/constants';
import { existingUsers, notificationPlantsOf, seesPlant, settingsOf } from './settings';
import { notificationWords } from './texts';

type Executor = Db | Tx;

/** One event to notify (see emit.ts, the entry point producers call). */
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
  /** #19 item 22: subject and body as a key and parameters, for the PWA to render in the user's language. */
  text?: NotificationText;
}

export interface PlannedMessage {
  channel: NotificationChannel;
  /** E-mail address or phone number; for push, null (the dispatcher sends to the user's devices). */
  recipient: string | null;
}

/**
 * Why a recipient gets nothing. A user not (or no longer) approved, or whose access expired, is
 * told nothing (§1: they see no information), as the transfer deciders are chosen (producers.ts).
 */
export type SkipReason = 'unknown user' | 'not approved' | 'access expired' | 'not in a notification plant' | 'no channel enabled';

export interface RecordResult {
  recorded: Array<{ id: number; userId: string; channel: NotificationChannel; recipient: string | null }>;
  skipped: Array<{ userId: string; reason: SkipReason }>;
}

const MAX_SUBJECT = 300;
const MAX_BODY = 10_000;

/** The channels the primary and secondary entries ask for, for one key; duplicates collapse. */
export function channelsFor(entries: NotificationSettingsEntry[], key: NotificationKey): PlannedMessage[] {
  const planned: PlannedMessage[] = [];
  const seen = new Set<string>();
  const add = (message: PlannedMessage) => {
    // §5: numbers compare by their digits, so "+358 40 123" and "358-40-123" get one SMS.
    const recipient = message.recipient ?? '';
    const id = `${message.channel}:${message.channel === 'sms' ? mobileDigits(recipient) : recipient.toLowerCase().replace(/[^\da-z@.+_-]/g, '')}`;
    if (seen.has(id)) return;
    seen.add(id);
    planned.push(message);
  };
  for (const entry of [...entries].sort((a, b) => Number(b.primary) - Number(a.primary))) {
    const preference = entry.notificationsPreferences[key];
    const email = entry.email?.trim();
    if (entry.emailEnabled && preference.emailEnabled && email) add({ channel: 'email', recipient: email });
    const mobile = entry.mobileNumber?.trim();
    if (entry.mobileEnabled && preference.smsEnabled && mobile) add({ channel: 'sms', recipient: mobile });
    if (entry.pushNotificationsEnabled && preference.pushEnabled) add({ channel: 'push', recipient: null });
  }
  return planned;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The text as its reader sees it in the list (their language, decision 0069), for the list's
 * search: the English stays in subject / title / message. Null for English readers and for texts
 * without a key (the stored words are what everyone sees).
 */
export function readerTextOf(text: NotificationText | null | undefined, locale: string | null | undefined): string | null {
  if (!text || resolveLocale(locale) === 'en-US') return null;
  const { subject, body } = notificationWords(text, locale);
  return clip(`${subject}\n${body}`, MAX_SUBJECT + MAX_BODY + 1);
}

export async function recordNotifications(db: Executor, event: NotificationEvent): Promise<RecordResult> {
  const result: RecordResult = { recorded: [], skipped: [] };
  const uniqueIds = [...new Set(event.userIds)];
  const known = await existingUsers(db, uniqueIds);
  const scopes = await notificationPlantsOf(db, [...known.keys()]);
  const subject = clip(event.subject, MAX_SUBJECT);
  const body = clip(event.body, MAX_BODY);
  for (const userId of uniqueIds) {
    const user = known.get(userId);
    if (!user) {
      result.skipped.push({ userId, reason: 'unknown user' });
      continue;
    }
    if (!user.isApproved) {
      result.skipped.push({ userId, reason: 'not approved' });
      continue;
    }
    if (!user.isNotExpired) {
      result.skipped.push({ userId, reason: 'access expired' });
      continue;
    }
    if (!seesPlant(scopes.get(userId) ?? [], event.plantCode)) {
      result.skipped.push({ userId, reason: 'not in a notification plant' });
      continue;
    }
    const planned = channelsFor(await settingsOf(db, userId, user), event.key);
    if (planned.length === 0) {
      result.skipped.push({ userId, reason: 'no channel enabled' });
      continue;
    }
    const rows = await db
      .insert(notifications)
      .values(
        planned.map((message) => ({
          userId,
          channel: message.channel,
          notificationKey: event.key,
          userEmail: user.email,
          phoneNumber: message.channel === 'sms' ? message.recipient : null,
          recipient: message.recipient,
          plant: event.plantCode ?? null,
          subject: message.channel === 'email' ? subject : null,
          title: message.channel === 'push' ? subject : null,
          message: body,
          link: event.link ?? null,
          textKey: event.text?.key ?? null,
          textParams: event.text ? { ...event.text.params } : null,
          readerText: readerTextOf(event.text, user.locale),
          deliveryState: 'queued',
        })),
      )
      .returning({ id: notifications.id, channel: notifications.channel, recipient: notifications.recipient });
    for (const row of rows) {
      result.recorded.push({ id: row.id, userId, channel: row.channel as NotificationChannel, recipient: row.recipient });
    }
  }
  return result;
}
