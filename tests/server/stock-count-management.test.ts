/**
 * Planning rules of the stock-count list (review of the planner's list): a recount of a count that
 * names nobody to count it, or someone who can no longer count, is saved as a draft (not sent to no
 * one, nor refused for good), and the list's rows say whether a count has differences to recount (a
 * completed count without any offers no Recount; a line without a book quantity reads a book of 0).
 * An edit or a cancel names the count as it was shown (decision 0068): another planner's change
 * since is a 409 with a code. Refusals a planner meets in a race are coded (decision 0055).
 *
 * Seed facts: supervisor@example.com plans planner group F10 of FI01 (van V001 is in it);
 * mechanic@example.com is a mechanic of FI01.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const MECHANIC = 'mechanic@example.com';
const SUPERVISOR = 'supervisor@example.com';
/** A second planner of FI01 (plant-wide). */
const STOCK_ADMIN = 'stock.admin@example.com';

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

interface Row {
  id: number;
  status: string;
  is_draft: boolean;
  conducted_by: string | null;
  has_differences?: boolean;
  total_lines: number;
  open_recount_id?: number | null;
  work_center: string | null;
  should_be_done_at: string | null;
}

describe.each(ENGINES)('stock count planning on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  let codes: string[] = [];

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const email of [MECHANIC, SUPERVISOR, STOCK_ADMIN]) tokens[email] = await product.token(email);
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
  const completed = async (off: number, conductedBy: string | null, materialCodes = codes) => {
    const res = await api(SUPERVISOR, 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes, conductedBy: MECHANIC });
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
    // Coded, so the app words it in the planner's language (decision 0055).
    expect(refused.json()).toMatchObject({ code: 'recountNoDifferences', params: { id: exact } });
    // A line not counted yet differs from its book too (an open count's progress).
    const open = await api(SUPERVISOR, 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, conductedBy: MECHANIC, draft: true });
    expect(await rowOf((open.json() as Row).id)).toMatchObject({ has_differences: true });
  });

  it('sends a recount to the person who counted, and saves one of a count naming nobody as a draft', async () => {
    const named = await completed(2, MECHANIC);
    const recount = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: named });
    expect(recount.statusCode, recount.body).toBe(201);
    expect(recount.json()).toMatchObject({ status: 'recount', is_draft: false, conducted_by: MECHANIC, total_lines: 2 });
    // Another planner's Recount pressed on the same list meets the open one: coded (decision 0055).
    const again = await api(STOCK_ADMIN, 'POST', '/my_stock_count/recount', { stockCountId: named });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'recountOpen', params: { id: named, recount: (recount.json() as Row).id } });
    // A recount of a count not completed (the recount itself, still open): coded too.
    const open = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: (recount.json() as Row).id });
    expect(open.statusCode).toBe(409);
    expect(open.json()).toMatchObject({ code: 'recountNotCompleted', params: { id: (recount.json() as Row).id, status: 'recount' } });

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
    expect(unsent.json()).toMatchObject({ code: 'sendNeedsCounter', params: { id: draft.id } });
    const sent = await api(SUPERVISOR, 'PUT', '/my_stock_count', { stockCountId: draft.id, conductedBy: MECHANIC, draft: false });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ is_draft: false, conducted_by: MECHANIC });
  });

  it('saves the recount of a count whose counter can no longer count as a draft with nobody counting: the planner chooses who counts it', async () => {
    const db = product.database.db;
    const told = async (id: number) => rowsOf(await db.execute(sql`select id from notifications where link = ${`/mechanic-view/${id}`}`));
    // Counted by someone no longer of the plant: refused for good before (400 counterNotInPlant).
    const left = await completed(1, 'left.the.plant@example.com');
    const res = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: left });
    expect(res.statusCode, res.body).toBe(201);
    const draft = res.json() as Row;
    expect(draft).toMatchObject({ status: 'recount', is_draft: true, conducted_by: null, total_lines: 1 });
    expect(await rowOf(left)).toMatchObject({ open_recount_id: draft.id });
    expect(await told(draft.id)).toHaveLength(0);
    // Counted by someone whose access has expired since (400 counterExpired before).
    const counted = await completed(2, MECHANIC);
    const [before] = rowsOf(await db.execute(sql`select expiration_date::text as expiration from users where email = ${MECHANIC}`));
    await db.execute(sql`update users set expiration_date = '2000-01-01' where email = ${MECHANIC}`);
    try {
      const expired = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: counted });
      expect(expired.statusCode, expired.body).toBe(201);
      const recount = expired.json() as Row;
      expect(recount).toMatchObject({ status: 'recount', is_draft: true, conducted_by: null, total_lines: 2 });
      expect(await told(recount.id)).toHaveLength(0);
    } finally {
      await db.execute(sql`update users set expiration_date = ${(before?.expiration as string | null) ?? null} where email = ${MECHANIC}`);
    }
  });

  it('reads a line without a book quantity as a book of 0: counted 0, it is no difference to recount (src/domain/stock.ts)', async () => {
    const db = product.database.db;
    // A material the location holds no stock of: its line has no book quantity.
    const [absent] = rowsOf(
      await db.execute(sql`select code from materials where code not in (select material_code from stock_items where plant = 'FI01' and storage_location = 'V001') order by code limit 1`),
    );
    const code = String(absent!.code);
    const none = await completed(0, MECHANIC, [code]);
    const [line] = rowsOf(await db.execute(sql`select book_quantity, quantity from material_counts where stock_count_id = ${none}`));
    expect(line).toMatchObject({ book_quantity: null });
    await db.execute(sql`update material_counts set quantity = 0 where stock_count_id = ${none}`);
    expect(await rowOf(none)).toMatchObject({ status: 'completed', has_differences: false });
    const refused = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: none });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'recountNoDifferences', params: { id: none } });
    // Found some after all: a difference from the book of 0, recounted.
    const found = await completed(0, MECHANIC, [code]);
    await db.execute(sql`update material_counts set quantity = 2 where stock_count_id = ${found}`);
    expect(await rowOf(found)).toMatchObject({ has_differences: true });
    const recount = await api(SUPERVISOR, 'POST', '/my_stock_count/recount', { stockCountId: found });
    expect(recount.statusCode, recount.body).toBe(201);
    expect(recount.json()).toMatchObject({ total_lines: 1 });
  });

  it('refuses an edit or a cancel made on a count another planner changed since it was shown (decision 0068); a caller naming nothing works as before', async () => {
    const res = await api(SUPERVISOR, 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, conductedBy: MECHANIC });
    expect(res.statusCode, res.body).toBe(201);
    const shown = res.json() as Row;
    const id = shown.id;
    const expected = { conductedBy: shown.conducted_by, workCenter: shown.work_center, shouldBeDoneAt: shown.should_be_done_at, status: shown.status };
    const edit = (who: string, body: Record<string, unknown>) => api(who, 'PUT', '/my_stock_count', { stockCountId: id, ...body });
    const stored = async () =>
      rowsOf(await product.database.db.execute(sql`select status, conducted_by, should_be_done_at::text as deadline from stock_counts where id = ${id}`))[0];

    // Another planner sets a deadline (naming nothing: as before, it goes).
    const other = await edit(STOCK_ADMIN, { shouldBeDoneAt: '2099-12-01' });
    expect(other.statusCode, other.body).toBe(200);
    // This planner's edit, opened before, would overwrite it unseen: refused, nothing written.
    const stale = await edit(SUPERVISOR, { shouldBeDoneAt: '2099-11-01', expected });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'countChangedMeanwhile', params: { id } });
    expect(stale.json().message).toContain('changed by someone else');
    expect(await stored()).toMatchObject({ deadline: '2099-12-01' });
    // Made on the count as it is now, it goes (an e-mail is compared whatever its case).
    const now = { ...expected, conductedBy: MECHANIC.toUpperCase(), shouldBeDoneAt: '2099-12-01' };
    const fresh = await edit(SUPERVISOR, { shouldBeDoneAt: '2099-11-01', expected: now });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json()).toMatchObject({ should_be_done_at: '2099-11-01' });

    // The mechanic starts counting while the planner's Cancel dialog shows the count not started.
    const lines = (await api(MECHANIC, 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500`)).json().material_counts as Array<{ id: number }>;
    const counted = await api(MECHANIC, 'PUT', '/my_material_count', { modifiedMaterials: [{ id: lines[0]!.id, quantity: 1 }] });
    expect(counted.statusCode, counted.body).toBe(200);
    const cancelStale = await edit(SUPERVISOR, { status: 'cancelled', expected: { status: 'initiated' } });
    expect(cancelStale.statusCode).toBe(409);
    expect(cancelStale.json()).toMatchObject({ code: 'countChangedMeanwhile', params: { id } });
    expect(await stored()).toMatchObject({ status: 'in_progress' });
    // Another planner hands it to someone else meanwhile: an edit naming the counter shown before is refused too.
    await product.database.db.execute(sql`update stock_counts set conducted_by = ${SUPERVISOR} where id = ${id}`);
    const reassigned = await edit(SUPERVISOR, { shouldBeDoneAt: '2099-10-01', expected: { ...now, shouldBeDoneAt: '2099-11-01', status: 'in_progress' } });
    expect(reassigned.statusCode).toBe(409);
    expect(reassigned.json().code).toBe('countChangedMeanwhile');
    // Cancelled on the count as shown now, it goes.
    const cancelled = await edit(SUPERVISOR, { status: 'cancelled', expected: { status: 'in_progress' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
  });
});
