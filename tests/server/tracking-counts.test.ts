/**
 * The tracking list without a search term reads the orders' item summary (migrations 0006, 0012,
 * 0015; docs/decisions/0021), with and without terms PostgreSQL counts and pages (capped counts).
 * These tests hold that path to an
 * independent reading of the raw tables — every caller, tab and page, in order — before and after
 * the data moves under it: items inserted, delivered, deleted; orders moved to another day or
 * plant, inserted and deleted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { rowsOf } from '../../server/db/client';
import { orderItems, orders } from '../../server/db/schema';
import { isActionPoint, isArrived } from '../../src/domain/tracking';
import { LIST_COUNT_CAP } from '../../src/contract/common';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { commonTerms, walkedTerms } from '../../server/repositories/tracking';
import { parseSearch } from '../../src/domain/search-language';

// These walk every page of every caller / term through the API: minutes on a loaded 2-core machine.
vi.setConfig({ testTimeout: 300_000 });

type Order = typeof orders.$inferSelect;
type Item = typeof orderItems.$inferSelect;

const asFields = (item: Item) => ({ ...item, goodsReceiptPostedAt: item.goodsReceiptPostedAt?.toISOString() ?? null });

/** Who sees which order (§6), written out independently of the repository. */
const SCOPES: Record<string, (order: Order) => boolean> = {
  manager: () => true,
  viewer: () => true,
  'stock.admin': (order) => ['FI01', 'DE02'].includes(order.plant) || order.userEmail === 'stock.admin@example.com',
  'cs.admin': (order) => order.plant === 'DE02' || order.userEmail === 'cs.admin@example.com',
  mechanic: (order) =>
    (order.plant === 'FI01' && order.workCenter === 'FI01M001') || order.shipToParty === '0050010001' || order.userEmail === 'mechanic@example.com',
};

/**
 * Two transactions on one order at once (PostgreSQL): the first runs `held` and keeps its
 * transaction open while the second runs `waiting` (which waits for the first's lock on the
 * order's row); then the first commits and the second finishes.
 */
async function whileFirstHolds(connectionString: string, held: string, waiting: string): Promise<void> {
  const first = new pg.Client({ connectionString });
  const second = new pg.Client({ connectionString });
  await Promise.all([first.connect(), second.connect()]);
  try {
    await first.query('begin');
    await first.query(held);
    const blocked = second.query(waiting);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.query('commit');
    await blocked;
  } finally {
    await Promise.all([first.end(), second.end()]);
  }
}

describe.each(ENGINES)('tracking list from the order summary on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of Object.keys(SCOPES)) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => product?.close());

  const db = () => product.database.db;

  /** Every page of one tab, as the API answers it. */
  const pages = async (who: string, status: string, maxResults: number, query = '') => {
    const ids: string[] = [];
    let first: Record<string, unknown> | undefined;
    for (let page = 1; page < 500; page++) {
      const res = await product.app.inject({
        method: 'GET',
        url: `/parts/v1/users/me/tracking-status?status=${status}&page=${page}&maxResults=${maxResults}&query=${encodeURIComponent(query)}&myOrders=false`,
        headers: bearer(tokens[who]!),
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { trackingStatus: { orderId: string; items: { id: number }[] }[]; has_next: boolean; pages: number };
      first ??= body;
      ids.push(...body.trackingStatus.map((row) => row.orderId));
      if (!body.has_next) {
        expect(body.pages).toBe(page);
        return { ids, first: first as Record<string, number> };
      }
    }
    throw new Error('no last page');
  };

  /** The same from the raw tables: orders with a matching item, newest change first. */
  const expected = async (who: string, status: string, matches: (item: Item) => boolean = () => true) => {
    const all = (await db().select().from(orders)).filter(SCOPES[who]!);
    const items = (await db().select().from(orderItems).orderBy(asc(orderItems.orderId))).filter(matches);
    const itemsOf = new Map<string, Item[]>();
    for (const item of items) itemsOf.set(item.orderId, [...(itemsOf.get(item.orderId) ?? []), item]);
    const having = (predicate: (item: Item) => boolean) => all.filter((order) => (itemsOf.get(order.id) ?? []).some(predicate));
    const tab = { all: having(() => true), arrived: having((i) => isArrived(asFields(i))), incoming: having((i) => !isArrived(asFields(i))) }[status]!;
    tab.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return {
      ids: tab.map((order) => order.id),
      counts: {
        count_total: having(() => true).length,
        count_arrived: having((i) => isArrived(asFields(i))).length,
        count_incoming: having((i) => !isArrived(asFields(i))).length,
        count_action_point: having(isActionPoint).length,
      },
    };
  };

  const checkEveryone = async (maxResults: number) => {
    for (const who of Object.keys(SCOPES)) {
      for (const status of ['all', 'arrived', 'incoming']) {
        const want = await expected(who, status);
        const got = await pages(who, status, maxResults);
        expect(got.first, `${who} ${status}`).toMatchObject(want.counts);
        expect(got.ids, `${who} ${status}`).toEqual(want.ids);
      }
    }
  };

  it('pages every caller and tab in the order and with the counts of the raw tables', async () => {
    await checkEveryone(7);
  });

  it('free text finds through the trigram indexes exactly what a column-by-column match finds', async () => {
    const all = await db().select().from(orders);
    const items = await db().select().from(orderItems);
    const sample = items[17]!;
    const order = all.find((o) => o.id === sample.orderId)!;
    const queries = [
      'rope',
      sample.materialCode.toLowerCase(),
      sample.materialDescription.split(' ')[0]!.toUpperCase(),
      order.equipmentDescription!.split(' ').slice(-1)[0]!,
      order.id,
      `${sample.materialDescription.split(' ')[0]!} ${order.id.slice(0, 4)}`,
      'a_b',
      'kg,',
      'zzzz-nothing',
    ];
    const text = (values: (string | null)[]) => values.map((v) => (v ?? '').toLowerCase());
    const matches = (item: Item, o: Order, term: string) =>
      [
        ...text([o.id, o.equipmentCode, o.equipmentDescription, o.destination]),
        ...text([item.materialCode, item.materialDescription, item.reservationDocNumber, item.purchaseOrderDocNumber, item.salesOrderDocNumber, item.deliveryOrderDocNumber, item.trackingNumber]),
      ].some((value) => value.includes(term.toLowerCase()));
    for (const who of ['manager', 'mechanic']) {
      for (const query of queries) {
        const visible = new Map(all.filter(SCOPES[who]!).map((o) => [o.id, o]));
        const hit = items.filter((item) => visible.has(item.orderId) && query.split(' ').every((term) => matches(item, visible.get(item.orderId)!, term)));
        const ordersOf = (predicate: (item: Item) => boolean) =>
          [...new Set(hit.filter(predicate).map((item) => item.orderId))]
            .map((id) => visible.get(id)!)
            .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : -1))
            .map((o) => o.id);
        const orderIds = ordersOf(() => true);
        // An order is in a tab when one of its MATCHING items is (not merely one of its items).
        const tabs = { arrived: ordersOf((i) => isArrived(asFields(i))), incoming: ordersOf((i) => !isArrived(asFields(i))) };
        const got: string[] = [];
        let itemsSeen = 0;
        for (let page = 1; ; page++) {
          const res = await product.app.inject({
            method: 'GET',
            url: `/parts/v1/users/me/tracking-status?status=all&page=${page}&maxResults=50&query=${encodeURIComponent(query)}&myOrders=false`,
            headers: bearer(tokens[who]!),
          });
          expect(res.statusCode, res.body).toBe(200);
          const body = res.json() as { count_total: number; has_next: boolean; trackingStatus: { orderId: string; items: unknown[] }[] };
          expect(body, `${who} "${query}"`).toMatchObject({
            count_total: orderIds.length,
            count_arrived: tabs.arrived.length,
            count_incoming: tabs.incoming.length,
            count_action_point: ordersOf(isActionPoint).length,
          });
          got.push(...body.trackingStatus.map((row) => row.orderId));
          itemsSeen += body.trackingStatus.reduce((n, row) => n + row.items.length, 0);
          if (!body.has_next) break;
        }
        expect(got, `${who} "${query}"`).toEqual(orderIds);
        for (const status of ['arrived', 'incoming'] as const) {
          const res = await product.app.inject({
            method: 'GET',
            url: `/parts/v1/users/me/tracking-status?status=${status}&maxResults=100&query=${encodeURIComponent(query)}&page=1&myOrders=false`,
            headers: bearer(tokens[who]!),
          });
          const ids = (res.json() as { trackingStatus: { orderId: string }[] }).trackingStatus.map((row) => row.orderId);
          expect(ids, `${who} "${query}" ${status}`).toEqual(tabs[status].slice(0, 100));
        }
        expect(itemsSeen, `${who} "${query}" items`).toBe(hit.length);
      }
    }
  });

  it('keeps the summary and the count tables equal to the items and orders as they change', async () => {
    const [some] = await db().select().from(orders).where(eq(orders.plant, 'FI01')).limit(1);
    const fiItems = await db().select().from(orderItems).where(eq(orderItems.orderId, some!.id));
    // Items delivered, then one deleted; an order moved to an old day and to another plant.
    await db().update(orderItems).set({ deliveryStatus: 'Delivered' }).where(eq(orderItems.orderId, some!.id));
    await db().delete(orderItems).where(eq(orderItems.id, fiItems[0]!.id));
    const moved = await db().select({ id: orders.id }).from(orders).orderBy(asc(orders.id)).limit(5);
    await db()
      .update(orders)
      .set({ updatedAt: new Date('2026-01-02T23:59:59.999Z') })
      .where(inArray(orders.id, moved.slice(0, 3).map((o) => o.id)));
    await db().update(orders).set({ plant: 'FR03', workCenter: null, plannerGroup: null }).where(eq(orders.id, moved[3]!.id));
    // A new order with two items in one statement each, and an order deleted with its items.
    await db().insert(orders).values({ id: 'ZZ-NEW-1', plant: 'DE02', updatedAt: new Date('2026-11-19T00:00:00.000Z') });
    await db()
      .insert(orderItems)
      .values([
        { orderId: 'ZZ-NEW-1', plant: 'DE02', lineNumber: 10, materialCode: 'M1', materialDescription: 'Door roller Quixote', unit: 'PC', deliveryStatus: 'ToBePickedUp' },
        { orderId: 'ZZ-NEW-1', plant: 'DE02', lineNumber: 20, materialCode: 'M2', materialDescription: 'Rope', unit: 'PC', goodsReceiptPostedAt: new Date() },
      ]);
    await db().delete(orders).where(eq(orders.id, moved[4]!.id));
    // An order without items is listed nowhere.
    await db().insert(orders).values({ id: 'ZZ-EMPTY', plant: 'DE02' });

    await checkEveryone(9);

    // Free text follows inserts, updates and deletes of items, tab by tab: "quixote" matches only
    // ZZ-NEW-1's first item (at an access point, not arrived), "zz-new-1" the order's own text (so
    // all its items); the order's items are mixed (one arrived, one not).
    const search = async (query: string, status = 'all') =>
      (
        await product.app.inject({
          method: 'GET',
          url: `/parts/v1/users/me/tracking-status?status=${status}&maxResults=100&query=${encodeURIComponent(query)}&page=1&myOrders=false`,
          headers: bearer(tokens.manager!),
        })
      ).json() as { count_total: number; count_arrived: number; count_incoming: number; count_action_point: number; trackingStatus: { orderId: string }[] };
    expect(await search('quixote')).toMatchObject({ count_total: 1, count_arrived: 0, count_incoming: 1, count_action_point: 1 });
    expect((await search('quixote', 'arrived')).trackingStatus).toEqual([]);
    expect((await search('quixote', 'incoming')).trackingStatus.map((row) => row.orderId)).toEqual(['ZZ-NEW-1']);
    expect(await search('zz-new-1')).toMatchObject({ count_total: 1, count_arrived: 1, count_incoming: 1, count_action_point: 1 });
    await db().update(orderItems).set({ materialDescription: 'Zeppelin hoist' }).where(and(eq(orderItems.orderId, 'ZZ-NEW-1'), eq(orderItems.lineNumber, 20)));
    expect(await search('zeppelin')).toMatchObject({ count_total: 1, count_arrived: 1, count_incoming: 0, count_action_point: 0 });
    await db().delete(orderItems).where(and(eq(orderItems.orderId, 'ZZ-NEW-1'), eq(orderItems.lineNumber, 20)));
    expect((await search('zeppelin')).count_total).toBe(0);
    // The item summary the triggers kept equals a recount from the items, by the TypeScript rules.
    const allItems = await db().select().from(orderItems);
    const want = new Map<string, [number, number, number]>();
    for (const item of allItems) {
      const [n, a, p] = want.get(item.orderId) ?? [0, 0, 0];
      want.set(item.orderId, [n + 1, a + (isArrived(asFields(item)) ? 1 : 0), p + (isActionPoint(item) ? 1 : 0)]);
    }
    for (const order of await db().select().from(orders)) {
      expect([order.itemCount, order.arrivedItems, order.actionPointItems], order.id).toEqual(want.get(order.id) ?? [0, 0, 0]);
    }
  });

  it('keeps each order\'s search_text current as its own text and its items\' text change (decision 0031)', async () => {
    const SEP = '\x1f';
    const ids = async (query: string, status = 'all') => {
      const res = await product.app.inject({
        method: 'GET',
        url: `/parts/v1/users/me/tracking-status?status=${status}&maxResults=100&query=${encodeURIComponent(query)}&page=1&myOrders=false`,
        headers: bearer(tokens.manager!),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { trackingStatus: { orderId: string }[] }).trackingStatus.map((row) => row.orderId);
    };
    await db().insert(orders).values([
      { id: 'ZZ-TEXT-1', plant: 'DE02', equipmentDescription: 'Kestrel lift' },
      { id: 'ZZ-TEXT-2', plant: 'DE02' },
    ]);
    await db()
      .insert(orderItems)
      .values([
        { orderId: 'ZZ-TEXT-1', plant: 'DE02', lineNumber: 10, materialCode: 'M1', materialDescription: 'Marmot gasket', unit: 'PC', trackingNumber: 'TRK-OCELOT' },
        { orderId: 'ZZ-TEXT-1', plant: 'DE02', lineNumber: 20, materialCode: 'M2', materialDescription: 'Plain washer', unit: 'PC' },
      ]);
    expect(await ids('marmot')).toEqual(['ZZ-TEXT-1']);
    expect(await ids('trk-ocelot')).toEqual(['ZZ-TEXT-1']);
    // An item's text changes: the new words find the order, the old ones no longer do.
    await db().update(orderItems).set({ materialDescription: 'Wombat seal', trackingNumber: null }).where(and(eq(orderItems.orderId, 'ZZ-TEXT-1'), eq(orderItems.lineNumber, 10)));
    expect(await ids('marmot')).toEqual([]);
    expect(await ids('ocelot')).toEqual([]);
    expect(await ids('wombat')).toEqual(['ZZ-TEXT-1']);
    expect(await ids('wo')).toContain('ZZ-TEXT-1');
    // A status change leaves the text as it was (and the tabs follow the item).
    await db().update(orderItems).set({ deliveryStatus: 'Delivered' }).where(and(eq(orderItems.orderId, 'ZZ-TEXT-1'), eq(orderItems.lineNumber, 10)));
    expect(await ids('wombat', 'arrived')).toEqual(['ZZ-TEXT-1']);
    expect(await ids('wombat', 'incoming')).toEqual([]);
    // The order's own text changes: every item matches the new words.
    await db().update(orders).set({ equipmentDescription: 'Heron escalator' }).where(eq(orders.id, 'ZZ-TEXT-1'));
    expect(await ids('kestrel')).toEqual([]);
    expect(await ids('heron washer')).toEqual(['ZZ-TEXT-1']);
    expect(await ids('heron', 'incoming')).toEqual(['ZZ-TEXT-1']);
    // An item moves to another order, then is deleted.
    await db().update(orderItems).set({ orderId: 'ZZ-TEXT-2' }).where(and(eq(orderItems.orderId, 'ZZ-TEXT-1'), eq(orderItems.lineNumber, 10)));
    expect(await ids('wombat')).toEqual(['ZZ-TEXT-2']);
    expect(await ids('heron wombat')).toEqual([]);
    await db().delete(orderItems).where(eq(orderItems.orderId, 'ZZ-TEXT-2'));
    expect(await ids('wombat')).toEqual([]);

    // Every order's column equals its text joined again from the raw rows (lower() in SQL, the
    // database's own case folding, which ILIKE uses too).
    const allItems = await db().select().from(orderItems).orderBy(asc(orderItems.orderId), asc(orderItems.lineNumber), asc(orderItems.id));
    const itemText = new Map<string, string>();
    for (const item of allItems) {
      const fields = [item.materialCode, item.materialDescription, item.reservationDocNumber, item.purchaseOrderDocNumber, item.salesOrderDocNumber, item.deliveryOrderDocNumber, item.trackingNumber];
      itemText.set(item.orderId, `${itemText.get(item.orderId) ?? ''}${SEP}${fields.map((value) => value ?? '').join(SEP)}`);
    }
    const rows = (await db().select().from(orders)).map((order) => ({
      id: order.id,
      t: [order.id, order.equipmentCode, order.equipmentDescription, order.destination].map((value) => value ?? '').join(SEP) + (itemText.get(order.id) ?? ''),
    }));
    const [stale] = rowsOf<{ n: number }>(
      await db().execute(sql`select count(*)::int as n from ${orders} o join jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, t text) on x.id = o.id
        where o.search_text is distinct from lower(x.t)`),
    );
    expect(Number(stale!.n)).toBe(0);
    await db().delete(orders).where(inArray(orders.id, ['ZZ-TEXT-1', 'ZZ-TEXT-2']));
  });

  it.runIf(engine === 'postgres')('composes the summaries of two transactions writing items of one order at once', async () => {
    const connectionString = product.database.databaseUrl;
    if (!connectionString) throw new Error('PostgreSQL expected');
    await db().insert(orders).values({ id: 'ZZ-RACE-1', plant: 'DE02' });
    await db().insert(orderItems).values({ orderId: 'ZZ-RACE-1', plant: 'DE02', lineNumber: 10, materialCode: 'M1', materialDescription: 'Race one', unit: 'PC' });
    // A adds a line and holds its transaction open; B meanwhile receives line 10 (waits for A's
    // lock on the order's row). Each recounting from its own snapshot lost the other's change.
    await whileFirstHolds(connectionString, `insert into order_items (order_id, line_number, material_code, material_description, unit) values ('ZZ-RACE-1', 20, 'M2', 'Race two', 'PC')`, `update order_items set goods_receipt_posted_at = now() where order_id = 'ZZ-RACE-1' and line_number = 10`);
    const [summary] = await db()
      .select({ items: orders.itemCount, arrived: orders.arrivedItems, actionPoint: orders.actionPointItems })
      .from(orders)
      .where(eq(orders.id, 'ZZ-RACE-1'));
    expect(summary).toEqual({ items: 2, arrived: 1, actionPoint: 0 });
    await checkEveryone(50);
  });

  it('keeps an inserted order\'s given search text only when it begins with the order\'s own; its items then put it right (migration 0020)', async () => {
    const SEP = '\x1f';
    await db()
      .insert(orders)
      .values([
        // Not the order's own text: replaced by it.
        { id: 'ZZ-GIVEN-1', plant: 'DE02', equipmentDescription: 'Osprey lift', searchText: 'something else' },
        // Its own text and a wrong text of items: kept until the items come, then their text.
        { id: 'ZZ-GIVEN-2', plant: 'DE02', equipmentDescription: 'Osprey lift', searchText: `zz-given-2${SEP}${SEP}osprey lift${SEP}${SEP}wrong`, itemCount: 5 },
      ]);
    const textOf = async (id: string) => (await db().select({ text: orders.searchText, n: orders.itemCount }).from(orders).where(eq(orders.id, id)))[0];
    expect(await textOf('ZZ-GIVEN-1')).toEqual({ text: `zz-given-1${SEP}${SEP}osprey lift${SEP}`, n: 0 });
    expect((await textOf('ZZ-GIVEN-2'))?.text).toContain('wrong');
    await db().insert(orderItems).values({ orderId: 'ZZ-GIVEN-2', plant: 'DE02', lineNumber: 10, materialCode: 'M1', materialDescription: 'Puffin valve', unit: 'PC' });
    expect(await textOf('ZZ-GIVEN-2')).toEqual({ text: `zz-given-2${SEP}${SEP}osprey lift${SEP}${SEP}m1${SEP}puffin valve${SEP}${SEP}${SEP}${SEP}${SEP}`, n: 1 });
    await db().delete(orders).where(inArray(orders.id, ['ZZ-GIVEN-1', 'ZZ-GIVEN-2']));
  });

  it.runIf(engine === 'postgres')('counts and texts the items of two transactions inserting into one order at once', async () => {
    const connectionString = product.database.databaseUrl;
    if (!connectionString) throw new Error('PostgreSQL expected');
    await db().insert(orders).values({ id: 'ZZ-RACE-I', plant: 'DE02' });
    // A inserts line 10 and holds its transaction open; B inserts line 20 and waits for A's lock
    // on the order's row, then reads the items again: both lines in the count and the text.
    await whileFirstHolds(connectionString, `insert into order_items (order_id, line_number, material_code, material_description, unit, goods_receipt_posted_at) values ('ZZ-RACE-I', 10, 'M1', 'Race alpha', 'PC', now())`, `insert into order_items (order_id, line_number, material_code, material_description, unit) values ('ZZ-RACE-I', 20, 'M2', 'Race beta', 'PC')`);
    const [row] = await db()
      .select({ items: orders.itemCount, arrived: orders.arrivedItems, text: orders.searchText })
      .from(orders)
      .where(eq(orders.id, 'ZZ-RACE-I'));
    expect([row?.items, row?.arrived]).toEqual([2, 1]);
    expect(row?.text).toMatch(/race alpha.*race beta/);
    await db().delete(orders).where(eq(orders.id, 'ZZ-RACE-I'));
  });

  it.runIf(engine === 'postgres')('keeps search_text whole when two transactions write the text of one order\'s items at once', async () => {
    const connectionString = product.database.databaseUrl;
    if (!connectionString) throw new Error('PostgreSQL expected');
    await db().insert(orders).values({ id: 'ZZ-RACE-T', plant: 'DE02' });
    await db().insert(orderItems).values({ orderId: 'ZZ-RACE-T', plant: 'DE02', lineNumber: 10, materialCode: 'M1', materialDescription: 'Race one', unit: 'PC' });
    // A adds a line and holds its transaction open; B meanwhile renames line 10 (text only: the
    // summary does not change). Reading from its own snapshot, B would drop A's line.
    await whileFirstHolds(connectionString, `insert into order_items (order_id, line_number, material_code, material_description, unit) values ('ZZ-RACE-T', 20, 'M2', 'Jackal bracket', 'PC')`, `update order_items set material_description = 'Ibex pulley' where order_id = 'ZZ-RACE-T' and line_number = 10`);
    const [row] = await db().select({ text: orders.searchText }).from(orders).where(eq(orders.id, 'ZZ-RACE-T'));
    expect(row!.text).toContain('jackal bracket');
    expect(row!.text).toContain('ibex pulley');
    expect(row!.text).not.toContain('race one');
    await db().delete(orders).where(eq(orders.id, 'ZZ-RACE-T'));
  });

  it('counts up to LIST_COUNT_CAP, then names the count a lower bound and still pages on (decision 0021)', async () => {
    // More orders than the cap in one plant, each with one item: half of them arrived.
    await db().execute(sql`insert into orders (id, plant, updated_at)
      select 'ZZ-CAP-' || lpad(g::text, 5, '0'), 'DE02', timestamptz '2020-01-01' + g * interval '1 minute' from generate_series(1, ${LIST_COUNT_CAP + 20}) g`);
    await db().execute(sql`insert into order_items (order_id, line_number, material_code, material_description, unit, delivery_status)
      select 'ZZ-CAP-' || lpad(g::text, 5, '0'), 10, 'CAP', 'Cap fixture', 'PC', case when g % 2 = 0 then 'Delivered' end from generate_series(1, ${LIST_COUNT_CAP + 20}) g`);
    const list = async (query: string) => {
      const res = await product.app.inject({ method: 'GET', url: `/parts/v1/users/me/tracking-status?${query}`, headers: bearer(tokens['cs.admin']!) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { count_total: number; count_arrived: number; count_incoming: number; counts_capped: string[]; pages: number; has_next: boolean; trackingStatus: { orderId: string }[] };
    };
    const want = await expected('cs.admin', 'all');
    expect(want.counts.count_total).toBeGreaterThan(LIST_COUNT_CAP);
    const first = await list('status=all&page=1&maxResults=100&query=&myOrders=false');
    expect(first.count_total).toBe(LIST_COUNT_CAP);
    expect(first.counts_capped).toContain('count_total');
    expect(first.counts_capped.includes('count_arrived')).toBe(want.counts.count_arrived > LIST_COUNT_CAP);
    expect(first.count_arrived).toBe(Math.min(LIST_COUNT_CAP, want.counts.count_arrived));
    // Every order is reachable page after page (has_next is exact), past the cap.
    const ids: string[] = [];
    for (let page = 1; page < 100; page++) {
      const body = await list(`status=all&page=${page}&maxResults=100&query=&myOrders=false`);
      ids.push(...body.trackingStatus.map((row) => row.orderId));
      if (!body.has_next) break;
      expect(body.pages).toBeGreaterThan(page);
    }
    expect(ids).toEqual(want.ids);
    // A page by number past the cap is walked in list order, and its cursor (the change time written
    // once the page is cut, decision 0050) reads on exactly where the next page by number does.
    expect(want.ids.length).toBeGreaterThan(LIST_COUNT_CAP + 50);
    const walked = (await list(`status=all&page=${LIST_COUNT_CAP / 50 + 1}&maxResults=50&query=&myOrders=false`)) as { next_cursor?: string | null; trackingStatus: { orderId: string }[] };
    expect(walked.trackingStatus.map((row) => row.orderId)).toEqual(want.ids.slice(LIST_COUNT_CAP, LIST_COUNT_CAP + 50));
    expect(typeof walked.next_cursor).toBe('string');
    const after = await list(`status=all&page=${LIST_COUNT_CAP / 50 + 2}&maxResults=50&query=&myOrders=false&after=${encodeURIComponent(walked.next_cursor!)}`);
    expect(after.trackingStatus.map((row) => row.orderId)).toEqual(want.ids.slice(LIST_COUNT_CAP + 50, LIST_COUNT_CAP + 100));
    // A search matching more than the cap is capped the same way.
    const searched = await list('status=all&page=1&maxResults=20&query=cap%20fixture&myOrders=false');
    expect(searched).toMatchObject({ count_total: LIST_COUNT_CAP, has_next: true });
    expect(searched.counts_capped).toContain('count_total');
    expect(searched.count_arrived).toBe((LIST_COUNT_CAP + 20) / 2);
    expect(searched.counts_capped).not.toContain('count_arrived');
    // A lone "material description" word in more orders than the cap, asked by a caller who sees
    // every order (decision 0051): where the sampled share puts the walk under the trigram index's
    // reading (rows < share² × orders), the whole list's pages past the cap walk the list order by
    // strpos; deeper ones keep the index. Both list exactly the orders holding the word.
    await db().execute(sql`analyze orders`);
    const described = parseSearch('"material description"=FIXTURE').terms;
    const statistics = await commonTerms(db(), described);
    const share = statistics.shares.get('fixture') ?? 0;
    expect([...walkedTerms(described, statistics, 101)], `share ${share} of ${statistics.orders} orders`).toEqual(['fixture']);
    expect(walkedTerms(parseSearch('"material description"=FIXTURE dl=delivered').terms, statistics, 101).size).toBe(0);
    // A share read off fewer than three sampled texts is not trusted, however many orders.
    const sampledIn = (hits: number) => ({ ...statistics, shares: new Map([['fixture', hits / 101]]), sampled: 101, orders: 1_000_000 });
    expect(walkedTerms(described, sampledIn(2), 21).size).toBe(0);
    expect(walkedTerms(described, sampledIn(3), 21).size).toBe(1);
    const { dialect } = db() as unknown as { dialect: { sqlToQuery(query: unknown): { sql: string } } };
    const execute = vi.spyOn(db(), 'execute');
    try {
      const fixture: string[] = [];
      const forms = new Set<string>();
      for (let page = 1; page < 50; page++) {
        execute.mockClear();
        const res = await product.app.inject({
          method: 'GET',
          url: `/parts/v1/users/me/tracking-status?status=all&page=${page}&maxResults=100&query=${encodeURIComponent('"material description"=FIXTURE')}&myOrders=false`,
          headers: bearer(tokens.manager!),
        });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as { has_next: boolean; trackingStatus: { orderId: string }[] };
        fixture.push(...body.trackingStatus.map((row) => row.orderId));
        // The page's statement (the one in list order) reads the word by strpos exactly when walkedTerms says so.
        const listed = execute.mock.calls.map(([query]) => dialect.sqlToQuery(query).sql).filter((text) => text.includes('order by "orders"."updated_at" desc'));
        expect(listed, `page ${page}`).toHaveLength(1);
        const walks = walkedTerms(described, statistics, (page - 1) * 100 + 101).size > 0;
        expect(listed[0]!.includes('strpos("orders"."search_text"'), `page ${page}`).toBe(walks);
        forms.add(walks ? 'walk' : 'index');
        if (!body.has_next) break;
      }
      expect(fixture).toEqual((await expected('manager', 'all', (item) => (item.materialDescription ?? '').toLowerCase().includes('fixture'))).ids);
      expect([...forms].sort(), `share ${share} of ${statistics.orders} orders`).toEqual(['index', 'walk']);
    } finally {
      execute.mockRestore();
    }
    // A short term in more orders than the cap (decision 0049): its pages past the cap walk the list
    // order by strpos alone, without its grams, and list the orders whose text holds it.
    const short = rowsOf<{ id: string }>(
      await db().execute(sql`select id from orders where item_count > 0 and strpos(search_text, 'xt') > 0 order by updated_at desc, id desc`),
    ).map((row) => row.id);
    expect(short.length).toBeGreaterThan(LIST_COUNT_CAP);
    expect((await pages('manager', 'all', 100, 'xt')).ids).toEqual(short);
    // An item field term the items' index answers, over the cap (decision 0049): the semi join on
    // the items is the tab's whole item check; every tab's pages (walked past the cap) and counts.
    for (const status of ['all', 'arrived', 'incoming']) {
      const want = await expected('cs.admin', status, (item) => item.materialCode === 'CAP');
      const got = await pages('cs.admin', status, 100, 'mat=CAP');
      expect(got.ids, status).toEqual(want.ids);
      const capped = (n: number) => Math.min(LIST_COUNT_CAP, n);
      expect(got.first, status).toMatchObject({ count_total: capped(want.counts.count_total), count_arrived: capped(want.counts.count_arrived), count_incoming: capped(want.counts.count_incoming) });
    }
    // A delivery status over more orders than the cap (decision 0040): its tabs settled by the
    // status ("Delivered": arrived = total, incoming 0), its pages walked in list order.
    await db().execute(sql`update order_items set delivery_status = 'Delivered' where order_id like 'ZZ-CAP-%'`);
    const delivered = (item: Item) => item.deliveryStatus === 'Delivered';
    for (const status of ['all', 'arrived', 'incoming']) {
      const want = await expected('cs.admin', status, delivered);
      const got = await pages('cs.admin', status, 100, 'dl=delivered');
      expect(got.ids, status).toEqual(want.ids);
      const capped = (n: number) => Math.min(LIST_COUNT_CAP, n);
      expect(got.first, status).toMatchObject({ count_total: capped(want.counts.count_total), count_arrived: capped(want.counts.count_arrived), count_incoming: 0, count_action_point: 0 });
    }
    expect((await expected('cs.admin', 'all', delivered)).counts.count_total).toBeGreaterThan(LIST_COUNT_CAP);
    await db().execute(sql`delete from orders where id like 'ZZ-CAP-%'`);
  });

  it('an item carries its order\'s plant: filled in, held by the foreign key, moved with the order (migration 0028)', async () => {
    const [order] = await db().select().from(orders).where(eq(orders.plant, 'DE02')).limit(1);
    // Left out, the order's plant is filled in; another plant is refused, as is an order that does not exist.
    await db().execute(sql`insert into order_items (order_id, line_number, material_code, material_description, unit) values (${order!.id}, 901, 'M1', 'Plant fill', 'PC')`);
    const plantOf = async (line: number) => (await db().select({ plant: orderItems.plant }).from(orderItems).where(and(eq(orderItems.orderId, order!.id), eq(orderItems.lineNumber, line))))[0]?.plant;
    expect(await plantOf(901)).toBe('DE02');
    const failure = (statement: Promise<unknown>) => statement.then(() => 'written', (error: { message?: string; cause?: { message?: string } }) => String(error.cause?.message ?? error.message));
    expect(await failure(db().execute(sql`insert into order_items (order_id, plant, line_number, material_code, material_description, unit) values (${order!.id}, 'FI01', 902, 'M1', 'Wrong plant', 'PC')`))).toMatch(/order_items_order_plant_fk/);
    expect(await failure(db().execute(sql`insert into order_items (order_id, line_number, material_code, material_description, unit) values ('ZZ-NO-SUCH-ORDER', 1, 'M1', 'No order', 'PC')`))).toMatch(/order_items_order_plant_fk/);
    // The order moves to another plant: every item of it moves along.
    await db().update(orders).set({ plant: 'FR03' }).where(eq(orders.id, order!.id));
    const plants = await db().selectDistinct({ plant: orderItems.plant }).from(orderItems).where(eq(orderItems.orderId, order!.id));
    expect(plants).toEqual([{ plant: 'FR03' }]);
    await db().update(orders).set({ plant: 'DE02' }).where(eq(orders.id, order!.id));
    await db().delete(orderItems).where(and(eq(orderItems.orderId, order!.id), eq(orderItems.lineNumber, 901)));
  });

  it('a storage location mostly of other plants: each caller finds exactly the items in its scope (decision 0047)', async () => {
    // ZZLOC is the location of every FI01 item (more than FEW_ORDERS, 200: the list's walk), of
    // two DE02 items (a DE02 admin names their orders from its plant's items), and of an FI01
    // order addressed to the DE02 admin (its extra part, in another plant).
    const before = await db().select({ id: orderItems.id, storageLocation: orderItems.storageLocation }).from(orderItems);
    const fi = await db().select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.plant, 'FI01'));
    expect(fi.length).toBeGreaterThan(200);
    const de = await db().select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.plant, 'DE02')).orderBy(asc(orderItems.id)).limit(2);
    await db().update(orderItems).set({ storageLocation: 'ZZLOC' }).where(inArray(orderItems.id, [...fi, ...de].map((item) => item.id)));
    const [addressed] = await db().select().from(orders).where(and(eq(orders.plant, 'FI01'), sql`${orders.userEmail} is null`)).limit(1);
    await db().update(orders).set({ userEmail: 'cs.admin@example.com' }).where(eq(orders.id, addressed!.id));
    const located = (item: Item) => item.storageLocation?.toLowerCase() === 'zzloc';
    try {
      for (const who of Object.keys(SCOPES)) {
        for (const status of ['all', 'arrived', 'incoming']) {
          const want = await expected(who, status, located);
          const got = await pages(who, status, 50, status === 'all' ? 'sloc=ZZLOC' : 'sloc=zzloc');
          expect(got.first, `${who} ${status}`).toMatchObject(want.counts);
          expect(got.ids, `${who} ${status}`).toEqual(want.ids);
        }
      }
      expect((await expected('cs.admin', 'all', located)).ids).toContain(addressed!.id);
    } finally {
      await db().update(orders).set({ userEmail: null }).where(eq(orders.id, addressed!.id));
      // Every location as it was, in one statement.
      await db().execute(sql`update order_items i set storage_location = b.location
        from jsonb_to_recordset(${JSON.stringify(before.map((row) => ({ id: row.id, location: row.storageLocation })))}::jsonb) as b(id bigint, location text)
        where i.id = b.id and i.storage_location is distinct from b.location`);
    }
  });

  it('an order code or plant mostly of other plants: each caller finds exactly the orders in its scope (decision 0047)', async () => {
    // An FI01 order of work centre FI01M001 addressed to the DE02 admin (its extra part, in
    // another plant), and an order of the mechanic's ship-to party moved to DE02.
    const [addressed] = await db().select().from(orders).where(and(eq(orders.plant, 'FI01'), eq(orders.workCenter, 'FI01M001'), sql`${orders.userEmail} is null`)).limit(1);
    const [shipped] = await db().select().from(orders).where(and(eq(orders.plant, 'FI01'), eq(orders.shipToParty, '0050010001'), sql`${orders.id} <> ${addressed!.id}`)).limit(1);
    await db().update(orders).set({ userEmail: 'cs.admin@example.com' }).where(eq(orders.id, addressed!.id));
    await db().update(orders).set({ plant: 'DE02' }).where(eq(orders.id, shipped!.id));
    const [deWorkCenter] = await db().select({ code: orders.workCenter }).from(orders).where(and(eq(orders.plant, 'DE02'), sql`${orders.workCenter} is not null`)).limit(1);
    // An order of the mechanic's plant outside their work centre, which they see by their ship-to party.
    const [byShipTo] = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.plant, 'FI01'), eq(orders.shipToParty, '0050010001'), sql`${orders.workCenter} <> 'FI01M001'`, sql`${orders.serviceOrder} is not null`))
      .limit(1);
    const queries: Array<[string, (order: Order) => boolean]> = [
      ['wc=fi01m001', (order) => order.workCenter?.toLowerCase() === 'fi01m001'],
      [`wc=${byShipTo!.workCenter}`, (order) => order.workCenter === byShipTo!.workCenter],
      [`so=${byShipTo!.serviceOrder}`, (order) => order.serviceOrder?.toLowerCase() === byShipTo!.serviceOrder!.toLowerCase()],
      [`plant=FI01 wc=${byShipTo!.workCenter}`, (order) => order.plant === 'FI01' && order.workCenter === byShipTo!.workCenter],
      [`wc=${deWorkCenter!.code}`, (order) => order.workCenter === deWorkCenter!.code],
      ['plant!=FI01', (order) => order.plant.toLowerCase() !== 'fi01'],
      ['plant=de02', (order) => order.plant.toLowerCase() === 'de02'],
      ['plant!=FI01 plant!=DE02', (order) => !['fi01', 'de02'].includes(order.plant.toLowerCase())],
    ];
    try {
      const all = await db().select().from(orders);
      for (const [query, matches] of queries) {
        const named = new Set(all.filter(matches).map((order) => order.id));
        for (const who of Object.keys(SCOPES)) {
          for (const status of ['all', 'arrived', 'incoming']) {
            const want = await expected(who, status, (item) => named.has(item.orderId));
            const got = await pages(who, status, 50, query);
            expect(got.first, `${who} "${query}" ${status}`).toMatchObject(want.counts);
            expect(got.ids, `${who} "${query}" ${status}`).toEqual(want.ids);
          }
        }
      }
      expect((await expected('cs.admin', 'all', (item) => item.orderId === addressed!.id)).ids).toEqual([addressed!.id]);
      expect((await expected('mechanic', 'all', (item) => item.orderId === shipped!.id)).ids).toEqual([shipped!.id]);
      expect((await expected('mechanic', 'all', (item) => item.orderId === byShipTo!.id)).ids).toEqual([byShipTo!.id]);
    } finally {
      await db().update(orders).set({ userEmail: null }).where(eq(orders.id, addressed!.id));
      await db().update(orders).set({ plant: 'FI01' }).where(eq(orders.id, shipped!.id));
    }
  });

  it('recounts an order whose items are truncated away', async () => {
    await db().execute(sql`truncate order_items cascade`);
    const [left] = await db().select({ n: sql<number>`count(*)::int` }).from(orders).where(sql`${orders.itemCount} <> 0`);
    expect(left!.n).toBe(0);
    const res = await product.app.inject({ method: 'GET', url: '/parts/v1/users/me/tracking-status?query=&page=1&status=all&myOrders=false&maxResults=20', headers: bearer(tokens.manager!) });
    expect(res.json()).toMatchObject({ count_total: 0, pages: 1, trackingStatus: [] });
  });
});
