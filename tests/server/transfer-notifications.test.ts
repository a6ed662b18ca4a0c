/**
 * Decision 0061's "Not done", done: a new stock transfer request tells those who may decide it in
 * its plant, in the request's own transaction (a replayed Idempotency-Key tells nobody again), and
 * its decision resolves what they were told. Through the real app, from the template database.
 *
 * Seed facts: mechanic@example.com requests in FI01/V001; stock.admin@example.com is the stock admin
 * of FI01 and DE02; manager@example.com is a super manager holding no plant; notifications are
 * allowed in FI01 and DE02. The test adds a second stock admin of FI01, one of DE02 only, and an
 * expired and a pending one of FI01.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { englishNotificationText } from '../../server/notifications/texts';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

/** Rows of a raw query on either engine (node-postgres and PGlite both answer `{ rows }`). */
const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

/** Stock admins the test adds: [email, plant, approval status, expiration date]. */
const ADDED: Array<[string, string, string, string | null]> = [
  ['second.admin@example.com', 'FI01', 'Approved', null],
  ['de.admin@example.com', 'DE02', 'Approved', null],
  ['expired.admin@example.com', 'FI01', 'Approved', '2020-01-31'],
  ['pending.admin@example.com', 'FI01', 'Pending', null],
];

describe.each(ENGINES)('stock transfer request notifications on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  let material = '';

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const [email, plant, status, expires] of ADDED) {
      const [user] = await query(
        sql`insert into users (email, display_name, approval_status, expiration_date, first_login) values (${email}, ${email.split('@')[0]}, ${status}, ${expires}, false) returning id`,
      );
      await query(sql`insert into user_grants (user_id, grant_id) values (${user!.id}, 'stock_admin')`);
      await query(sql`insert into user_attachments (user_id, kind, plant, code) values (${user!.id}, 'plant', ${plant}, ${plant})`);
    }
    for (const who of ['mechanic', 'stock.admin', 'second.admin']) tokens[who] = await product.token(`${who}@example.com`);
    const [stocked] = await query(sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V001' order by id limit 1`);
    material = String(stocked!.material_code);
  });
  afterAll(async () => product?.close());

  const query = async (statement: ReturnType<typeof sql>) => rowsOf(await product.database.db.execute(statement));
  const api = (who: string, method: 'PUT' | 'POST', url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    product.app.inject({ method, url: `/api/v2${url}`, headers: { ...bearer(tokens[who]!), ...headers }, payload });
  const ask = (who: string, headers: Record<string, string> = {}) =>
    api(who, 'POST', '/stock_transfer_request', { plant: 'FI01', storageLocationFrom: 'V001', storageLocationTo: '0001', materialCode: material, quantity: 2 }, headers);
  /** The "waiting for you" notifications of one request. */
  const told = (id: string) =>
    query(
      sql`select user_email, channel, recipient, notification_key, link, plant, subject, message, text_params, active, delivery_state from notifications
        where text_key = 'stockTransferRequested' and text_params ->> 'id' = ${id} order by user_email, channel`,
    );

  it("tells the plant's stock admins of a mechanic's request: not the mechanic, nor another plant's, an expired or a pending admin, nor a super manager without the plant", async () => {
    const asked = await ask('mechanic');
    expect(asked.statusCode, asked.body).toBe(201);
    const { id } = asked.json() as { id: string };
    const rows = await told(id);
    expect([...new Set(rows.map((row) => row.user_email))]).toEqual(['second.admin@example.com', 'stock.admin@example.com']);
    const [mechanic] = await query(sql`select display_name from users where email = 'mechanic@example.com'`);
    const params = { id, name: String(mechanic!.display_name), by: 'mechanic@example.com', material, quantity: 2, from: 'V001', to: '0001', plant: 'FI01' };
    const english = englishNotificationText({ key: 'stockTransferRequested', params });
    for (const row of rows) {
      // Nobody saved settings: the defaults send e-mail to the account's address (the settings decide, as for any key).
      expect(row).toMatchObject({
        channel: 'email',
        recipient: row.user_email,
        notification_key: 'other_notification',
        link: '/stock-management?transfers=1',
        plant: 'FI01',
        subject: english.subject,
        message: english.body,
        text_params: params,
        active: true,
        delivery_state: 'queued',
      });
    }
  });

  it('tells other deciders of a stock admin\'s own request, never its requester', async () => {
    const asked = await ask('stock.admin');
    expect(asked.statusCode, asked.body).toBe(201);
    const rows = await told((asked.json() as { id: string }).id);
    expect(rows.map((row) => row.user_email)).toEqual(['second.admin@example.com']);
  });

  it('follows the decider\'s settings: an SMS-only preference for other notifications sends an SMS', async () => {
    const [admin] = await query(sql`select id from users where email = 'second.admin@example.com'`);
    const off = { emailEnabled: false, smsEnabled: false, pushEnabled: false };
    await query(sql`insert into notification_settings (user_id, "primary", email_enabled, email, mobile_enabled, mobile_number, preferences)
      values (${admin!.id}, true, true, 'second.admin@example.com', true, '+358401112223',
        ${JSON.stringify({ delivery_notification: off, inventory_count_notification: off, contact_notification: off, other_notification: { ...off, smsEnabled: true } })}::jsonb)`);
    try {
      const asked = await ask('mechanic');
      const rows = (await told((asked.json() as { id: string }).id)).filter((row) => row.user_email === 'second.admin@example.com');
      expect(rows.map((row) => [row.channel, row.recipient])).toEqual([['sms', '+358401112223']]);
    } finally {
      await query(sql`delete from notification_settings where user_id = ${admin!.id}`);
    }
  });

  it('records nothing new for a replay under the same Idempotency-Key', async () => {
    const key = crypto.randomUUID();
    const first = await ask('mechanic', { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    const { id } = first.json() as { id: string };
    const count = async () => (await query(sql`select count(*)::int as n from notifications where text_key = 'stockTransferRequested'`))[0]!.n;
    const before = await count();
    const replay = await ask('mechanic', { 'idempotency-key': key });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(await count()).toBe(before);
    expect(await told(id)).toHaveLength(2);
  });

  it("resolves every decider's notification of a request once it is decided, and only that request's", async () => {
    const decided = (await ask('mechanic')).json() as { id: string };
    const waiting = (await ask('mechanic')).json() as { id: string };
    expect(await told(decided.id)).toHaveLength(2);
    const answer = await api('second.admin', 'PUT', `/stock_transfer_request/${decided.id}/decision`, { status: 'declined' });
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = await told(decided.id);
    expect(rows).toHaveLength(2);
    // Read (out of the unread lists), and not sent once decided: the dispatcher had not claimed them yet.
    expect(rows.every((row) => row.active === false && row.delivery_state === 'skipped')).toBe(true);
    expect((await told(waiting.id)).every((row) => row.active === true && row.delivery_state === 'queued')).toBe(true);
    // The requester still hears of the decision.
    const [notice] = await query(
      sql`select count(*)::int as n from notifications where user_email = 'mechanic@example.com' and text_key = 'stockTransferDeclined' and active`,
    );
    expect(notice!.n).toBeGreaterThan(0);
  });
});
