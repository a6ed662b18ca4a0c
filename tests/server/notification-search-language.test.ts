/**
 * A notification's list search finds the words its reader sees (decision 0069): the list renders
 * the text in the reader's language, and the stored reader text makes those words findable; the
 * English stored beside it is still found, and an English reader's row carries no second copy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { backfillReaderTexts } from '../../server/notifications/reader-text-backfill';

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

describe.each(ENGINES)('notification search in the reader’s language on %s', (engine) => {
  let product: TestProduct;
  let supervisor = '';
  let mechanic = '';
  let countId = 0;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    supervisor = await product.token('supervisor@example.com');
    mechanic = await product.token('mechanic@example.com');
    const locale = await product.app.inject({ method: 'PUT', url: '/user_api/v1/user/profile', headers: bearer(mechanic), payload: { locale: 'fi-FI' } });
    expect(locale.statusCode, locale.body).toBe(200);
    const created = await product.app.inject({
      method: 'POST',
      url: '/api/v2/my_stock_count',
      headers: bearer(supervisor),
      payload: { plant: 'FI01', type: 'wall_to_wall', storageLocation: 'V001', conductedBy: 'mechanic@example.com' },
    });
    expect(created.statusCode, created.body).toBe(201);
    countId = (created.json() as { id: number }).id;
  });
  afterAll(async () => product?.close());

  const search = async (query: string) => {
    const res = await product.app.inject({
      method: 'GET',
      url: `/user_api/v1/email_notifications?maxResults=50&query=${encodeURIComponent(query)}`,
      headers: bearer(mechanic),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: Array<{ link?: string | null; message: string }> }).items;
  };

  it('finds the Finnish words a Finnish mechanic reads, and still the English ones', async () => {
    const finnish = await search(`Inventaario nro ${countId}`);
    expect(finnish.length).toBeGreaterThan(0);
    expect(finnish.every((item) => item.message.includes(String(countId)))).toBe(true);
    expect((await search(`Stock count ${countId}`)).length).toBe(finnish.length);
    expect(await search('Inventaario nro 999999999')).toEqual([]);
  });

  it('keeps no second copy for an English reader', async () => {
    const rows = rowsOf(
      await product.database.db.execute(
        sql`select user_email, reader_text from notifications where link = ${`/mechanic-view/${countId}`} and text_key = 'stockCountAssigned'`,
      ),
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      if (row.user_email === 'mechanic@example.com') expect(String(row.reader_text)).toContain(`Inventaario nro ${countId}`);
      else expect(row.reader_text).toBeNull();
    }
  });

  it('writes the reader’s words of rows recorded before they were stored (decision 0077), once', async () => {
    const link = `/mechanic-view/${countId}`;
    // As a row recorded before migration 0038 has it.
    await product.database.db.execute(sql`update notifications set reader_text = null where link = ${link} and user_email = 'mechanic@example.com'`);
    await backfillReaderTexts(product.database.db, { batch: 2 });
    const rows = rowsOf(await product.database.db.execute(sql`select user_email, reader_text from notifications where link = ${link} and text_key = 'stockCountAssigned'`));
    for (const row of rows) {
      if (row.user_email === 'mechanic@example.com') expect(String(row.reader_text)).toContain(`Inventaario nro ${countId}`);
      else expect(row.reader_text).toBeNull();
    }
    expect((await search(`Inventaario nro ${countId}`)).length).toBeGreaterThan(0);
    // Nothing is left to write: English readers' rows stay without a copy.
    expect(await backfillReaderTexts(product.database.db)).toBe(0);
  });
});
