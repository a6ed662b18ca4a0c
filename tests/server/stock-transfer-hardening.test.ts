/**
 * Stock transfer requests and the blind stock search, hardened after a review (decisions 0061,
 * 0064), through the real app on PGlite and PostgreSQL: refusals carry a code the app words in
 * the reader's language (the loser of two deciders included); a quantity has at most three
 * decimals; a material leaves only a storage location that stocks it; the list says when it holds
 * only the newest; a blind counter's search keeps the lines they count, whatever their book.
 *
 * Seed facts: mechanic@example.com counts FI01/V001; supervisor@example.com plans FI01 (and does
 * not read its storage locations: sees only their own requests); stock.admin@example.com and the
 * super manager decide FI01's requests; FI01 hides zero stock in a search (DE02 shows it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

/** Rows of a raw query on either engine (node-postgres and PGlite both answer `{ rows }`). */
const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

describe.each(ENGINES)('stock transfer hardening on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  /** Materials of FI01/V001 with every count set: [0] for transfers, [1] for the blind count. */
  let codes: string[] = [];

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['mechanic', 'supervisor', 'stock.admin', 'manager']) tokens[who] = await product.token(`${who}@example.com`);
    codes = (
      await query(
        sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V001' and unrestricted_count > 0 and quality_inspection_count is not null
          and blocked_count is not null and restricted_count is not null and transfer_count is not null order by material_code desc limit 2`,
      )
    ).map((row) => String(row.material_code));
    expect(codes).toHaveLength(2);
  });
  afterAll(async () => product?.close());

  const query = async (statement: ReturnType<typeof sql>) => rowsOf(await product.database.db.execute(statement));
  const api = (who: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) =>
    product.app.inject({ method, url: `/api/v2${url}`, headers: bearer(tokens[who]!), payload });
  const ask = (payload: Record<string, unknown>, who = 'mechanic') =>
    api(who, 'POST', '/stock_transfer_request', { plant: 'FI01', storageLocationFrom: 'V001', storageLocationTo: '0001', materialCode: codes[0], quantity: 2, ...payload });

  it('gives the loser of two deciders a coded 409, worded by the outcome', async () => {
    const asked = await ask({});
    expect(asked.statusCode, asked.body).toBe(201);
    const { id } = asked.json() as { id: string };
    const answers = await Promise.all([
      api('stock.admin', 'PUT', `/stock_transfer_request/${id}/decision`, { status: 'done' }),
      api('manager', 'PUT', `/stock_transfer_request/${id}/decision`, { status: 'declined' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().status as string;
    const loser = answers.find((a) => a.statusCode === 409)!.json();
    expect(loser).toMatchObject({ message: `This transfer request was already marked ${winner}`, code: winner === 'done' ? 'transferAlreadyDone' : 'transferAlreadyDeclined' });
    // An unknown request and another plant's are one coded 404.
    const missing = await api('stock.admin', 'PUT', '/stock_transfer_request/00000000-0000-4000-8000-000000000000/decision', { status: 'done' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'transferNotFound', params: { id: '00000000-0000-4000-8000-000000000000' } });
  });

  it('words every refusal of a request with a code and its parameters', async () => {
    const plant = await ask({ plant: 'DE02', storageLocationFrom: '0001', storageLocationTo: '0002' });
    expect(plant.statusCode).toBe(403);
    expect(plant.json()).toMatchObject({ message: 'You do not see plant DE02', code: 'transferPlantNotYours', params: { plant: 'DE02' } });
    const location = await ask({ storageLocationTo: 'NOPE' });
    expect(location.statusCode).toBe(400);
    expect(location.json()).toMatchObject({ message: 'Storage location NOPE does not exist in plant FI01', code: 'transferLocationUnknown', params: { code: 'NOPE', plant: 'FI01' } });
    const material = await ask({ materialCode: 'NO-SUCH-MATERIAL' });
    expect(material.statusCode).toBe(400);
    expect(material.json()).toMatchObject({ message: 'Unknown material: NO-SUCH-MATERIAL', code: 'transferUnknownMaterial', params: { code: 'NO-SUCH-MATERIAL' } });
  });

  it('refuses a quantity of more than three decimals (stored as 0.0001, it showed as "0 PC")', async () => {
    const before = await query(sql`select count(*)::int as n from stock_transfer_requests`);
    const tiny = await ask({ quantity: 0.0001 });
    expect(tiny.statusCode).toBe(400);
    expect(tiny.json().message).toContain('Quantity may have at most 3 decimals');
    expect((await ask({ quantity: 1.2345 })).statusCode).toBe(400);
    expect(await query(sql`select count(*)::int as n from stock_transfer_requests`)).toEqual(before);
    // A counted quantity's precision is a transfer's too: thousandths (metres, kilograms) pass.
    const fine = await ask({ quantity: 0.001 });
    expect(fine.statusCode, fine.body).toBe(201);
    expect(fine.json().quantity).toBe(0.001);
    expect((await ask({ quantity: 1.5 })).statusCode).toBe(201);
  });

  it('refuses a material the `from` storage location has no stock row of', async () => {
    const [elsewhere] = await query(
      sql`select material_code from stock_items s where plant = 'FI01' and storage_location <> 'V001'
        and not exists (select 1 from stock_items v where v.plant = 'FI01' and v.storage_location = 'V001' and v.material_code = s.material_code) order by material_code limit 1`,
    );
    expect(elsewhere).toBeDefined();
    const code = String(elsewhere!.material_code);
    const before = await query(sql`select count(*)::int as n from stock_transfer_requests where material_code = ${code}`);
    const refused = await ask({ materialCode: code });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: `Material ${code} is not stocked in storage location V001 of plant FI01`,
      code: 'transferNotStockedAtFrom',
      params: { code, location: 'V001', plant: 'FI01' },
    });
    expect(await query(sql`select count(*)::int as n from stock_transfer_requests where material_code = ${code}`)).toEqual(before);
  });

  it('says when the list holds only the newest 100 (has_more), and nothing when it holds them all', async () => {
    // The supervisor does not read FI01's storage locations: their list is their own requests.
    const list = async () => (await api('supervisor', 'GET', '/stock_transfer_request')).json() as { items: unknown[]; has_more?: boolean };
    const [supervisor] = await query(sql`select id from users where email = 'supervisor@example.com'`);
    const insert = (n: number) =>
      query(sql`insert into stock_transfer_requests (user_id, plant, storage_location_from, storage_location_to, material_code, quantity)
        select ${supervisor!.id}, 'FI01', 'V001', '0001', ${codes[0]}, 1 from generate_series(1, ${n})`);
    await query(sql`delete from stock_transfer_requests where user_id = ${supervisor!.id}`);
    await insert(100);
    const all = await list();
    expect(all.items).toHaveLength(100);
    expect(all).not.toHaveProperty('has_more');
    await insert(1);
    const newest = await list();
    expect(newest.items).toHaveLength(100);
    expect(newest.has_more).toBe(true);
  });

  it('lists the unrestricted stock at `from` to who sees it, not to a blind counter of the line nor outside the caller’s plants', async () => {
    // Two materials of its own (the other tests change codes[0] and codes[1]): one to count blind.
    const [open, blind] = (
      await query(sql`select material_code, unrestricted_count from stock_items where plant = 'FI01' and storage_location = 'V001' and unrestricted_count > 0
        order by material_code limit 2`)
    ).map((row) => ({ code: String(row.material_code), unrestricted: Number(row.unrestricted_count) }));
    const asked = (await ask({ materialCode: open!.code, quantity: open!.unrestricted + 1 })).json() as { id: string };
    const created = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: [blind!.code], blind: true, conductedBy: 'mechanic@example.com' });
    expect(created.statusCode, created.body).toBe(201);
    const countId = (created.json() as { id: number }).id;
    const hidden = (await ask({ materialCode: blind!.code })).json() as { id: string };
    // The mechanic's own request of a plant no longer theirs (its stock is not theirs to read).
    const [de02] = await query(sql`select storage_location, material_code from stock_items where plant = 'DE02' order by id limit 1`);
    const [elsewhere] = await query(
      sql`insert into stock_transfer_requests (user_id, plant, storage_location_from, storage_location_to, material_code, quantity)
        select id, 'DE02', ${String(de02!.storage_location)}, 'ZZ01', ${String(de02!.material_code)}, 1 from users where email = 'mechanic@example.com' returning id`,
    );
    try {
      type Row = { id: string; from_unrestricted_count?: number | null };
      const list = async (who: string) => new Map(((await api(who, 'GET', '/stock_transfer_request')).json().items as Row[]).map((row) => [row.id, row]));
      const mechanic = await list('mechanic');
      expect(mechanic.get(asked.id)).toMatchObject({ from_unrestricted_count: open!.unrestricted });
      // Counted blind by the caller: the counts would tell the hidden book quantity (decision 0064).
      expect(mechanic.get(hidden.id)).toBeDefined();
      expect(mechanic.get(hidden.id)).not.toHaveProperty('from_unrestricted_count');
      expect(mechanic.get(String(elsewhere!.id))).toBeDefined();
      expect(mechanic.get(String(elsewhere!.id))).not.toHaveProperty('from_unrestricted_count');
      // The deciders see both lines' stock (they do not count blind); the super manager every plant's.
      for (const who of ['stock.admin', 'manager']) {
        const decider = await list(who);
        expect(decider.get(asked.id), who).toMatchObject({ from_unrestricted_count: open!.unrestricted });
        expect(decider.get(hidden.id), who).toMatchObject({ from_unrestricted_count: blind!.unrestricted });
      }
      expect((await list('manager')).get(String(elsewhere!.id))).toHaveProperty('from_unrestricted_count');
      // A count missing is said as unknown (null), not as 0.
      await query(sql`update stock_items set unrestricted_count = null where plant = 'FI01' and storage_location = 'V001' and material_code = ${open!.code}`);
      expect((await list('stock.admin')).get(asked.id)).toMatchObject({ from_unrestricted_count: null });
    } finally {
      await query(sql`update stock_items set unrestricted_count = ${open!.unrestricted} where plant = 'FI01' and storage_location = 'V001' and material_code = ${open!.code}`);
      await query(sql`update stock_counts set status = 'cancelled' where id = ${countId}`);
      await query(sql`delete from stock_transfer_requests where id in (${asked.id}, ${hidden.id}, ${String(elsewhere!.id)})`);
    }
  });

  it('keeps a line the caller counts blind in a search when its book is 0 (its absence told the book)', async () => {
    const code = codes[1]!;
    const created = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: [code], blind: true, conductedBy: 'mechanic@example.com' });
    expect(created.statusCode, created.body).toBe(201);
    const countId = (created.json() as { id: number }).id;
    await query(
      sql`update stock_items set unrestricted_count = 0, quality_inspection_count = 0, blocked_count = 0, restricted_count = 0, transfer_count = 0
        where plant = 'FI01' and storage_location = 'V001' and material_code = ${code}`,
    );
    type Stock = { storage_location: string; material_code: string; total_quantity: number | null; blind_count_id?: number };
    const search = async (who: string, type: string) =>
      ((await api(who, 'GET', `/${type}?page=1&maxResults=100&query=${code}`)).json().stock_items as Stock[]).filter((row) => row.storage_location === 'V001' && row.material_code === code);
    // As the unsearched list shows it: a blind count, whatever the book.
    for (const type of ['my_stock', 'my_plant_stock']) {
      const [row] = await search('mechanic', type);
      expect(row, type).toMatchObject({ total_quantity: null, blind_count_id: countId });
    }
    // Its planner reads the book: the zero-stock rule holds for them as for everyone else.
    expect(await search('supervisor', 'my_plant_stock')).toEqual([]);
    // Once the count is closed, the line is an ordinary zero-stock row again.
    await query(sql`update stock_counts set status = 'cancelled' where id = ${countId}`);
    expect(await search('mechanic', 'my_plant_stock')).toEqual([]);
  });
});
