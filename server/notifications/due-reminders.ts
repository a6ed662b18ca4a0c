/**
 * "Stock count due" (#6): once a count's deadline is at most a day away (or passed) and it is
 * still open, the person counting is reminded, once. The reminder is recorded in the same
 * transaction that marks the count (due_reminder_sent_at), through emitNotifications, so the
 * dispatcher sends it after commit; rows are claimed with SKIP LOCKED, so two replicas never remind
 * twice. Moving the deadline clears the mark (see the stock-count PUT), so a new deadline reminds again.
 */
import { and, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { stockCounts, users } from '../db/schema';
import { EDITABLE_COUNT_STATUSES } from '../../src/domain/constants';
import { emitCountNotification } from './producers';
import type { NotificationText } from '../../src/domain/notification-texts';
import { startPeriodic, type Periodic } from '../periodic';

const BATCH = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Reminds the counters of open counts due by tomorrow; answers how many counts were reminded. */
export async function sendDueReminders(db: Db, now = new Date()): Promise<number> {
  const dueBy = new Date(now.getTime() + DAY_MS).toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(stockCounts)
      .where(
        and(
          isNull(stockCounts.dueReminderSentAt),
          eq(stockCounts.isDraft, false),
          isNotNull(stockCounts.conductedBy),
          lte(stockCounts.shouldBeDoneAt, dueBy),
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
