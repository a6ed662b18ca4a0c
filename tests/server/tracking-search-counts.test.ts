/**
 * The tab counts of a search (issue #16, docs/decisions/0035 addendum 2026-11-25), held on both
 * engines to a raw reading of the tables: a common letter walked without the gram filter (the
 * index's statistics name it common), a delivery status whose tabs the §4 rules rule out from the
 * status alone (a one-time condition over the statuses the items hold, so a status spelled in
 * another case still counts), and "material description=" named through the orders' search_text.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { orderItems, orders } from '../../server/db/schema';
import { commonShortTerms } from '../../server/repositories/tracking';
import { parseSearch } from '../../src/domain/search-language';
import { isActionPoint, isArrived } from '../../src/domain/tracking';
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
    const common = await commonShortTerms(db(), parseSearch('e q0 qj').terms);
    expect(common.has('e')).toBe(true);
    expect(common.has('qj')).toBe(false);
    for (const term of ['e', 'a', 'qj', 'x']) await check(term, holds(term));
  });

  it('counts delivery statuses by the §4 rules, a status spelled in another case included', async () => {
    // "delivered" in lower case: not arrived by its status (item_is_arrived reads "Delivered"),
    // so dl=delivered has an incoming order after all, which a rule read off the canonical
    // spelling alone would miss.
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
    expect((await get('dl=delivered', 'incoming')).count_incoming).toBe(0);
  });

  it('counts "material description=" words through the search_text as the items themselves', async () => {
    const [row] = await db().select({ description: orderItems.materialDescription }).from(orderItems).limit(1).offset(40);
    const word = row!.description.split(' ').find((part) => part.length >= 3)!;
    for (const term of [word.toUpperCase(), 'zzz-none', word.slice(0, 2)]) {
      await check(`"material description"=${term}`, (item) => item.materialDescription.toLowerCase().includes(term.toLowerCase()));
    }
  });
});
