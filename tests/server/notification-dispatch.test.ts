/**
 * The dispatcher's bookkeeping (#6 review): what a push token FCM rejects changes (the token, not
 * the user's switch), what a push that reached no device is recorded as, and exactly-once between
 * two dispatchers on one database (replicas) when one of them is slow. Transports are fakes (and
 * FCM's answers firebase-admin's shape through fcmSender): nothing leaves the machine.
 *
 * The lease is in the database's clock, so "four minutes pass" is written as every lease and
 * retry time of the test's rows moving four minutes earlier.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { BatchResponse, MulticastMessage } from 'firebase-admin/messaging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationDevices, notifications, users } from '../../server/db/schema';
import { createDispatcher, type Dispatcher } from '../../server/notifications/dispatcher';
import { resolveStockCountNotifications, resolveTransferRequestNotifications } from '../../server/notifications/producers';
import { fcmSender, type OutgoingMessage, type Transports } from '../../server/notifications/transports';
import { createTestProduct, ENGINES, type TestProduct } from './harness';

const silent = { info: () => undefined, warn: () => undefined };

const transportsWith = (parts: Partial<Transports>): Transports => ({ email: null, sms: null, push: null, close: async () => undefined, ...parts });

/** firebase-admin's messaging, answering each token as `answer` says (undefined: delivered). */
function fakeMessaging(answer: (token: string) => { code: string; message: string } | undefined) {
  const calls: string[][] = [];
  return {
    calls,
    messaging: {
      async sendEachForMulticast(message: MulticastMessage): Promise<BatchResponse> {
        calls.push([...message.tokens]);
        const responses = message.tokens.map((token) => {
          const error = answer(token);
          return error ? { success: false, error } : { success: true, messageId: `projects/p/messages/${token}` };
        });
        const successCount = responses.filter((r) => r.success).length;
        return { responses, successCount, failureCount: responses.length - successCount } as unknown as BatchResponse;
      },
    },
  };
}

const NOT_REGISTERED = { code: 'messaging/registration-token-not-registered', message: 'Requested entity was not found.' };

describe.each(ENGINES)('notification dispatch on %s', (engine) => {
  let product: TestProduct;
  let userId: string;
  const db = () => product.database.db;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, 'lukas.mueller@lift.example'));
    userId = user!.id;
    // The seed's outbox is not this file's: nothing else is due while these tests run.
    await db().update(notifications).set({ deliveryState: 'sent' }).where(inArray(notifications.deliveryState, ['queued', 'sending']));
  });
  afterAll(async () => product?.close());

  const queue = async (channel: 'push' | 'sms', count = 1): Promise<number[]> => {
    const rows = await db()
      .insert(notifications)
      .values(
        Array.from({ length: count }, (_, index) => ({
          userId,
          channel,
          notificationKey: 'other_notification',
          userEmail: 'lukas.mueller@lift.example',
          title: `Test ${index}`,
          message: `Message ${index}`,
          recipient: channel === 'sms' ? `+4915100000${index}` : null,
          deliveryState: 'queued',
        })),
      )
      .returning({ id: notifications.id });
    return rows.map((row) => row.id);
  };
  const rowOf = async (id: number) => (await db().select().from(notifications).where(eq(notifications.id, id)))[0]!;
  const deviceOf = async (deviceId: string) =>
    (await db().select().from(notificationDevices).where(eq(notificationDevices.deviceId, deviceId)))[0]!;
  const addDevice = (deviceId: string, token: string) =>
    db().insert(notificationDevices).values({ userId, deviceId, token, deviceName: 'Android / Chrome', isEnabled: true, isLoggedIn: true });
  const dropDevices = () => db().delete(notificationDevices).where(eq(notificationDevices.userId, userId));
  /** Time passes for the leases and retry times of `ids`. */
  const minutesPass = (ids: number[], minutes: number) =>
    db()
      .update(notifications)
      .set({ nextAttemptAt: sql`${notifications.nextAttemptAt} - ${`${minutes} minutes`}::interval` })
      .where(inArray(notifications.id, ids));

  describe('push tokens FCM rejects', () => {
    it('drops the token but leaves the device switched on; a push to no valid device is skipped, not sent', async () => {
      await addDevice('dev-gone', 'tok-gone');
      try {
        const fcm = fakeMessaging(() => NOT_REGISTERED);
        const dispatcher = createDispatcher({ db: db(), transports: transportsWith({ push: fcmSender(fcm.messaging) }), log: silent, appUrl: null, intervalMs: 0 });
        const [id] = await queue('push');
        await dispatcher.runOnce();
        expect(fcm.calls).toEqual([['tok-gone']]);
        expect(await deviceOf('dev-gone')).toMatchObject({ token: null, isEnabled: true, isLoggedIn: true });
        expect(await rowOf(id!)).toMatchObject({ deliveryState: 'skipped', deliveryError: 'FCM rejected the push token of every device', sentAt: null });

        // Signed in again, the browser registers a new token: the device gets pushes again.
        await db().update(notificationDevices).set({ token: 'tok-new' }).where(eq(notificationDevices.deviceId, 'dev-gone'));
        const ok = fakeMessaging(() => undefined);
        const again = createDispatcher({ db: db(), transports: transportsWith({ push: fcmSender(ok.messaging) }), log: silent, appUrl: null, intervalMs: 0 });
        const [next] = await queue('push');
        await again.runOnce();
        expect(ok.calls).toEqual([['tok-new']]);
        expect((await rowOf(next!)).deliveryState).toBe('sent');
      } finally {
        await dropDevices();
      }
    });

    it('drops rejected tokens also when the other devices failed for now, so the retry goes only to those', async () => {
      await addDevice('dev-dead', 'tok-dead');
      await addDevice('dev-flaky', 'tok-flaky');
      try {
        let fcmDown = true;
        const fcm = fakeMessaging((token) =>
          token === 'tok-dead' ? NOT_REGISTERED : fcmDown ? { code: 'messaging/unavailable', message: 'FCM is unavailable' } : undefined,
        );
        const dispatcher = createDispatcher({ db: db(), transports: transportsWith({ push: fcmSender(fcm.messaging) }), log: silent, appUrl: null, intervalMs: 0 });
        const [id] = await queue('push');
        await dispatcher.runOnce();
        expect(await rowOf(id!)).toMatchObject({ deliveryState: 'queued', deliveryError: 'FCM is unavailable', attempts: 1 });
        expect(await deviceOf('dev-dead')).toMatchObject({ token: null, isEnabled: true });
        expect(await deviceOf('dev-flaky')).toMatchObject({ token: 'tok-flaky', isEnabled: true });

        fcmDown = false;
        await db().update(notifications).set({ nextAttemptAt: null }).where(eq(notifications.id, id!));
        await dispatcher.runOnce();
        expect(fcm.calls.map((tokens) => [...tokens].sort())).toEqual([['tok-dead', 'tok-flaky'], ['tok-flaky']]);
        expect(await rowOf(id!)).toMatchObject({ deliveryState: 'sent', deliveryError: null, attempts: 2 });
      } finally {
        await dropDevices();
      }
    });
  });

  describe('withdrawn while being sent (a count cancelled, a transfer request decided)', () => {
    /** An SMS about stock count `countId`, or about transfer request `requestId`, waiting to be sent. */
    const queueAbout = async (about: { countId: number } | { requestId: string }): Promise<number> => {
      const [row] = await db()
        .insert(notifications)
        .values({
          userId,
          channel: 'sms',
          userEmail: 'lukas.mueller@lift.example',
          recipient: '+491510000099',
          message: 'Please act',
          deliveryState: 'queued',
          ...('countId' in about
            ? { notificationKey: 'inventory_count_notification', link: `/mechanic-view/${about.countId}` }
            : { notificationKey: 'other_notification', textKey: 'stockTransferRequested', textParams: { id: about.requestId } }),
        })
        .returning({ id: notifications.id });
      return row!.id;
    };
    /** A dispatcher whose SMS provider, while the message is on its way, sees `withdraw` happen, then answers `answer`. */
    const dispatcherWithdrawing = (withdraw: () => Promise<unknown>, answer: 'fail' | 'deliver') =>
      createDispatcher({
        db: db(),
        transports: transportsWith({
          sms: async () => {
            await withdraw();
            if (answer === 'fail') throw new Error('SMS provider answered 503');
          },
        }),
        log: silent,
        appUrl: null,
        intervalMs: 0,
      });

    it('keeps a cancelled count\'s message withdrawn when its provider then fails: it is not queued and sent later', async () => {
      const id = await queueAbout({ countId: 990001 });
      const dispatcher = dispatcherWithdrawing(() => db().transaction((tx) => resolveStockCountNotifications(tx, 990001, 'Stock count cancelled')), 'fail');
      await dispatcher.runOnce();
      expect(await rowOf(id)).toMatchObject({ deliveryState: 'skipped', deliveryError: 'Stock count cancelled', nextAttemptAt: null, active: false, attempts: 1 });
      // Nothing is left to send, however much later.
      await minutesPass([id], 60);
      expect(await dispatcher.runOnce()).toBe(0);
    });

    it('keeps a decided transfer request\'s message withdrawn when its provider then fails', async () => {
      const requestId = crypto.randomUUID();
      const id = await queueAbout({ requestId });
      const dispatcher = dispatcherWithdrawing(() => db().transaction((tx) => resolveTransferRequestNotifications(tx, requestId, 'Transfer request decided')), 'fail');
      await dispatcher.runOnce();
      expect(await rowOf(id)).toMatchObject({ deliveryState: 'skipped', deliveryError: 'Transfer request decided', nextAttemptAt: null, active: false });
      expect(await dispatcher.runOnce()).toBe(0);
    });

    it('records a message that had gone before the withdrawal as sent, since it was', async () => {
      const id = await queueAbout({ countId: 990002 });
      const dispatcher = dispatcherWithdrawing(() => db().transaction((tx) => resolveStockCountNotifications(tx, 990002, 'Stock count cancelled')), 'deliver');
      await dispatcher.runOnce();
      const row = await rowOf(id);
      expect(row).toMatchObject({ deliveryState: 'sent', active: false, nextAttemptAt: null });
      expect(row.sentAt).not.toBeNull();
    });
  });

  describe('two dispatchers on one outbox', () => {
    it('never sends a row twice while the dispatcher that took it is still sending (slow sends, lease per send)', async () => {
      const ids = await queue('sms', 3);
      const sends: string[] = [];
      let replicaB: Dispatcher | null = null;
      const replicaA = createDispatcher({
        db: db(),
        transports: transportsWith({
          sms: async (message: OutgoingMessage) => {
            sends.push(`A:${message.id}`);
            // Each of A's sends is slow (four minutes, under the five-minute lease) …
            await minutesPass(ids, 4);
            // … and while A sends the second row, B polls.
            if (message.id === ids[1]) await replicaB!.runOnce();
          },
        }),
        log: silent,
        appUrl: null,
        intervalMs: 0,
      });
      replicaB = createDispatcher({
        db: db(),
        transports: transportsWith({ sms: async (message: OutgoingMessage) => void sends.push(`B:${message.id}`) }),
        log: silent,
        appUrl: null,
        intervalMs: 0,
      });
      await replicaA.runOnce();
      // Every row sent once: what A had not started yet, B took.
      expect(sends.map((s) => s.split(':')[1]).sort()).toEqual(ids.map(String).sort());
      expect(sends).toEqual([`A:${ids[0]}`, `A:${ids[1]}`, `B:${ids[2]}`]);
      for (const id of ids) expect(await rowOf(id)).toMatchObject({ deliveryState: 'sent', attempts: 1 });
    });

    it('lets a dispatcher whose lease ran out change nothing when it finally finishes', async () => {
      const [id] = await queue('sms');
      let bStarted!: () => void;
      const bSending = new Promise<void>((resolve) => (bStarted = resolve));
      let releaseB!: () => void;
      const bMayFinish = new Promise<void>((resolve) => (releaseB = resolve));
      let bRun: Promise<number> | null = null;
      const replicaB = createDispatcher({
        db: db(),
        transports: transportsWith({
          sms: async () => {
            bStarted();
            await bMayFinish;
          },
        }),
        log: silent,
        appUrl: null,
        intervalMs: 0,
      });
      const replicaA = createDispatcher({
        db: db(),
        transports: transportsWith({
          sms: async () => {
            // A's send hangs past its lease: B takes the row again …
            await minutesPass([id!], 6);
            bRun = replicaB.runOnce();
            await bSending;
            // … and only then does A's send fail.
            throw new Error('A gave up late');
          },
        }),
        log: silent,
        appUrl: null,
        intervalMs: 0,
      });
      await replicaA.runOnce();
      // A's failure is not recorded over B's claim: still B's, no retry scheduled by A.
      const during = await rowOf(id!);
      expect(during).toMatchObject({ deliveryState: 'sending', attempts: 2, deliveryError: null });
      releaseB();
      await bRun;
      expect(await rowOf(id!)).toMatchObject({ deliveryState: 'sent', attempts: 2, deliveryError: null });
    });
  });
});
