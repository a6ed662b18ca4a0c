/**
 * Planning rules of the stock-count list (review of the planner's list): a recount of a count that
 * names nobody to count it is saved as a draft (not sent to no one), and the list's rows say
 * whether a count has differences to recount (a completed count without any offers no Recount).
 *
 * Seed facts: supervisor@example.com plans planner group F10 of FI01 (van V001 is in it);
 * mechanic@example.com is a mechanic of FI01.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const MECHANIC = 'mechanic@example.com';
const SUPERVISOR = 'supervisor@example.com';

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

interface Row {
  id: number;
  status: string;
  is_draft: boolean;
  conducted_by: string | null;
  has_differences?: boolean;
  total_lines: number;
  open_recount_id?: number | null;
}

describe.each(ENGINES)('stock count planning on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  let codes: string[] = [];

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const email of [MECHANIC, SUPERVISOR]) tokens[email] = await product.token(email);
    const found = rowsOf(
      await product.database.db.execute(sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V001' and unrestricted_count is not null and quality_inspection_count is not null and blocked_count is not null and restricted_count is not null and transfer_count is not null order by material_code limit 3`),
    );
    codes = found.map((row) => String(row.material_code));
    expect(codes).toHaveLength(3);
  });
  afterAll(async () => {
    await product?.close();
  });

  const api = (who: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) =>
    product.app.inject({ method, url: `/api/v2${url}`, headers: bearer(tokens[who]!), ...(payload ? { payload } : {}) });
  const rowOf = async (id: number) => {
    const res = await api(SUPERVISOR, 'GET', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().stock_counts as Row[])[0]!;
  };
  /**
   * A completed count of the three materials, counted as the book says except `off` lines (one
   * more), by `conductedBy` (null: nobody named, as a count split at creation). Completed in the
   * database: the ERP booking is not what is tested here.
   */
  const completed = async (off: number, conductedBy: string | null) => {
    const res = await api(SUPERVISOR, 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, conductedBy: MECHANIC });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as Row).id;
    const db = product.database.db;
    await db.execute(sql`update material_counts set quantity = book_quantity where stock_count_id = ${id}`);
    if (off > 0) {
      await db.execute(
        sql`update material_counts set quantity = quantity + 1 where id in (select id from material_counts where stock_count_id = ${id} order by material_code limit ${off})`,
      );
    }
    await db.execute(sql`update stock_counts set status = 'completed', conducted_by = ${conductedBy} where id = ${id}`);
    return id;
  };

  it('says in the list whether a count has differences to recount', async () => {
    const differs = await completed(1, MECHANIC);
    const exact = await completed(0, MECHANIC);
    expect(await rowOf(differs)).toMatchObject({ status: 'completed', has_differences: true });
    expect(await rowOf(exact)).toMatchObject({ status: 'completed', has_differences: false });
    // The rule is the recount's: the exact one has nothing to recount.
    const refused = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: exact });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`Stock count ${exact} has no differences to recount`);
    // A line not counted yet differs from its book too (an open count's progress).
    const open = await api(SUPERVISOR, 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, conductedBy: MECHANIC, draft: true });
    expect(await rowOf((open.json() as Row).id)).toMatchObject({ has_differences: true });
  });

  it('sends a recount to the person who counted, and saves one of a count naming nobody as a draft', async () => {
    const named = await completed(2, MECHANIC);
    const recount = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: named });
    expect(recount.statusCode, recount.body).toBe(201);
    expect(recount.json()).toMatchObject({ status: 'recount', is_draft: false, conducted_by: MECHANIC, total_lines: 2 });

    const nobody = await completed(1, null);
    const res = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: nobody });
    expect(res.statusCode, res.body).toBe(201);
    const draft = res.json() as Row;
    expect(draft).toMatchObject({ status: 'recount', is_draft: true, conducted_by: null, total_lines: 1 });
    // It is the count's open recount, and nobody was told about it.
    expect(await rowOf(nobody)).toMatchObject({ open_recount_id: draft.id });
    expect(rowsOf(await product.database.db.execute(sql`select id from notifications where link = ${`/mechanic-view/${draft.id}`}`))).toHaveLength(0);
    // Sending it asks who counts it first, as for any draft; named, it goes.
    const unsent = await api(SUPERVISOR, 'PUT', '/my_stock_count', { stockCountId: draft.id, draft: false });
    expect(unsent.statusCode).toBe(400);
    expect(unsent.json().message).toBe('Choose who counts (conductedBy) before sending the count');
    const sent = await api(SUPERVISOR, 'PUT', '/my_stock_count', { stockCountId: draft.id, conductedBy: MECHANIC, draft: false });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ is_draft: false, conducted_by: MECHANIC });
  });
});
