/**
 * "Stock count due" (#6): from 07:00 on the day before a count's deadline in its plant's time zone
 * (or once it has passed) while it is still open, those counting it are reminded, once each: the
 * person counting it (conducted_by) and the counters of its parts still open (#18, a split count
 * may have no conducted_by at all). A reminder at UTC midnight reached a mechanic in Helsinki at
 * 02:00 and one in Lisbon at 00:00.
 *
 * Two marks, both in PostgreSQL. The count's (due_reminder_sent_at) says its counters were
 * reminded; it is set in the same transaction that records the reminders (through
 * emitNotifications, so the dispatcher sends them after commit), on rows claimed FOR UPDATE SKIP
 * LOCKED, so two replicas never take the same count. Each person's: the reminder itself (the
 * notification rows of this count and this deadline, found through notifications_count_link_idx).
 * The count's mark is cleared when the deadline moves, reminding everyone of the new one, and when
 * the count is handed to someone else (see the stock-count PUT): then only the new person counting
 * is reminded, nobody a second time of the same deadline. A part given after the count's reminder
 * is not reminded of it (its counter was told of the part and its deadline when given it): the
 * split does not clear the count's mark; were it to, the per-person marks keep everyone else's single.
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client';
import { notifications, stockCountParts, stockCounts, users } from '../db/schema';
import { plantTimeZoneSql } from '../repositories/stock-count-management';
import { EDITABLE_COUNT_STATUSES } from '../../src/domain/constants';
import { countLink, countNotificationKeySql, emitCountNotification } from './producers';
import type { NotificationText } from '../../src/domain/notification-texts';
import { startPeriodic, type Periodic } from '../periodic';

const BATCH = 200;

/** The plant's local hour of the day before the deadline at which the reminder goes. */
export const DUE_REMINDER_LOCAL_TIME = '07:00';

type DueCount = typeof stockCounts.$inferSelect;

/** Who counts each of `due`: the person counting it and the counters of its open parts, lower case, once each. */
async function countersOf(tx: Tx, due: DueCount[]): Promise<Map<number, string[]>> {
  const parts = await tx
    .select({ stockCountId: stockCountParts.stockCountId, counter: stockCountParts.counter })
    .from(stockCountParts)
    .where(and(inArray(stockCountParts.stockCountId, due.map((count) => count.id)), eq(stockCountParts.status, 'open')));
  return new Map(
    due.map((count) => {
      const emails = [count.conductedBy, ...parts.filter((part) => part.stockCountId === count.id).map((part) => part.counter)];
      return [count.id, [...new Set(emails.filter((email): email is string => Boolean(email)).map((email) => email.toLowerCase()))]];
    }),
  );
}

/** "userId link deadline" of everyone already reminded of one of `due`'s deadlines. */
async function alreadyReminded(tx: Tx, due: DueCount[]): Promise<Set<string>> {
  const rows = await tx
    .selectDistinct({ userId: notifications.userId, link: notifications.link, deadline: sql<string | null>`${notifications.textParams} ->> 'deadline'` })
    .from(notifications)
    .where(and(countNotificationKeySql, inArray(notifications.link, due.map((count) => countLink(count.id))), eq(notifications.textKey, 'stockCountDue')));
  return new Set(rows.map((row) => `${row.userId} ${row.link} ${row.deadline}`));
}

/** Reminds the counters of open counts due by tomorrow; answers how many counts were reminded. */
export async function sendDueReminders(db: Db, now = new Date()): Promise<number> {
  // The day before the deadline at 07:00 in the plant's zone, by PostgreSQL (days of 23 and 25
  // hours included); a plant without a zone keeps UTC.
  const remindFrom = sql`((${stockCounts.shouldBeDoneAt} - 1) + ${DUE_REMINDER_LOCAL_TIME}::time) at time zone ${plantTimeZoneSql(stockCounts.plant)}`;
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(stockCounts)
      .where(
        and(
          isNull(stockCounts.dueReminderSentAt),
          eq(stockCounts.isDraft, false),
          isNotNull(stockCounts.shouldBeDoneAt),
          sql`${now.toISOString()}::timestamptz >= ${remindFrom}`,
          inArray(stockCounts.status, [...EDITABLE_COUNT_STATUSES]),
        ),
      )
      .orderBy(stockCounts.id)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    const counters = await countersOf(tx, due);
    const emails = [...new Set([...counters.values()].flat())];
    const people = emails.length === 0 ? [] : await tx.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails));
    const reminded = await alreadyReminded(tx, due);
    for (const count of due) {
      const deadline = count.shouldBeDoneAt!;
      const text: NotificationText = {
        key: 'stockCountDue',
        params: { id: count.id, storageLocation: count.storageLocation, plant: count.plant, deadline },
      };
      for (const email of counters.get(count.id) ?? []) {
        const person = people.find((user) => user.email === email);
        if (!person || reminded.has(`${person.id} ${countLink(count.id)} ${deadline}`)) continue;
        await emitCountNotification(tx, person.id, count, text);
      }
    }
    await tx
      .update(stockCounts)
      .set({ dueReminderSentAt: now })
      .where(inArray(stockCounts.id, due.map((count) => count.id)));
    return due.length;
  });
}

/** Checks every `intervalMs` (and once at start); stop() waits for a running check. */
export function startDueReminders(db: Db, log: FastifyBaseLogger, intervalMs = 15 * 60 * 1000): Periodic {
  return startPeriodic(
    async () => {
      try {
        const reminded = await sendDueReminders(db);
        if (reminded > 0) log.info({ reminded }, 'stock count due reminders recorded');
      } catch (error) {
        log.error({ err: error }, 'stock count due reminders failed');
      }
    },
    intervalMs,
    { runAtStart: true },
  );
}
