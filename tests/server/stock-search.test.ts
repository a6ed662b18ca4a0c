/**
 * Stock search (§5) is answered by PostgreSQL through its indexes, with counts exact up to
 * LIST_COUNT_CAP and a lower bound above it (docs/decisions/0021; the bit strings of decision 0012
 * are retired). These tests hold it to the plain definition, on both engines:
 * - my_plant_stock against one straightforward SQL query (material code or description, bin,
 *   storage location; zero totals hidden outside show_zero_stock_material_plants), page by page
 *   with a page size that straddles locations: same rows, same order, same totals;
 * - every scope (my stock, my team stock, my plant stock) against its own unsearched list,
 *   filtered here in JavaScript;
 * - the answers through inserts, quantity changes, moves, new materials and deletes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { LIST_COUNT_CAP } from '../../src/contract/common';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

// These walk every page of every caller / term through the API: minutes on a loaded 2-core machine.
vi.setConfig({ testTimeout: 300_000 });

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

interface Item {
  id: number;
  plant: string;
  storage_location: string;
  material_code: string;
  material_description_english: string;
  bin: string | null;
  total_quantity: number | null;
}
interface Page {
  total: number;
  pages: number;
  page: number;
  has_next: boolean;
  storage_location_count: number;
  counts_capped: string[];
  stock_items: Item[];
}

const PAGE_SIZE = 61; // divides no location's size: pages straddle location boundaries

describe.each(ENGINES)('stock search on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  let zeroPlants: string[] = [];
  let terms: string[] = [];

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['mechanic', 'supervisor', 'cs.admin', 'manager']) tokens[who] = await product.token(`${who}@example.com`);
    zeroPlants = rowsOf(
      await product.database.db.execute(sql`select plant from allowed_plants where parameter = 'show_zero_stock_material_plants'`),
    ).map((r) => String(r.plant));
    expect(zeroPlants.length).toBeGreaterThan(0);
    const one = async (query: ReturnType<typeof sql>) => String(rowsOf(await product.database.db.execute(query))[0]!.v);
    terms = [
      await one(sql`select material_code as v from stock_items order by id limit 1`), // a full material code
      await one(sql`select left(material_code, 3) as v from stock_items order by id desc limit 1`), // part of codes
      'door', // part of descriptions
      'DOOR ', // other case, trailing space (trimmed)
      await one(sql`select bin as v from stock_items where bin is not null order by id limit 1`), // a bin
      'V001', // a storage location (also inside other codes? no: exact)
      '0001', // a storage location that is also part of material codes
      'zzz-nothing', // nothing
      '%', // LIKE wildcards are literal
      '_',
      '10%',
      'a_b',
      '\\',
      'a', // one letter: most of everything
      '-0', // bins only
    ];
  });
  afterAll(async () => product?.close());

  const get = async (who: string, url: string) => {
    const res = await product.app.inject({ method: 'GET', url: `/api/v2${url}`, headers: bearer(tokens[who]!) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };

  /** Every page of a list, checking the envelope on each. */
  const allPages = async (who: string, type: string, query?: string) => {
    const items: Item[] = [];
    let first: Page | undefined;
    for (let page = 1; ; page += 1) {
      const q = `&query=${encodeURIComponent(query ?? "")}`;
      const body = await get(who, `/${type}?maxResults=${PAGE_SIZE}&page=${page}${q}`);
      first ??= body;
      expect(body.total).toBe(first.total);
      expect(body.storage_location_count).toBe(first.storage_location_count);
      items.push(...body.stock_items);
      if (!body.has_next) break;
    }
    return { items, total: first.total, pages: first.pages, locations: first.storage_location_count, capped: first.counts_capped };
  };

  /** The plain definition, one query: what my_plant_stock?query= must answer, in list order. */
  const reference = async (term: string, plants: string[] | null) => {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const result = await product.database.db.execute(sql`
      select s.id, s.plant, s.storage_location from stock_items s join materials m on m.code = s.material_code
      where (m.code ilike ${pattern} or m.description_english ilike ${pattern} or s.bin ilike ${pattern} or s.storage_location = ${term})
        and (coalesce(s.unrestricted_count + s.quality_inspection_count + s.blocked_count + s.restricted_count + s.transfer_count, 1) <> 0
             or s.plant in (select plant from allowed_plants where parameter = 'show_zero_stock_material_plants'))
        and (${plants === null} or s.plant = any(${sql.param(plants ?? [])}::text[]))
      order by s.plant, s.storage_location, s.material_code`);
    const rows = rowsOf(result);
    return { ids: rows.map((r) => Number(r.id)), locations: new Set(rows.map((r) => `${String(r.plant)}/${String(r.storage_location)}`)).size };
  };

  const expectSame = async (who: string, term: string, plants: string[] | null) => {
    const expected = await reference(term.trim(), plants);
    const got = await allPages(who, 'my_plant_stock', term);
    expect(got.items.map((i) => i.id), `"${term}"`).toEqual(expected.ids);
    expectCounts(got, expected.ids.length, expected.locations, term);
  };

  /** Exact up to the cap; above it the cap, named in counts_capped, and a lower bound of the locations. */
  const expectCounts = (got: Awaited<ReturnType<typeof allPages>>, rows: number, locations: number, term: string) => {
    if (rows <= LIST_COUNT_CAP) {
      expect(got.total, `"${term}"`).toBe(rows);
      expect(got.locations, `"${term}"`).toBe(locations);
      expect(got.capped, `"${term}"`).toEqual([]);
      expect(got.pages).toBe(Math.max(1, Math.ceil(rows / PAGE_SIZE)));
    } else {
      expect(got.total, `"${term}"`).toBe(LIST_COUNT_CAP);
      expect(got.capped, `"${term}"`).toEqual(['total', 'storage_location_count']);
      expect(got.locations, `"${term}"`).toBeGreaterThan(0);
      expect(got.locations, `"${term}"`).toBeLessThanOrEqual(locations);
    }
  };

  it('answers my_plant_stock searches exactly as the plain query, for every kind of term', async () => {
    for (const term of terms) await expectSame('manager', term, null);
    // The terms do find things: a code, a description word, a bin and a location each match.
    for (const term of [terms[0]!, 'door', terms[4]!, 'V001']) expect((await reference(term, null)).ids.length).toBeGreaterThan(0);
    expect((await reference('zzz-nothing', null)).ids).toEqual([]);
  });

  it('scopes searches to the plants of plant-scoped users, showing zero stock only where the plant wants it', async () => {
    for (const term of ['door', 'a', '0001', terms[4]!]) {
      await expectSame('supervisor', term, ['FI01']);
      await expectSame('cs.admin', term, ['DE02']);
    }
    const de = await allPages('cs.admin', 'my_plant_stock', 'a');
    expect(zeroPlants).toContain('DE02');
    expect(de.items.some((i) => i.total_quantity === 0)).toBe(true);
    const fi = await allPages('supervisor', 'my_plant_stock', 'a');
    expect(fi.items.some((i) => i.total_quantity === 0)).toBe(false);
  });

  it('searches each scope as filtering its unsearched list would', async () => {
    const matches = (item: Item, term: string) => {
      const t = term.toLowerCase();
      const has = (value: string | null) => value !== null && value.toLowerCase().includes(t);
      const named = has(item.material_code) || has(item.material_description_english) || has(item.bin) || item.storage_location === term;
      return named && (item.total_quantity !== 0 || zeroPlants.includes(item.plant));
    };
    const cases: Array<[string, string]> = [
      ['mechanic', 'my_stock'],
      ['mechanic', 'my_team_stock'],
      ['supervisor', 'my_team_stock'],
      ['cs.admin', 'my_plant_stock'],
    ];
    for (const [who, type] of cases) {
      const everything = (await allPages(who, type)).items;
      expect(everything.length, `${who} ${type}`).toBeGreaterThan(0);
      const own = everything[0]!;
      for (const term of [...terms, own.storage_location, own.material_code, own.bin ?? 'zzz']) {
        const expected = everything.filter((item) => matches(item, term.trim()));
        const got = await allPages(who, type, term);
        expect(got.items.map((i) => i.id), `${who} ${type} "${term}"`).toEqual(expected.map((i) => i.id));
        expectCounts(got, expected.length, new Set(expected.map((i) => `${i.plant}/${i.storage_location}`)).size, term);
      }
    }
  });

  it('answers a page past the end with the totals and no rows', async () => {
    const first = await get('manager', `/my_plant_stock?query=door&maxResults=${PAGE_SIZE}&page=1`);
    expect(first.total).toBeGreaterThan(0);
    const beyond = await get('manager', `/my_plant_stock?query=door&maxResults=${PAGE_SIZE}&page=${first.pages + 5}`);
    expect(beyond).toMatchObject({ total: first.total, storage_location_count: first.storage_location_count, stock_items: [] });
  });

  it('follows the rows through inserts, quantity changes, moves, new materials and deletes', async () => {
    const db = product.database.db;
    const check = async () => {
      for (const term of ['door', 'ZZ9', 'ZZ99', 'NEWPART', terms[0]!]) await expectSame('manager', term, null);
    };
    await check();
    // A new location, half of it zero stock.
    await db.execute(sql`insert into stock_items (plant, storage_location, material_code, unrestricted_count, quality_inspection_count, blocked_count, restricted_count, transfer_count, bin)
      select 'FI01', 'ZZ99', material_code, (row_number() over (order by material_code)) % 2, 0, 0, 0, 0, 'ZZ9-' || material_code
      from stock_items where plant = 'FI01' and storage_location = 'V001'`);
    await check();
    // Quantities to zero and back, a null count (shown), a total of 0 from +1 and -1.
    await db.execute(sql`update stock_items set unrestricted_count = 0 where storage_location = 'ZZ99' and material_code < '5'`);
    await db.execute(sql`update stock_items set unrestricted_count = 3 where storage_location = 'ZZ99' and material_code >= 'K'`);
    await db.execute(sql`update stock_items set transfer_count = null where storage_location = 'ZZ99' and material_code like '%1'`);
    await db.execute(sql`update stock_items set unrestricted_count = 1, blocked_count = -1, transfer_count = 0 where storage_location = 'ZZ99' and material_code like '%2'`);
    await check();
    // A move to another location (and plant), and a statement touching nothing the bits see.
    await db.execute(sql`update stock_items set storage_location = 'ZZ98' where plant = 'FI01' and storage_location = 'ZZ99' and material_code < '3'`);
    await db.execute(sql`update stock_items set plant = 'DE02' where plant = 'FI01' and storage_location = 'ZZ98' and material_code < '2'`);
    await db.execute(sql`update stock_items set bin = bin || 'x' where storage_location = 'ZZ99'`);
    await check();
    // A material never stocked before gets a bit; a row changing its material moves bits.
    await db.execute(sql`insert into materials (code, description_english, unit) values ('NEWPART1', 'New part for the bits', 'PC'), ('NEWPART2', 'Other new part', 'PC')`);
    await db.execute(sql`insert into stock_items (plant, storage_location, material_code, unrestricted_count, quality_inspection_count, blocked_count, restricted_count, transfer_count)
      values ('FR03', 'ZZ97', 'NEWPART1', 2, 0, 0, 0, 0)`);
    await db.execute(sql`update stock_items set material_code = 'NEWPART2' where storage_location = 'ZZ97'`);
    await check();
    expect((await allPages('manager', 'my_plant_stock', 'newpart')).items.map((i) => i.material_code)).toEqual(['NEWPART2']);
    // Deletes, whole locations and single rows.
    await db.execute(sql`delete from stock_items where storage_location in ('ZZ98', 'ZZ97')`);
    await db.execute(sql`delete from stock_items where storage_location = 'ZZ99' and material_code like '%3'`);
    await check();
    await db.execute(sql`delete from stock_items where storage_location = 'ZZ99'`);
    await check();
  });

  it('caps its counts at LIST_COUNT_CAP and pages on past them', async () => {
    const db = product.database.db;
    // More matching rows than the cap: a location of its own, every row named by its bin.
    await db.execute(sql`insert into materials (code, description_english, unit)
      select 'CAP' || lpad(g::text, 5, '0'), 'Cap fixture part', 'PC' from generate_series(1, ${LIST_COUNT_CAP + 30}) g`);
    await db.execute(sql`insert into stock_items (plant, storage_location, material_code, unrestricted_count, quality_inspection_count, blocked_count, restricted_count, transfer_count, bin)
      select 'FI01', 'ZCAP', 'CAP' || lpad(g::text, 5, '0'), 1, 0, 0, 0, 0, 'CAPBIN' from generate_series(1, ${LIST_COUNT_CAP + 30}) g`);
    const first = await get('manager', `/my_plant_stock?query=capbin&maxResults=${PAGE_SIZE}&page=1`);
    expect(first).toMatchObject({ total: LIST_COUNT_CAP, storage_location_count: 1, counts_capped: ['total', 'storage_location_count'], has_next: true });
    const got = await allPages('manager', 'my_plant_stock', 'capbin');
    expect(got.items).toHaveLength(LIST_COUNT_CAP + 30);
    const unsearched = await get('manager', `/my_plant_stock?maxResults=${PAGE_SIZE}&query=&page=1`);
    expect(unsearched.counts_capped).toEqual([]);
    await db.execute(sql`delete from stock_items where storage_location = 'ZCAP'`);
  });
});
