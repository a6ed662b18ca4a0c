/**
 * Sends what emitNotifications recorded (the outbox). Started by server/start.ts.
 *
 * Claiming is a short transaction: ONE row that is 'queued' and due (or 'sending' whose lease ran
 * out after a crash) is locked FOR UPDATE SKIP LOCKED, marked 'sending' with a lease, its attempts
 * counted, and committed; the sending happens outside any transaction (PGlite has one connection,
 * and no replica should hold row locks during network calls). One row per claim, so a lease covers
 * one send (each transport bounds its own) and never rows still waiting behind slow ones, which
 * another replica would take and send again. Then the row is set to 'sent', to 'queued' again with
 * a later attempt time, to 'failed' after MAX_ATTEMPTS, to 'recorded' when its channel has no
 * transport (logged), or to 'skipped' when there is nothing to send to — only if it is still this
 * claim's (same attempts): a finisher whose lease ran out changes nothing. A row withdrawn while
 * being sent (producers.ts: its count cancelled, its request decided) keeps the withdrawal: a
 * failed send is not queued again; only a send that went is recorded as sent, since it was.
 * Delivery is at-least-once: a crash between sending and marking may send a message twice.
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { notificationDevices, notifications, users } from '../db/schema';
import { wordsToSend } from './texts';
import type { Transports } from './transports';

export const MAX_ATTEMPTS = 5;
const LEASE_MS = 5 * 60_000;
/** Rows one runOnce sends at most, so a tick ends and stop() is not kept waiting by a long backlog. */
const PER_RUN = 500;

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
type RowChange = Partial<typeof notifications.$inferInsert>;

/** What one claim ends with: the row's change, and push tokens FCM rejected on the way. */
interface Outcome {
  set: RowChange;
  invalidTokens?: string[];
}

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

  async function claim(): Promise<Row | null> {
    // Most ticks find nothing due: one indexed look first, the locking transaction only when needed.
    const [anyDue] = await db.select({ id: notifications.id }).from(notifications).where(isDue()).limit(1);
    if (!anyDue) return null;
    return db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: notifications.id })
        .from(notifications)
        .where(isDue())
        .orderBy(asc(notifications.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      // attempts + 1 is also the claim's mark: finish() matches on it.
      const [claimed] = await tx
        .update(notifications)
        .set({
          deliveryState: 'sending',
          attempts: sql`${notifications.attempts} + 1`,
          nextAttemptAt: sql`now() + ${`${LEASE_MS} milliseconds`}::interval`,
        })
        .where(eq(notifications.id, due.id))
        .returning();
      return claimed ?? null;
    });
  }

  /**
   * Records how a claim ended, in one transaction with dropping the push tokens FCM rejected. The
   * row changes only while it is still this claim's ('sending', same attempts): once its lease ran
   * out another replica may have claimed it again, and that claim's outcome is the one that counts.
   * Withdrawn meanwhile ('skipped', same attempts), it stays withdrawn, unless the message went:
   * then it was sent, and says so. The tokens are dropped either way: FCM said they are dead, whoever asked.
   */
  async function finish(row: Row, outcome: Outcome): Promise<void> {
    const ending = await db.transaction(async (tx): Promise<'recorded' | 'withdrawn' | 'stale'> => {
      if (outcome.invalidTokens && outcome.invalidTokens.length > 0) {
        // Only the token: whether the device gets pushes stays the user's switch (isEnabled), and
        // the token its browser registers after the next sign-in makes it reachable again. updated_at
        // stays, so a dead device does not outrank live ones when devices over the limit are trimmed.
        await tx
          .update(notificationDevices)
          .set({ token: null })
          .where(and(eq(notificationDevices.userId, row.userId), inArray(notificationDevices.token, outcome.invalidTokens)));
      }
      const ofThisClaim = and(eq(notifications.id, row.id), eq(notifications.attempts, row.attempts));
      const [updated] = await tx
        .update(notifications)
        .set(outcome.set)
        .where(and(ofThisClaim, eq(notifications.deliveryState, 'sending')))
        .returning({ id: notifications.id });
      if (updated) return 'recorded';
      const withdrawnMeanwhile = and(ofThisClaim, eq(notifications.deliveryState, 'skipped'));
      const [withdrawn] =
        outcome.set.deliveryState === 'sent'
          ? await tx.update(notifications).set({ deliveryState: 'sent', sentAt: sql`now()` as never }).where(withdrawnMeanwhile).returning({ id: notifications.id })
          : await tx.select({ id: notifications.id }).from(notifications).where(withdrawnMeanwhile);
      return withdrawn ? 'withdrawn' : 'stale';
    });
    const context = { notificationId: row.id, channel: row.channel, attempts: row.attempts, state: outcome.set.deliveryState };
    if (ending === 'withdrawn') {
      log.info(context, outcome.set.deliveryState === 'sent' ? 'notification withdrawn while it was being sent: it had gone, recorded as sent' : 'notification withdrawn while it was being sent: the withdrawal stands');
    } else if (ending === 'stale') {
      log.warn(context, 'notification outcome not recorded: its lease ran out and it was claimed again');
    }
  }

  async function pushTokens(userId: string): Promise<string[]> {
    const devices = await db
      .select({ token: notificationDevices.token })
      .from(notificationDevices)
      .where(and(eq(notificationDevices.userId, userId), eq(notificationDevices.isEnabled, true), eq(notificationDevices.isLoggedIn, true)));
    return [...new Set(devices.map((d) => d.token).filter((t): t is string => Boolean(t && t.trim())))];
  }

  /** The recipient's language (their profile's), for the words sent (#19 item 22); only a text with a key needs it. */
  async function localeOf(row: Row): Promise<string | null> {
    if (!row.textKey) return null;
    const [found] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, row.userId));
    return found?.locale ?? null;
  }

  /** A failed attempt: queued again later, or failed for good after the last one. */
  function failure(row: Row, message: string): RowChange {
    const final = row.attempts >= MAX_ATTEMPTS;
    log.warn({ notificationId: row.id, channel: row.channel, attempts: row.attempts, err: message }, final ? 'notification failed for good' : 'notification attempt failed');
    return {
      deliveryState: final ? 'failed' : 'queued',
      deliveryError: message.slice(0, 500),
      nextAttemptAt: final ? null : (sql`now() + ${`${retryDelayAfter(row.attempts)} milliseconds`}::interval` as never),
    };
  }

  const sent = (): Outcome => ({ set: { deliveryState: 'sent', deliveryError: null, sentAt: sql`now()` as never, nextAttemptAt: null } });

  async function deliver(row: Row): Promise<Outcome> {
    const link = absoluteLink(row.link, options.appUrl);
    const words = wordsToSend(row, await localeOf(row));
    const context = { notificationId: row.id, channel: row.channel, key: row.notificationKey, userId: row.userId };
    if (row.channel === 'push') {
      const tokens = await pushTokens(row.userId);
      if (tokens.length === 0) {
        return { set: { deliveryState: 'skipped', deliveryError: 'No registered, signed-in device', nextAttemptAt: null } };
      }
      if (!transports.push) {
        log.info({ ...context, devices: tokens.length, title: row.title }, 'push not configured (FCM_SERVICE_ACCOUNT): message recorded, not sent');
        return { set: { deliveryState: 'recorded', deliveryError: 'Push transport not configured', nextAttemptAt: null } };
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
      const { invalidTokens } = result;
      // Delivered to some: sent. Devices that failed for another reason meanwhile are not retried,
      // since a retry would send the message again to those that got it.
      if (result.delivered > 0) return { ...sent(), invalidTokens };
      if (invalidTokens.length >= tokens.length) {
        return { set: { deliveryState: 'skipped', deliveryError: 'FCM rejected the push token of every device', nextAttemptAt: null }, invalidTokens };
      }
      // Nothing delivered, some devices failing for now: retried, to the devices still valid.
      return { set: failure(row, result.error ?? 'FCM delivered to no device'), invalidTokens };
    }
    const transport = row.channel === 'email' ? transports.email : transports.sms;
    if (!row.recipient) {
      return { set: { deliveryState: 'skipped', deliveryError: 'No recipient address', nextAttemptAt: null } };
    }
    if (!transport) {
      const variable = row.channel === 'email' ? 'SMTP_URL' : 'SMS_PROVIDER_URL';
      log.info({ ...context, recipient: row.recipient, subject: row.subject }, `${row.channel} not configured (${variable}): message recorded, not sent`);
      return { set: { deliveryState: 'recorded', deliveryError: `${row.channel === 'email' ? 'E-mail' : 'SMS'} transport not configured`, nextAttemptAt: null } };
    }
    await transport({ id: row.id, recipient: row.recipient, subject: words.headline ?? '', body: words.body, link });
    return sent();
  }

  async function handle(row: Row): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await deliver(row);
    } catch (error) {
      outcome = { set: failure(row, error instanceof Error ? error.message : String(error)) };
    }
    await finish(row, outcome);
  }

  async function drain(): Promise<number> {
    let handled = 0;
    while (handled < PER_RUN) {
      const row = await claim();
      if (!row) break;
      await handle(row);
      handled += 1;
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
