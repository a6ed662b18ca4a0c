/**
 * Stateless replicas (#16): two real server processes (`server/main.ts`, ingestion worker and
 * notification dispatcher on, as in production) on ONE PostgreSQL database, driven over HTTP
 * through both. Runs when DATABASE_URL names a PostgreSQL server.
 *
 * - read-your-writes: what one replica wrote, the other answers at once;
 * - an Idempotency-Key replayed on the other replica gets the first answer, applied once;
 * - ERP files uploaded to both (the same bytes to both, too) are processed once each, by
 *   whichever worker claims them first (SKIP LOCKED);
 * - the delivery notification one file causes is recorded once and sent once, although both
 *   dispatchers poll the same outbox.
 *
 * Both processes share DATA_DIR only for the local demo sign-in's signing key (a real identity
 * provider needs nothing shared). The workload order is drawn from a seed printed at the start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/client';
import { fileProcessing, notifications, orderItems, orders } from '../../server/db/schema';
import { createScratchDatabase } from './harness';
import { providedTemplates, seedTestData } from './template';
import { seededRandom } from '../seeded-random';

const adminUrl = process.env.DATABASE_URL;
const PORTS = [Number(process.env.REPLICA_PORT_A ?? 8197), Number(process.env.REPLICA_PORT_B ?? 8198)] as const;
const SEED = Number(process.env.REPLICAS_SEED ?? Date.now() % 100_000);

/** The workload's order, repeatable from SEED. */
const random = seededRandom;

const csv = (fields: string[], rows: Array<Array<string | number>>) => `${Papa.unparse({ fields, data: rows }, { newline: '\n' })}\n`;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, seconds = 120): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.runIf(adminUrl)('two replicas on one PostgreSQL', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let database: Database;
  const children: ChildProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-replicas-'));
  const base = PORTS.map((port) => `http://127.0.0.1:${port}`);
  const tokens = new Map<string, string>();

  const token = async (email: string) => {
    if (!tokens.has(email)) {
      const res = await fetch(`${base[0]}/auth/local/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      tokens.set(email, ((await res.json()) as { idToken: string }).idToken);
    }
    return tokens.get(email)!;
  };
  const call = async (replica: 0 | 1, method: string, path: string, email: string, body?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base[replica]}${path}`, { method, headers: { authorization: `Bearer ${await token(email)}`, ...headers }, body });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const upload = (replica: 0 | 1, fileName: string, content: string, key?: string) =>
    call(replica, 'POST', `/user_api/v1/dashboard/files?fileName=${fileName}`, 'manager@example.com', content, {
      'content-type': 'text/csv',
      ...(key ? { 'idempotency-key': key } : {}),
    });

  beforeAll(async () => {
    console.info(`replicas workload seed: ${SEED} (REPLICAS_SEED=${SEED} repeats it)`);
    const template = (await providedTemplates())?.postgres ?? undefined;
    scratch = await createScratchDatabase(adminUrl!, 'pt_replicas', template);
    database = await openDatabase({ databaseUrl: scratch.url });
    if (!template) {
      await database.migrate();
      await seedTestData(database.db);
    }
    for (const port of PORTS) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: String(port),
          DATABASE_URL: scratch.url,
          DATA_DIR: dataDir,
          PUBLIC_DIR: './no-such-dir',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MINUTE: '100000',
          INGESTION_POLL_SECONDS: '1',
          NOTIFICATION_DISPATCH_INTERVAL_MS: '200',
          REDIS_URL: '',
          // The demo issuer signs the calls below; on PostgreSQL it is on only when asked for.
          AUTH_LOCAL_ENABLED: 'true',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
    }
    // Both start at once: they agree on the shared signing key (local-issuer.ts links it into place).
    await waitFor('both replicas', async () => {
      const answers = await Promise.all(base.map((url) => fetch(`${url}/healthz`).then((r) => r.ok, () => false)));
      return answers.every(Boolean);
    }, 300);
  }, 360_000);

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    await database?.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads its own writes across replicas: a profile change made on one is answered by the other', async () => {
    const draw = random(SEED);
    for (const locale of ['de-DE', 'fi-FI', 'sv-SE', 'en-US']) {
      const writer = draw() < 0.5 ? 0 : 1;
      const reader = writer === 0 ? 1 : 0;
      const put = await call(writer, 'PUT', '/user_api/v1/user/profile', 'mechanic@example.com', JSON.stringify({ locale }), { 'content-type': 'application/json' });
      expect(put.status).toBe(200);
      const read = await call(reader, 'GET', '/user_api/v1/user/profile', 'mechanic@example.com');
      expect(read.json.locale).toBe(locale);
    }
  }, 120_000);

  it('applies an Idempotency-Key once: the same upload replayed on the other replica gets the first answer', async () => {
    const content = csv(['material_code', 'description_english', 'unit'], [['MAT-REPLICA-1', 'Replica test belt', 'PC']]);
    const key = `replicas-${SEED}`;
    const first = await upload(0, 'ERP_MATERIALS_20310101_MORNING.csv', content, key);
    expect(first.status).toBe(202);
    const replay = await upload(1, 'ERP_MATERIALS_20310101_MORNING.csv', content, key);
    // The replay, not a second receipt (which would answer 200, duplicate).
    expect(replay.status).toBe(202);
    expect(replay.json).toEqual(first.json);
    const rows = await database.db.select().from(fileProcessing).where(eq(fileProcessing.fileName, 'ERP_MATERIALS_20310101_MORNING.csv'));
    expect(rows).toHaveLength(1);

    // The same key on both replicas at the same moment: one writes, the other waits on the key and replays.
    const other = csv(['material_code', 'description_english', 'unit'], [['MAT-REPLICA-2', 'Replica test roller', 'PC']]);
    const both = await Promise.all([upload(0, 'ERP_MATERIALS_20310102_MORNING.csv', other, `${key}-b`), upload(1, 'ERP_MATERIALS_20310102_MORNING.csv', other, `${key}-b`)]);
    expect(both.map((a) => a.status)).toEqual([202, 202]);
    expect(both[1].json).toEqual(both[0].json);
    expect(await database.db.select().from(fileProcessing).where(eq(fileProcessing.fileName, 'ERP_MATERIALS_20310102_MORNING.csv'))).toHaveLength(1);
  }, 120_000);

  it('processes ERP files uploaded to both replicas once each, and sends the notification one of them causes once', async () => {
    const draw = random(SEED + 1);
    const fields = ['service_order', 'line_number', 'plant', 'material_code', 'material_description', 'unit', 'reservation_quantity'];
    const files = Array.from({ length: 8 }, (_, i) => ({
      name: `ERP_ORDERS_203102${String(i + 1).padStart(2, '0')}_MORNING.csv`,
      content: csv(fields, [
        [`48800000${i}0`, 10, 'FI01', 'MAT-REP', `Replica part ${i}`, 'PC', '1'],
        [`48800000${i}0`, 20, 'FI01', 'MAT-REP', `Replica part ${i}b`, 'PC', '2'],
      ]),
    }));
    // A delivery status change for an item of the demo mechanic's orders: one delivery notification per channel the mechanic has.
    const [item] = await database.db
      .select({ orderId: orderItems.orderId, lineNumber: orderItems.lineNumber, status: orderItems.deliveryStatus })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(and(eq(orders.userEmail, 'mechanic@example.com'), sql`${orderItems.deliveryStatus} is distinct from 'Delivery Failed'`))
      .limit(1);
    const deliveries = csv(
      ['service_order', 'line_number', 'tracking_number', 'carrier', 'event_status', 'event_description', 'occurred_at', 'delivery_status'],
      [[item!.orderId, item!.lineNumber, `REPL${SEED}`, 'DHL', 'Failed', 'Recipient not found', '2031-02-10T08:00:00Z', 'Delivery Failed']],
    );
    const before = await database.db.select({ id: notifications.id }).from(notifications);

    const sent = [...files.map((f) => ({ ...f, replica: (draw() < 0.5 ? 0 : 1) as 0 | 1 })), { name: 'ERP_DELIVERIES_20310210_MORNING.csv', content: deliveries, replica: (draw() < 0.5 ? 0 : 1) as 0 | 1 }];
    // Every file goes to one replica; the same bytes also to the other at the same moment.
    const answers = await Promise.all(sent.flatMap((f) => [upload(f.replica, f.name, f.content), upload(f.replica === 0 ? 1 : 0, f.name, f.content)]));
    expect(answers.every((a) => a.status === 202 || a.status === 200)).toBe(true);
    const names = sent.map((f) => f.name);
    const rows = await waitFor('every file final', async () => {
      if (process.env.REPLICAS_TRACE) console.info(JSON.stringify(await database.db.select({ n: fileProcessing.fileName, s: fileProcessing.status }).from(fileProcessing).where(inArray(fileProcessing.fileName, names))));
      const found = await database.db.select().from(fileProcessing).where(inArray(fileProcessing.fileName, names));
      return found.length === names.length && found.every((r) => r.status === 'processed' || r.status === 'errored') ? found : null;
    });
    expect(rows.map((r) => [r.fileName, r.status, r.errors]).sort()).toEqual(names.map((n) => [n, 'processed', []]).sort());
    // Each file was received once (one row per name, the second copy a duplicate) and applied once.
    for (let i = 0; i < files.length; i += 1) {
      const lines = await database.db.select().from(orderItems).where(eq(orderItems.orderId, `48800000${i}0`));
      expect(lines).toHaveLength(2);
    }

    const recorded = await waitFor('the delivery notifications sent', async () => {
      const all = await database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.notificationKey, 'delivery_notification'), sql`${notifications.subject} like ${`Order ${item!.orderId}:%Delivery Failed`}`));
      const fresh = all.filter((n) => !before.some((b) => b.id === n.id));
      // Final: sent, or recorded / skipped where no transport or device is configured (tests configure none).
      return fresh.length > 0 && fresh.every((n) => n.deliveryState !== 'queued' && n.deliveryState !== 'sending') ? fresh : null;
    });
    // One per recipient and channel, each handled by one dispatcher in one attempt (a second claim would count a second attempt).
    expect(new Set(recorded.map((n) => `${n.userId}/${n.channel}/${n.recipient}`)).size).toBe(recorded.length);
    expect(recorded.map((n) => n.attempts)).toEqual(recorded.map(() => 1));
  }, 300_000);
});
