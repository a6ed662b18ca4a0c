/**
 * The tab counts of a search (issue #16, docs/decisions/0035 addendum 2026-11-25), held on both
 * engines to a raw reading of the tables: a common letter walked without the gram filter (the
 * index's statistics name it common), a delivery status whose tabs the §4 rules settle from the
 * statuses the items hold (read once per call, so a status spelled in another case still counts;
 * an item on the way arrived by its receipt; several statuses; a status with a word; decision 0040), "material description=" named through the orders' search_text, a
 * long term of few orders read by their ids (and one of many beside it), and an indexed item field
 * whose orders each tab names from its own items (decision 0038).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { orderItems, orders } from '../../server/db/schema';
import { commonTerms, FEW_ORDERS, listTrackingStatus, narrowRanges, type TrackingListOptions } from '../../server/repositories/tracking';
import { resolveUser } from '../../server/repositories/users';
import { rowsOf } from '../../server/db/client';
import { parseSearch } from '../../src/domain/search-language';
import { isActionPoint, isArrived } from '../../src/domain/tracking';
import type { TrackingStatusPage } from '../../src/contract/parts';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { trackingListQuery } from './list-params';

vi.setConfig({ testTimeout: 300_000 });

type Item = typeof orderItems.$inferSelect;
const asFields = (item: Item) => ({ ...item, goodsReceiptPostedAt: item.goodsReceiptPostedAt?.toISOString() ?? null });

describe.each(ENGINES)('tab counts of a search on %s', (engine) => {
  let product: TestProduct;
  let token: string;
  const db = () => product.database.db;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    token = await product.token('manager@example.com');
  });
  afterAll(async () => product?.close());

  const get = async (query: string, status = 'all', page = 1) => {
    const res = await product.app.inject({
      method: 'GET',
      url: `/parts/v1/users/me/tracking-status?${trackingListQuery({ query, status, page, maxResults: 100 })}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { count_total: number; count_arrived: number; count_incoming: number; count_action_point: number; trackingStatus: Array<{ orderId: string }> };
  };

  /** The manager's counts and each tab's first page from the raw tables, for items matching `matches`. */
  const expected = async (matches: (item: Item, order: typeof orders.$inferSelect) => boolean) => {
    const all = new Map((await db().select().from(orders)).map((order) => [order.id, order]));
    const hit = (await db().select().from(orderItems)).filter((item) => matches(item, all.get(item.orderId)!));
    const ordersOf = (predicate: (item: Item) => boolean) =>
      [...new Set(hit.filter(predicate).map((item) => item.orderId))]
        .map((id) => all.get(id)!)
        .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : -1))
        .map((order) => order.id);
    const tabs = { all: ordersOf(() => true), arrived: ordersOf((i) => isArrived(asFields(i))), incoming: ordersOf((i) => !isArrived(asFields(i))) };
    return {
      tabs,
      counts: { count_total: tabs.all.length, count_arrived: tabs.arrived.length, count_incoming: tabs.incoming.length, count_action_point: ordersOf(isActionPoint).length },
    };
  };

  const check = async (query: string, matches: Parameters<typeof expected>[0]) => {
    const want = await expected(matches);
    for (const status of ['all', 'arrived', 'incoming'] as const) {
      const got = await get(query, status);
      expect(got, `"${query}" ${status}`).toMatchObject(want.counts);
      expect(got.trackingStatus.map((row) => row.orderId), `"${query}" ${status}`).toEqual(want.tabs[status].slice(0, 100));
    }
    return want;
  };

  const text = (values: Array<string | null>) => values.map((value) => (value ?? '').toLowerCase());
  const holds = (term: string) => (item: Item, order: typeof orders.$inferSelect) =>
    [
      ...text([order.id, order.equipmentCode, order.equipmentDescription, order.destination]),
      ...text([item.materialCode, item.materialDescription, item.reservationDocNumber, item.purchaseOrderDocNumber, item.salesOrderDocNumber, item.deliveryOrderDocNumber, item.trackingNumber]),
    ].some((value) => value.includes(term));

  it('counts a common letter by the walk (named common by the statistics) and a rare pair by the index, as the raw tables', async () => {
    await db().execute(sql`analyze orders`);
    const { common } = await commonTerms(db(), parseSearch('e q0 qj').terms);
    expect(common.has('e')).toBe(true);
    expect(common.has('qj')).toBe(false);
    for (const term of ['e', 'a', 'qj', 'x']) await check(term, holds(term));
  });

  it('counts a common word by the walk (named common by the column statistics) and a rare one by the trigram index, as the raw tables (decision 0041)', async () => {
    await db().execute(sql`analyze orders`);
    const texts = (await db().select({ text: orders.searchText }).from(orders)).map((row) => row.text);
    const held = new Map<string, number>();
    for (const text of texts) for (const word of new Set(text.split(/[^a-z]+/).filter((part) => part.length >= 4))) held.set(word, (held.get(word) ?? 0) + 1);
    const [word, orderCount] = [...held].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    expect(orderCount / texts.length, `"${word}" is in most orders`).toBeGreaterThan(0.5);
    const rare = [...held].find(([, n]) => n === 1)![0];
    const { common } = await commonTerms(db(), parseSearch(`${word.toUpperCase()} ${rare} zzzz-none`).terms);
    expect([...common]).toEqual([word]);
    for (const term of [word, rare, `${word} ${rare}`]) await check(term, (item, order) => term.split(' ').every((part) => holds(part)(item, order)));
  });

  it('counts delivery statuses by the §4 rules, a status spelled in another case included', async () => {
    // "delivered" in lower case: not arrived by its status (item_is_arrived reads "Delivered"),
    // so dl=delivered has an incoming order after all, which a rule read off the canonical
    // spelling alone would miss.
    // Spelled as the rules spell it, every "Delivered" item is arrived by its status: the tabs
    // that settles (arrived = total, incoming and action point 0) hold against the tables.
    const deliveredOnly = await check('dl=delivered', (i) => (i.deliveryStatus ?? '').toLowerCase() === 'delivered');
    expect(deliveredOnly.counts.count_total).toBeGreaterThan(0);
    expect(deliveredOnly.counts).toMatchObject({ count_arrived: deliveredOnly.counts.count_total, count_incoming: 0, count_action_point: 0 });
    const [item] = await db().select().from(orderItems).where(sql`${orderItems.deliveryStatus} is distinct from 'Delivered' and ${orderItems.goodsReceiptPostedAt} is null and coalesce(${orderItems.purchaseOrderGoodsReceiptQuantity}, 0) = 0`).limit(1);
    await db().execute(sql`update order_items set delivery_status = 'delivered' where id = ${item!.id}`);
    for (const [value, status] of [
      ['delivered', 'delivered'],
      ['to_be_picked_up', 'tobepickedup'],
      ['at_access_point', 'at access point'],
      ['on_the_way', 'ontheway'],
      ['failed', 'delivery failed'],
    ] as const) {
      const want = await check(`dl=${value}`, (i) => (i.deliveryStatus ?? '').toLowerCase() === status);
      if (value === 'delivered') expect(want.tabs.incoming).toEqual([item!.orderId]);
      if (value === 'to_be_picked_up') expect(want.counts.count_action_point).toBeGreaterThan(0);
    }
    await db().execute(sql`update order_items set delivery_status = ${item!.deliveryStatus} where id = ${item!.id}`);
    expect(await check('dl=delivered', (i) => (i.deliveryStatus ?? '').toLowerCase() === 'delivered')).toEqual(deliveredOnly);
  });

  it('counts several delivery terms and a status with free text as the raw tables', async () => {
    const status = (i: Item) => (i.deliveryStatus ?? '').toLowerCase();
    // Two different statuses: no item holds both.
    expect((await check('dl=delivered dl=failed', () => false)).counts.count_total).toBe(0);
    // The same status twice, in two spellings of the value.
    await check('dl=delivered dl=DELIVERED', (i) => status(i) === 'delivered');
    // A status and a word: one item holds both.
    const [word] = rowsOf<{ w: string }>(
      await db().execute(sql`select lower(split_part(material_description, ' ', 1)) as w from order_items where delivery_status = 'OnTheWay' and length(split_part(material_description, ' ', 1)) >= 4 group by 1 order by count(*) desc limit 1`),
    );
    const both = await check(`dl=on_the_way ${word!.w}`, (i, order) => status(i) === 'ontheway' && holds(word!.w)(i, order));
    expect(both.counts.count_total).toBeGreaterThan(0);
  });

  it('finds an item on the way that its goods receipt made arrived (order_items_received_idx), in each tab as the raw tables', async () => {
    const onTheWay = (i: Item) => (i.deliveryStatus ?? '').toLowerCase() === 'ontheway';
    const before = await check('dl=on_the_way', onTheWay);
    expect(before.counts.count_total).toBeGreaterThan(0);
    const [item] = await db().select().from(orderItems).where(sql`${orderItems.deliveryStatus} = 'OnTheWay'`).limit(1);
    await db().execute(sql`update order_items set goods_receipt_posted_at = now() where id = ${item!.id}`);
    const after = await check('dl=on_the_way', onTheWay);
    expect(after.tabs.arrived).toEqual([item!.orderId]);
    expect(after.counts.count_arrived).toBe(before.counts.count_arrived + 1);
    await db().execute(sql`update order_items set goods_receipt_posted_at = null where id = ${item!.id}`);
    expect((await get('dl=on_the_way', 'arrived')).count_arrived).toBe(before.counts.count_arrived);
  });

  it('counts a long term held by few orders by their ids, and one held by more than FEW_ORDERS by the walk, as the raw tables', async () => {
    const [first] = await db().select().from(orderItems).where(sql`${orderItems.purchaseOrderDocNumber} is not null`).limit(1);
    const rare = first!.purchaseOrderDocNumber!;
    // The first three characters of the order numbers: in nearly every order (more than FEW_ORDERS
    // here), so the counts take the other path; "rope" is a word in some.
    const [prefix] = rowsOf<{ p: string; n: number }>(await db().execute(sql`select left(id, 3) as p, count(*)::int as n from orders group by 1 order by 2 desc limit 1`));
    expect(prefix!.n).toBeGreaterThan(FEW_ORDERS);
    for (const term of [rare, prefix!.p, 'rope', `${rare} rope`, 'zzz-none']) {
      const want = await check(term, (item, order) => term.split(' ').every((part) => holds(part)(item, order)));
      if (term === rare) expect(want.counts.count_total).toBeGreaterThan(0);
      if (term === prefix!.p) expect(want.counts.count_total).toBeGreaterThan(FEW_ORDERS);
    }
  });

  it('reads a long term of few orders within a mechanic’s scope, and within their own orders', async () => {
    const mechanic = await product.token('mechanic@example.com');
    const listAs = async (query: string, myOrders: boolean, page = 1) => {
      const res = await product.app.inject({
        method: 'GET',
        url: `/parts/v1/users/me/tracking-status?${trackingListQuery({ query, status: 'all', page, maxResults: 100, myOrders: String(myOrders) })}`,
        headers: bearer(mechanic),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { count_total: number; pages: number; trackingStatus: Array<{ orderId: string; userEmail: string | null }> };
    };
    // What the mechanic may see, from their unsearched list (the scope's own path).
    const visible = new Map<string, string | null>();
    for (let page = 1, pages = 1; page <= pages; page += 1) {
      const answer = await listAs('', false, page);
      pages = answer.pages;
      for (const row of answer.trackingStatus) visible.set(row.orderId, row.userEmail);
    }
    const items = await db().select().from(orderItems).where(sql`${orderItems.purchaseOrderDocNumber} is not null`);
    const seen = items.find((item) => visible.has(item.orderId) && visible.get(item.orderId) === 'mechanic@example.com') ?? items.find((item) => visible.has(item.orderId))!;
    const unseen = items.find((item) => !visible.has(item.orderId))!;
    expect(seen && unseen, 'the demo data has purchase orders inside and outside the mechanic’s scope').toBeTruthy();
    const all = new Map((await db().select().from(orders)).map((order) => [order.id, order]));
    const everyItem = await db().select().from(orderItems);
    for (const term of [seen.purchaseOrderDocNumber!, unseen.purchaseOrderDocNumber!]) {
      const holding = new Set(everyItem.filter((item) => holds(term.toLowerCase())(item, all.get(item.orderId)!)).map((item) => item.orderId));
      // Held by few orders: the counts and the page read them by id.
      expect(holding.size).toBeLessThanOrEqual(FEW_ORDERS);
      const inScope = [...holding].filter((id) => visible.has(id));
      const own = inScope.filter((id) => visible.get(id) === 'mechanic@example.com');
      for (const [myOrders, want] of [[false, inScope], [true, own]] as const) {
        const got = await listAs(term, myOrders);
        expect(got.count_total, `"${term}" myOrders=${myOrders}`).toBe(want.length);
        expect(got.trackingStatus.map((row) => row.orderId).sort(), `"${term}" myOrders=${myOrders}`).toEqual([...want].sort());
      }
    }
  });

  it('counts an indexed item field per tab from the items of that tab (a date, a material)', async () => {
    const [date] = rowsOf<{ d: string }>(await db().execute(sql`select delivery_date::text as d from order_items where delivery_date is not null group by 1 order by count(*) desc limit 1`));
    const [material] = rowsOf<{ m: string }>(await db().execute(sql`select material_code as m from order_items group by 1 order by count(*) desc limit 1`));
    await check(`dd=${date!.d}`, (item) => item.deliveryDate === date!.d);
    await check(`mat=${material!.m} dd=${date!.d}`, (item) => item.deliveryDate === date!.d && item.materialCode.toLowerCase() === material!.m.toLowerCase());
    await check(`mat=${material!.m}`, (item) => item.materialCode.toLowerCase() === material!.m.toLowerCase());
  });

  /** Each order's tab texts from the raw tables: its items' text in a tab it holds items in and out of, else null. */
  const tabTexts = async () => {
    const items = (await db().select().from(orderItems)).sort((a, b) => a.lineNumber - b.lineNumber || a.id - b.id);
    const byOrder = new Map<string, Item[]>();
    for (const item of items) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);
    const itemText = (item: Item) =>
      [item.materialCode, item.materialDescription, item.reservationDocNumber, item.purchaseOrderDocNumber, item.salesOrderDocNumber, item.deliveryOrderDocNumber, item.trackingNumber]
        .map((value) => `\x1f${value ?? ''}`)
        .join('');
    const tab = (all: Item[], inTab: (item: Item) => boolean) => {
      const held = all.filter(inTab);
      return held.length > 0 && held.length < all.length ? held.map(itemText).join('').toLowerCase() : null;
    };
    const want = new Map<string, [string | null, string | null, string | null]>();
    for (const order of await db().select({ id: orders.id }).from(orders)) {
      const all = byOrder.get(order.id) ?? [];
      want.set(order.id, [tab(all, (i) => isArrived(asFields(i))), tab(all, (i) => !isArrived(asFields(i))), tab(all, isActionPoint)]);
    }
    const got = new Map(
      (await db().select({ id: orders.id, a: orders.arrivedText, i: orders.incomingText, p: orders.actionPointText }).from(orders)).map((row) => [row.id, [row.a, row.i, row.p]]),
    );
    return { want, got, mixed: [...want.values()].filter(([arrived]) => arrived !== null).length };
  };

  it('holds the text of an order’s items per tab as its items are, from the seed and after items change (migration 0024)', async () => {
    const seeded = await tabTexts();
    expect(seeded.mixed, 'the demo data has orders with items in and out of the arrived tab').toBeGreaterThan(10);
    expect(seeded.got).toEqual(seeded.want);
    // An incoming item of an order with both arrives; an item of another is deleted; one is added.
    const [mixed] = rowsOf<{ id: string }>(await db().execute(sql`select id from orders where arrived_text is not null order by id limit 1 offset 3`));
    await db().execute(sql`update order_items set delivery_status = 'Delivered' where order_id = ${mixed!.id} and not item_is_arrived(delivery_status, goods_receipt_posted_at, purchase_order_goods_receipt_quantity)`);
    const [other] = rowsOf<{ id: string }>(await db().execute(sql`select id from orders where incoming_text is not null and item_count = 2 order by id limit 1`));
    await db().execute(sql`delete from order_items where id = (select max(id) from order_items where order_id = ${other!.id})`);
    const [third] = rowsOf<{ id: string }>(await db().execute(sql`select id from orders where arrived_items = item_count and item_count > 0 order by id limit 1`));
    await db().execute(sql`insert into order_items (order_id, line_number, material_code, material_description, unit, tracking_number)
      select order_id, max(line_number) + 10, 'KM-TABTEXT', 'Door lock TABTEXT', 'PC', 'TT-TABTEXT-1' from order_items where order_id = ${third!.id} group by order_id`);
    const changed = await tabTexts();
    expect(changed.got).toEqual(changed.want);
    expect(changed.got.get(mixed!.id)!.slice(0, 2), 'every item arrived: no longer partly in either tab').toEqual([null, null]);
    expect(changed.got.get(third!.id)![1]).toContain('tabtext');
    // A single free term counts each tab by these texts: the same as the raw tables.
    for (const term of ['tabtext', 'door', 'e']) await check(term, holds(term));
  });

  it('counts "material description=" words through the search_text as the items themselves', async () => {
    const [row] = await db().select({ description: orderItems.materialDescription }).from(orderItems).limit(1).offset(40);
    const word = row!.description.split(' ').find((part) => part.length >= 3)!;
    for (const term of [word.toUpperCase(), 'zzz-none', word.slice(0, 2)]) {
      await check(`"material description"=${term}`, (item) => item.materialDescription.toLowerCase().includes(term.toLowerCase()));
    }
  });
  /**
   * Asks each query in every tab of the list both ways (the options that differ) as the manager,
   * expects the same answer, and answers how many of them `found` holds for (so the comparison is
   * not only of empty answers).
   */
  const askedBothWays = async (queries: string[], ways: [Partial<TrackingListOptions>, Partial<TrackingListOptions>], found: (page: TrackingStatusPage) => boolean) => {
    const user = await resolveUser(db(), { issuer: 'test', subject: 'manager@example.com', email: 'manager@example.com', emailVerified: true, name: null }, 'support@example.com');
    const now = new Date('2026-11-25T08:00:00Z');
    let nonEmpty = 0;
    for (const query of queries) {
      const { terms } = parseSearch(query);
      for (const status of ['all', 'arrived', 'incoming'] as const) {
        const ask = (way: Partial<TrackingListOptions>) => listTrackingStatus(db(), user, { terms, status, myOrders: false, page: 1, maxResults: 20, now, ...way });
        const [one, other] = [await ask(ways[0]), await ask(ways[1])];
        expect(one, `"${query}" ${status}`).toEqual(other);
        if (found(one)) nonEmpty += 1;
      }
    }
    return nonEmpty;
  };

  it('answers a range the same whether its few items name their orders through its index or every order is walked (decision 0045)', async () => {
    const dates = (await db().select({ date: orderItems.deliveryDate }).from(orderItems).where(sql`${orderItems.deliveryDate} is not null`).orderBy(orderItems.deliveryDate)).map((row) => row.date!);
    const pos = (await db().select({ po: orderItems.purchaseOrderDocNumber }).from(orderItems).where(sql`${orderItems.purchaseOrderDocNumber} is not null`).orderBy(orderItems.purchaseOrderDocNumber)).map((row) => row.po!);
    const at = <T>(values: T[], share: number) => values[Math.floor(values.length * share)]!;
    const queries = [
      `dd>=${at(dates, 0.9)}`,
      `dd<${at(dates, 0.2)}`,
      `dd>=${at(dates, 0.3)} dd<=${at(dates, 0.5)}`,
      `dd>${at(dates, 0.8)} door`,
      `po>=${at(pos, 0.7)}`,
      `po<=${at(pos, 0.1)} dl=delivered`,
      `dd>=${at(dates, 0.5)} plant=FI01`,
    ];
    // Both ways are taken: PostgreSQL's estimate names the ranges below a limit and not above it.
    const { terms: both } = parseSearch(queries[2]!);
    expect((await narrowRanges(db(), both, 1_000_000)).size).toBe(2);
    expect((await narrowRanges(db(), both, 0)).size).toBe(0);
    const nonEmpty = await askedBothWays(queries, [{ narrowRangeItems: 1_000_000 }, { narrowRangeItems: 0 }], (page) => page.count_total > 0);
    expect(nonEmpty, 'most ranges find orders (the comparison is not of empty answers)').toBeGreaterThan(15);
  });

  it('answers the same with the tab counts side by side as in the page’s statement, for every kind of search (decision 0042)', async () => {
    const [item] = await db().select().from(orderItems).where(sql`${orderItems.purchaseOrderDocNumber} is not null`).limit(1);
    const word = item!.materialDescription.split(' ').find((part) => part.length >= 3)!;
    const queries = ['', 'door', 'e', 'q', 'xz', item!.purchaseOrderDocNumber!, `mat=${item!.materialCode}`, `"material description"=${word}`, 'dl=delivered', 'dl=on_the_way', 'dl=to_be_picked_up', 'dl=delivered door', 'dd>2020-01-01'];
    const nonEmpty = await askedBothWays(
      queries,
      [{ sideBySide: true }, { sideBySide: false }],
      (page) => page.count_total > 0 && page.count_arrived + page.count_incoming + page.count_action_point > 0,
    );
    expect(nonEmpty, 'most searches find orders in several tabs (the comparison is not of empty answers)').toBeGreaterThan(20);
  });
});
