/**
 * Sends what emitNotifications recorded (the outbox). Started by server/start.ts.
 *
 * Claiming is a short transaction: rows that are 'queued' and due (or 'sending' whose lease ran
 * out after a crash) are locked FOR UPDATE SKIP LOCKED, marked 'sending' with a lease, and
 * committed; the sending happens outside any transaction (PGlite has one connection, and no
 * replica should hold row locks during network calls). Then each row is set to 'sent', to
 * 'queued' again with a later attempt time, to 'failed' after MAX_ATTEMPTS, to 'recorded' when
 * its channel has no transport (logged), or to 'skipped' when there is nothing to send to.
 * Delivery is at-least-once: a crash between sending and marking may send a message twice.
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { notificationDevices, notifications, users } from '../db/schema';
import { wordsToSend } from './texts';
import type { Transports } from './transports';

export const MAX_ATTEMPTS = 5;
const LEASE_MS = 5 * 60_000;
const BATCH = 25;

/** 30 s, 2 min, 8 min, 32 min between attempts. */
export function retryDelayAfter(attempts: number): number {
  return 30_000 * 4 ** Math.max(0, attempts - 1);
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface DispatcherOptions {
  db: Db;
  transports: Transports;
  log: Logger;
  appUrl: string | null;
  intervalMs: number;
}

export interface Dispatcher {
  /** Sends everything due now; resolves with the number of rows handled. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

type Row = typeof notifications.$inferSelect;

export function absoluteLink(link: string | null, appUrl: string | null): string | null {
  if (!link) return null;
  if (/^https?:\/\//i.test(link)) return link;
  if (link.startsWith('/') && !link.startsWith('//') && appUrl) return `${appUrl}${link}`;
  return null;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { db, transports, log } = options;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;

  const isDue = () =>
    and(
      inArray(notifications.deliveryState, ['queued', 'sending']),
      or(isNull(notifications.nextAttemptAt), lte(notifications.nextAttemptAt, sql`now()`)),
    );

  async function claim(): Promise<Row[]> {
    // Most ticks find nothing due: one indexed look first, the locking transaction only when needed.
    const [anyDue] = await db.select({ id: notifications.id }).from(notifications).where(isDue()).limit(1);
    if (!anyDue) return [];
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: notifications.id })
        .from(notifications)
        .where(isDue())
        .orderBy(asc(notifications.id))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(notifications)
        .set({
          deliveryState: 'sending',
          attempts: sql`${notifications.attempts} + 1`,
          nextAttemptAt: sql`now() + ${`${LEASE_MS} milliseconds`}::interval`,
        })
        .where(inArray(notifications.id, due.map((row) => row.id)))
        .returning();
    });
  }

  async function finish(id: number, set: Partial<typeof notifications.$inferInsert>): Promise<void> {
    await db.update(notifications).set(set).where(and(eq(notifications.id, id), eq(notifications.deliveryState, 'sending')));
  }

  async function pushTokens(userId: string): Promise<string[]> {
    const devices = await db
      .select({ token: notificationDevices.token })
      .from(notificationDevices)
      .where(and(eq(notificationDevices.userId, userId), eq(notificationDevices.isEnabled, true), eq(notificationDevices.isLoggedIn, true)));
    return [...new Set(devices.map((d) => d.token).filter((t): t is string => Boolean(t && t.trim())))];
  }

  /** The languages of a batch's recipients (their profiles'), for the words sent (#19 item 22): one read per batch. */
  async function localesOf(rows: readonly Row[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.filter((row) => row.textKey).map((row) => row.userId))];
    if (ids.length === 0) return new Map();
    const found = await db.select({ id: users.id, locale: users.locale }).from(users).where(inArray(users.id, ids));
    return new Map(found.map((user) => [user.id, user.locale]));
  }

  async function deliver(row: Row, locale: string | null): Promise<void> {
    const link = absoluteLink(row.link, options.appUrl);
    const words = wordsToSend(row, locale);
    const context = { notificationId: row.id, channel: row.channel, key: row.notificationKey, userId: row.userId };
    if (row.channel === 'push') {
      const tokens = await pushTokens(row.userId);
      if (tokens.length === 0) {
        await finish(row.id, { deliveryState: 'skipped', deliveryError: 'No registered, signed-in device', nextAttemptAt: null });
        return;
      }
      if (!transports.push) {
        log.info({ ...context, devices: tokens.length, title: row.title }, 'push not configured (FCM_SERVICE_ACCOUNT): message recorded, not sent');
        await finish(row.id, { deliveryState: 'recorded', deliveryError: 'Push transport not configured', nextAttemptAt: null });
        return;
      }
      const result = await transports.push({
        id: row.id,
        tokens,
        title: words.headline ?? '',
        body: words.body,
        // The service worker opens in-app paths itself; absolute links are kept as they are.
        link: row.link,
        key: row.notificationKey,
      });
      if (result.invalidTokens.length > 0) {
        await db
          .update(notificationDevices)
          .set({ isEnabled: false, token: null, updatedAt: sql`now()` })
          .where(and(eq(notificationDevices.userId, row.userId), inArray(notificationDevices.token, result.invalidTokens)));
      }
      await finish(row.id, { deliveryState: 'sent', deliveryError: null, sentAt: sql`now()` as never, nextAttemptAt: null });
      return;
    }
    const transport = row.channel === 'email' ? transports.email : transports.sms;
    if (!row.recipient) {
      await finish(row.id, { deliveryState: 'skipped', deliveryError: 'No recipient address', nextAttemptAt: null });
      return;
    }
    if (!transport) {
      const variable = row.channel === 'email' ? 'SMTP_URL' : 'SMS_PROVIDER_URL';
      log.info({ ...context, recipient: row.recipient, subject: row.subject }, `${row.channel} not configured (${variable}): message recorded, not sent`);
      await finish(row.id, { deliveryState: 'recorded', deliveryError: `${row.channel === 'email' ? 'E-mail' : 'SMS'} transport not configured`, nextAttemptAt: null });
      return;
    }
    await transport({ id: row.id, recipient: row.recipient, subject: words.headline ?? '', body: words.body, link });
    await finish(row.id, { deliveryState: 'sent', deliveryError: null, sentAt: sql`now()` as never, nextAttemptAt: null });
  }

  async function handle(row: Row, locale: string | null): Promise<void> {
    try {
      await deliver(row, locale);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const final = row.attempts >= MAX_ATTEMPTS;
      log.warn({ notificationId: row.id, channel: row.channel, attempts: row.attempts, err: message }, final ? 'notification failed for good' : 'notification attempt failed');
      await finish(row.id, {
        deliveryState: final ? 'failed' : 'queued',
        deliveryError: message,
        nextAttemptAt: final ? null : (sql`now() + ${`${retryDelayAfter(row.attempts)} milliseconds`}::interval` as never),
      });
    }
  }

  async function drain(): Promise<number> {
    let handled = 0;
    for (let round = 0; round < 20; round += 1) {
      const rows = await claim();
      if (rows.length === 0) break;
      const locales = await localesOf(rows);
      for (const row of rows) await handle(row, locales.get(row.userId) ?? null);
      handled += rows.length;
    }
    return handled;
  }

  const runOnce = async (): Promise<number> => {
    if (running) await running.catch(() => 0);
    running = drain();
    try {
      return await running;
    } finally {
      running = null;
    }
  };

  return {
    runOnce,
    start() {
      if (options.intervalMs <= 0 || timer) return;
      const tick = () => {
        if (stopped) return;
        runOnce()
          .catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'notification dispatch failed'))
          .finally(() => {
            if (!stopped) {
              timer = setTimeout(tick, options.intervalMs);
              timer.unref();
            }
          });
      };
      timer = setTimeout(tick, options.intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (running) await running.catch(() => 0);
    },
  };
}
