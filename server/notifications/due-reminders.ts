/**
 * "Stock count due" (#6): from 07:00 on the day before a count's deadline in its plant's time zone
 * (or once it has passed) while it is still open, the person counting is reminded, once: a
 * reminder at UTC midnight reached a mechanic in Helsinki at 02:00 and one in Lisbon at 00:00. The reminder is recorded in the same
 * transaction that marks the count (due_reminder_sent_at), through emitNotifications, so the
 * dispatcher sends it after commit; rows are claimed with SKIP LOCKED, so two replicas never remind
 * twice. Moving the deadline clears the mark (see the stock-count PUT), so a new deadline reminds again.
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { stockCounts, users } from '../db/schema';
import { plantTimeZoneSql } from '../repositories/stock-count-management';
import { EDITABLE_COUNT_STATUSES } from '../../src/domain/constants';
import { emitCountNotification } from './producers';
import type { NotificationText } from '../../src/domain/notification-texts';
import { startPeriodic, type Periodic } from '../periodic';

const BATCH = 200;

/** The plant's local hour of the day before the deadline at which the reminder goes. */
export const DUE_REMINDER_LOCAL_TIME = '07:00';

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
          isNotNull(stockCounts.conductedBy),
          isNotNull(stockCounts.shouldBeDoneAt),
          sql`${now.toISOString()}::timestamptz >= ${remindFrom}`,
          inArray(stockCounts.status, [...EDITABLE_COUNT_STATUSES]),
        ),
      )
      .orderBy(stockCounts.id)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    const counters = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.email, [...new Set(due.map((count) => count.conductedBy!))]));
    for (const count of due) {
      const counter = counters.find((user) => user.email === count.conductedBy);
      if (!counter) continue;
      const text: NotificationText = {
        key: 'stockCountDue',
        params: { id: count.id, storageLocation: count.storageLocation, plant: count.plant, deadline: count.shouldBeDoneAt! },
      };
      await emitCountNotification(tx, counter.id, count, text);
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
