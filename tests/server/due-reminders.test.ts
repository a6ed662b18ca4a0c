/**
 * "Stock count due" reaches everyone counting a count (#6 with #18, review of the reminder): the
 * person counting it and the counters of its open parts, a split count without a person counting
 * included; each person once per deadline, also when the count is handed over (which reminds the
 * new person counting) and when two replicas look at once.
 *
 * Seed facts: supervisor@example.com plans FI01, whose counts may have a deadline (Helsinki time);
 * mechanic@example.com, mikko.virtanen@lift.example and aino.korhonen@lift.example are mechanics of
 * FI01. A reminder is a row per channel the person's settings ask for, all recorded at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { sendDueReminders } from '../../server/notifications/due-reminders';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const MECHANIC = 'mechanic@example.com';
const MIKKO = 'mikko.virtanen@lift.example';
const AINO = 'aino.korhonen@lift.example';

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

/** The day before the deadline 2099-12-10, after 07:00 in Helsinki: the counts below are due. */
const DUE = new Date('2099-12-09T08:00:00Z');
const LATER = new Date('2099-12-10T08:00:00Z');

describe.each(ENGINES)('stock count due reminders on %s', (engine) => {
  let product: TestProduct;
  let token = '';
  let codes: string[] = [];

  beforeAll(async () => {
    product = await createTestProduct(engine);
    token = await product.token('supervisor@example.com');
    const found = rowsOf(
      await product.database.db.execute(sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V001' order by material_code limit 3`),
    );
    codes = found.map((row) => String(row.material_code));
    expect(codes).toHaveLength(3);
    // The seed's open counts with a deadline are due by 2099: their reminders go first, not in the tests'.
    while ((await sendDueReminders(product.database.db, new Date('2100-01-01T00:00:00Z'))) > 0);
  });
  afterAll(async () => product?.close());

  const api = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    product.app.inject({ method, url: `/api/v2${url}`, headers: bearer(token), payload });

  const createCount = async (extra: Record<string, unknown>): Promise<number> => {
    const res = await api('POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, shouldBeDoneAt: '2099-12-10', ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };

  /** How many "is due" reminders of count `id` each person got (rows recorded together are one), by e-mail address. */
  const remindersOf = async (id: number): Promise<Record<string, number>> => {
    const rows = rowsOf(
      await product.database.db.execute(
        sql`select user_email, count(distinct created)::int as n from notifications where link = ${`/mechanic-view/${id}`} and text_key = 'stockCountDue' group by user_email order by user_email`,
      ),
    );
    return Object.fromEntries(rows.map((row) => [String(row.user_email), Number(row.n)]));
  };

  it('reminds each counter of a split count that nobody counts as a whole, once', async () => {
    const id = await createCount({ parts: [{ counter: MIKKO, materialCodes: [codes[0]] }, { counter: AINO, rest: true }] });
    expect(await remindersOf(id)).toEqual({});
    await sendDueReminders(product.database.db, DUE);
    expect(await remindersOf(id)).toEqual({ [AINO]: 1, [MIKKO]: 1 });
    await sendDueReminders(product.database.db, LATER);
    expect(await remindersOf(id)).toEqual({ [AINO]: 1, [MIKKO]: 1 });
  });

  it('reminds the person counting and the counters of open parts, not of done ones; handed over, only the new person counting', async () => {
    const id = await createCount({ conductedBy: MECHANIC, parts: [{ counter: MIKKO, materialCodes: [codes[0]] }, { counter: AINO, rest: true }] });
    await product.database.db.execute(sql`update stock_count_parts set status = 'done', done_at = now() where stock_count_id = ${id} and counter = ${AINO}`);
    await sendDueReminders(product.database.db, DUE);
    expect(await remindersOf(id)).toEqual({ [MECHANIC]: 1, [MIKKO]: 1 });

    // Handed to Aino: she counts it now and is reminded; Mikko, still counting his part, is not told twice.
    const handed = await api('PUT', '/my_stock_count', { stockCountId: id, conductedBy: AINO });
    expect(handed.statusCode, handed.body).toBe(200);
    await sendDueReminders(product.database.db, DUE);
    expect(await remindersOf(id)).toEqual({ [AINO]: 1, [MECHANIC]: 1, [MIKKO]: 1 });

    // A new deadline reminds everyone counting again, once.
    expect((await api('PUT', '/my_stock_count', { stockCountId: id, shouldBeDoneAt: '2099-12-20' })).statusCode).toBe(200);
    await sendDueReminders(product.database.db, new Date('2099-12-19T08:00:00Z'));
    await sendDueReminders(product.database.db, new Date('2099-12-19T09:00:00Z'));
    expect(await remindersOf(id)).toEqual({ [AINO]: 2, [MECHANIC]: 1, [MIKKO]: 2 });
  });

  it('reminds nobody twice when two replicas look at the same moment', async () => {
    const id = await createCount({ conductedBy: MECHANIC, parts: [{ counter: MIKKO, materialCodes: [codes[0]] }, { counter: AINO, rest: true }] });
    // On PostgreSQL the second replica has connections of its own; PGlite has one connection.
    const other = engine === 'postgres' ? await openDatabase({ databaseUrl: product.database.databaseUrl! }) : product.database;
    try {
      const reminded = await Promise.all([sendDueReminders(product.database.db, DUE), sendDueReminders(other.db, DUE)]);
      expect(reminded[0] + reminded[1]).toBe(1);
      expect(await remindersOf(id)).toEqual({ [AINO]: 1, [MECHANIC]: 1, [MIKKO]: 1 });
    } finally {
      if (other !== product.database) await other.close();
    }
  });
});
