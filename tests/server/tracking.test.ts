/**
 * Tracking status and important messages through the real app on the real database. Expected
 * rows and counts are computed here from the raw tables with the shared §4 rules, so the SQL of
 * the repository is checked against an independent reading of the same data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { orderItems, orders, userAttachments, users } from '../../server/db/schema';
import { isArrived } from '../../src/domain/tracking';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { trackingListQuery } from './list-params';

type Order = typeof orders.$inferSelect;
type Item = typeof orderItems.$inferSelect;
interface Row {
  orderId: string;
  plant: string;
  workCenter: string | null;
  plannerGroup: string | null;
  userEmail: string | null;
  items: Array<Record<string, unknown> & { materialCode: string; purchaseOrderDocNumber: string | null; deliveryStatus: string | null; deliveryDate: string | null }>;
}

const asFields = (item: Item) => ({ ...item, goodsReceiptPostedAt: item.goodsReceiptPostedAt?.toISOString() ?? null });

describe.each(ENGINES)('tracking status on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  let allOrders: Order[] = [];
  let allItems: Item[] = [];

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['mechanic', 'supervisor', 'stock.admin', 'cs.admin', 'manager', 'viewer', 'pm.reader']) {
      tokens[who] = await product.token(`${who}@example.com`);
    }
    allOrders = await product.database.db.select().from(orders);
    allItems = await product.database.db.select().from(orderItems).orderBy(asc(orderItems.orderId), asc(orderItems.lineNumber));
  });
  afterAll(async () => product?.close());

  const get = (who: string, url: string) => product.app.inject({ method: 'GET', url: `/parts/v1${url}`, headers: bearer(tokens[who]!) });
  const list = async (who: string, params: Record<string, string | number> = {}) => {
    const res = await get(who, `/users/me/tracking-status?${trackingListQuery(params)}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { page: number; pages: number; has_next: boolean; has_prev: boolean; trackingStatus: Row[]; count_total: number; count_arrived: number; count_incoming: number; count_action_point: number };
  };
  /** Every row of every page. */
  const everything = async (who: string, params: Record<string, string | number> = {}) => {
    const rows: Row[] = [];
    for (let page = 1; ; page++) {
      const body = await list(who, { ...params, page, maxResults: 100 });
      rows.push(...body.trackingStatus);
      if (!body.has_next) return { rows, body };
    }
  };

  /** The §4/§6 expectation for a set of visible orders. */
  const expected = (visible: (order: Order) => boolean, itemFilter: (item: Item, order: Order) => boolean = () => true) => {
    const byId = new Map(allOrders.filter(visible).map((order) => [order.id, order]));
    const items = allItems.filter((item) => byId.has(item.orderId) && itemFilter(item, byId.get(item.orderId)!));
    const ordersWith = (predicate: (item: Item) => boolean) => new Set(items.filter(predicate).map((item) => item.orderId)).size;
    return {
      total: ordersWith(() => true),
      arrived: ordersWith((item) => isArrived(asFields(item))),
      incoming: ordersWith((item) => !isArrived(asFields(item))),
      actionPoint: ordersWith((item) => item.deliveryStatus === 'ToBePickedUp' || item.deliveryStatus === 'At access point'),
    };
  };
  const mechanicSees = (order: Order) =>
    (order.plant === 'FI01' && order.workCenter === 'FI01M001') || order.shipToParty === '0050010001' || order.userEmail === 'mechanic@example.com';

  it('answers the first page of 20 with the §7 envelope and counts over the caller’s scope', async () => {
    const body = await list('mechanic');
    const want = expected(mechanicSees);
    expect(want.total).toBeGreaterThan(20);
    expect(body).toMatchObject({
      page: 1,
      pages: Math.ceil(want.total / 20),
      has_prev: false,
      has_next: true,
      count_total: want.total,
      count_arrived: want.arrived,
      count_incoming: want.incoming,
      count_action_point: want.actionPoint,
    });
    expect(body.trackingStatus).toHaveLength(20);
    const first = body.trackingStatus[0]!;
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['items', 'serviceOrder', 'equipmentCode', 'equipmentDescription', 'destination', 'orderId', 'summary']));
    expect(Object.keys(first.items[0]!)).toEqual(
      expect.arrayContaining(['materialCode', 'transportDetails', 'smsTimestamps', 'purchaseOrderConfirmationCategory', 'salesOrderDocNumberAtPO', 'actionPoint', 'notification', 'stage', 'icons']),
    );
  });

  it('sends every field of an order and its items as the tables hold them, in the list and in the details', async () => {
    // Read here column by column from the query builder's rows, the way the repository did before
    // PostgreSQL wrote the answer's forms itself (decision 0040): instants in ISO with
    // milliseconds, dates as text, quantities and ids as numbers.
    const quantity = (value: string | null) => (value === null ? null : Number(value));
    const asSent = (item: Item) => {
      // The item's plant is its order's (migration 0028): the row sends it, the item does not.
      const { orderId: _orderId, plant: _plant, updatedAt: _updatedAt, ...fields } = item;
      return {
        ...fields,
        reservationQuantity: quantity(item.reservationQuantity),
        pending: quantity(item.pending),
        purchaseOrderQuantity: quantity(item.purchaseOrderQuantity),
        purchaseOrderConfirmationQuantity: quantity(item.purchaseOrderConfirmationQuantity),
        purchaseOrderGoodsReceiptQuantity: quantity(item.purchaseOrderGoodsReceiptQuantity),
        salesOrderScheduleLineQuantity: quantity(item.salesOrderScheduleLineQuantity),
        salesOrderQuantity: quantity(item.salesOrderQuantity),
        deliveryQuantity: quantity(item.deliveryQuantity),
        goodsReceiptPostedAt: item.goodsReceiptPostedAt?.toISOString() ?? null,
      };
    };
    const ordersById = new Map(allOrders.map((order) => [order.id, order]));
    const itemsById = new Map(allItems.map((item) => [item.id, item]));
    const { rows } = await everything('manager');
    const seen = rows.flatMap((row) => row.items);
    expect(seen.length).toBe(allItems.length);
    // The seed's items hold each kind of value somewhere: a receipt instant, a quantity, a date.
    expect(allItems.some((item) => item.goodsReceiptPostedAt && item.reservationQuantity !== null && item.deliveryDate)).toBe(true);
    for (const row of rows) {
      const order = ordersById.get(row.orderId)!;
      const { summary: _summary, items: _items, ...fields } = row as Row & { summary: unknown };
      expect(fields).toEqual({
        orderId: order.id,
        serviceOrder: order.serviceOrder,
        equipmentCode: order.equipmentCode,
        equipmentDescription: order.equipmentDescription,
        destination: order.destination,
        plant: order.plant,
        workCenter: order.workCenter,
        plannerGroup: order.plannerGroup,
        userEmail: order.userEmail,
        updatedAt: order.updatedAt.toISOString(),
      });
      for (const item of row.items) {
        const { stage: _stage, icons: _icons, ...fields } = item;
        expect(fields).toEqual(asSent(itemsById.get(item.id as number)!));
      }
    }
    const shown = rows.find((row) => row.items.some((item) => item.goodsReceiptPostedAt !== null))!;
    const res = await get('manager', `/users/me/tracking-status/${encodeURIComponent(shown.orderId)}`);
    expect(res.statusCode, res.body).toBe(200);
    const details = res.json() as Row & { updatedAt: string; summary: unknown };
    const { summary: _summary, items: _items, ...orderFields } = details;
    const { summary: _listed, items: _listedItems, ...listedFields } = shown as Row & { summary: unknown };
    expect(orderFields).toEqual(listedFields);
    for (const item of details.items) {
      const { stage: _stage, icons: _icons, parcelEvents: _events, ...fields } = item;
      expect(fields).toEqual(asSent(itemsById.get(item.id as number)!));
    }
  });

  it('pages through every visible order exactly once, newest change first, and ends', async () => {
    const { rows, body } = await everything('mechanic');
    expect(rows.length).toBe(expected(mechanicSees).total);
    expect(new Set(rows.map((row) => row.orderId)).size).toBe(rows.length);
    expect(body.has_next).toBe(false);
    expect(body.has_prev).toBe(true);
    for (const row of rows) expect(mechanicSees(allOrders.find((order) => order.id === row.orderId)!)).toBe(true);
    const last = await list('mechanic', { page: body.pages + 5 });
    expect(last.trackingStatus).toEqual([]);
    expect(last.has_next).toBe(false);
  });

  it('arrived lists only delivered or received items, incoming the rest', async () => {
    const arrived = await everything('mechanic', { status: 'arrived' });
    const incoming = await everything('mechanic', { status: 'incoming' });
    const want = expected(mechanicSees);
    expect(arrived.rows.length).toBe(want.arrived);
    expect(incoming.rows.length).toBe(want.incoming);
    expect(arrived.body.count_total).toBe(want.total);
    const itemsOf = (rows: Row[]) => rows.flatMap((row) => row.items);
    expect(itemsOf(arrived.rows).every((item) => isArrived(item))).toBe(true);
    expect(itemsOf(incoming.rows).some((item) => isArrived(item))).toBe(false);
    expect(itemsOf(arrived.rows).length + itemsOf(incoming.rows).length).toBe(allItems.filter((item) => mechanicSees(allOrders.find((o) => o.id === item.orderId)!)).length);
  });

  it('my orders: only the caller’s orders, and only for the frontline roles', async () => {
    const mine = await everything('mechanic', { myOrders: 'true' });
    const want = expected((order) => order.userEmail === 'mechanic@example.com');
    expect(mine.rows.length).toBe(want.total);
    expect(mine.body.count_total).toBe(want.total);
    expect(mine.rows.every((row) => row.userEmail === 'mechanic@example.com')).toBe(true);
    const refused = await get('manager', '/users/me/tracking-status?myOrders=true&query=&page=1&status=all&maxResults=20');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('myOrders');
    expect((await get('supervisor', '/users/me/tracking-status?myOrders=true&query=&page=1&status=all&maxResults=20')).statusCode).toBe(200);
  });

  it.each([
    ['manager', () => true],
    ['viewer', () => true],
    ['stock.admin', (o: Order) => o.plant === 'FI01' || o.plant === 'DE02'],
    ['cs.admin', (o: Order) => o.plant === 'DE02'],
    ['supervisor', (o: Order) => o.plant === 'FI01' && o.plannerGroup === 'F10'],
    ['pm.reader', () => false],
  ] as const)('scopes %s to the orders its plants, work centers, planner groups and ship-to-parties allow', async (who, visible) => {
    const body = await list(who);
    const want = expected(visible);
    expect(body.count_total).toBe(want.total);
    expect(body.count_arrived).toBe(want.arrived);
    expect(body.count_incoming).toBe(want.incoming);
    for (const row of body.trackingStatus) expect(visible(allOrders.find((order) => order.id === row.orderId)!)).toBe(true);
  });

  it('po>= finds the orders with a purchase order at or above the value, counts follow the search', async () => {
    const pos = allItems.filter((item) => item.purchaseOrderDocNumber && mechanicSees(allOrders.find((o) => o.id === item.orderId)!)).map((item) => item.purchaseOrderDocNumber!).sort();
    const pivot = pos[Math.floor(pos.length / 2)]!;
    const { rows, body } = await everything('mechanic', { query: `po>=${pivot}` });
    const want = expected(mechanicSees, (item) => item.purchaseOrderDocNumber !== null && item.purchaseOrderDocNumber >= pivot);
    expect(rows.length).toBe(want.total);
    expect(body.count_total).toBe(want.total);
    expect(body.count_arrived).toBe(want.arrived);
    expect(rows.flatMap((row) => row.items).every((item) => item.purchaseOrderDocNumber! >= pivot)).toBe(true);
  });

  it('po= finds the order of a purchase order copied from the screen as order/item (#19 item 26)', async () => {
    const item = allItems.find((i) => i.purchaseOrder?.includes('/') && mechanicSees(allOrders.find((o) => o.id === i.orderId)!))!;
    expect(item.purchaseOrder).toMatch(/^\d+\/\d{5}$/);
    const { rows } = await everything('mechanic', { query: `po=${item.purchaseOrder}` });
    expect(rows.map((row) => row.orderId)).toContain(item.orderId);
    expect(rows.length).toBe(expected(mechanicSees, (i) => i.purchaseOrderDocNumber === item.purchaseOrderDocNumber).total);
    expect(rows.flatMap((row) => row.items).every((i) => i.purchaseOrderDocNumber === item.purchaseOrderDocNumber)).toBe(true);
  });

  it.each([
    ['mat=', (item: Item) => item.materialCode, (item: Item, value: string) => item.materialCode === value],
    ['tn=', (item: Item) => item.trackingNumber, (item: Item, value: string) => item.trackingNumber === value],
    ['do=', (item: Item) => item.deliveryOrderDocNumber, (item: Item, value: string) => item.deliveryOrderDocNumber === value],
    ['"sales order"=', (item: Item) => item.salesOrderDocNumber, (item: Item, value: string) => item.salesOrderDocNumber === value],
    ['sloc=', (item: Item) => item.storageLocation, (item: Item, value: string) => item.storageLocation === value],
    ['dd<=', (item: Item) => item.deliveryDate, (item: Item, value: string) => item.deliveryDate !== null && item.deliveryDate <= value],
  ] as const)('%s filters items by that field', async (prefix, read, matches) => {
    const visibleItems = allItems.filter((item) => mechanicSees(allOrders.find((o) => o.id === item.orderId)!) && read(item));
    const value = read(visibleItems[3]!)!;
    const { rows } = await everything('mechanic', { query: `${prefix}${value}` });
    const want = expected(mechanicSees, (item) => matches(item, value));
    expect(want.total).toBeGreaterThan(0);
    expect(rows.length).toBe(want.total);
    expect(rows.map((row) => row.orderId)).toContain(visibleItems[3]!.orderId);
  });

  it('order-level fields, dates in dd-mm-yyyy, delivery status, != and free text', async () => {
    const order = allOrders.find((o) => o.plant === 'DE02' && o.equipmentCode)!;
    const byEquipment = await list('manager', { query: `ec=${order.equipmentCode}` });
    expect(byEquipment.trackingStatus.map((row) => row.orderId)).toEqual([order.id]);
    expect((await list('manager', { query: `so=${order.id}` })).trackingStatus.map((row) => row.orderId)).toEqual([order.id]);
    const de = await list('manager', { query: 'plant=de02' });
    expect(de.count_total).toBe(expected((o) => o.plant === 'DE02').total);
    const notDe = await list('manager', { query: 'plant!=DE02 wc!=nothing' });
    expect(notDe.count_total).toBe(expected((o) => o.plant !== 'DE02').total);
    const mine = await list('manager', { query: 'user_email=Mechanic@Example.com' });
    expect(mine.count_total).toBe(expected((o) => o.userEmail === 'mechanic@example.com').total);
    const group = await list('manager', { query: 'planner-group=F10' });
    expect(group.count_total).toBe(expected((o) => o.plannerGroup === 'F10').total);

    const dated = allItems.find((item) => item.deliveryDate)!;
    const [y, m, d] = dated.deliveryDate!.split('-');
    const byDate = await list('manager', { query: `dd=${d}.${m}.${y}` });
    expect(byDate.count_total).toBe(expected(() => true, (item) => item.deliveryDate === dated.deliveryDate).total);

    const delivered = await everything('mechanic', { query: 'dl=delivered' });
    expect(delivered.rows.flatMap((row) => row.items).every((item) => item.deliveryStatus === 'Delivered')).toBe(true);
    expect(delivered.rows.length).toBe(expected(mechanicSees, (item) => item.deliveryStatus === 'Delivered').total);

    const word = allItems[0]!.materialDescription.split(' ')[0]!;
    const free = await list('manager', { query: word.toLowerCase() });
    expect(free.count_total).toBe(
      expected(() => true, (item, o) => [o.id, o.equipmentCode, o.equipmentDescription, o.destination, item.materialCode, item.materialDescription, item.reservationDocNumber, item.purchaseOrderDocNumber, item.salesOrderDocNumber, item.deliveryOrderDocNumber, item.trackingNumber].some((text) => text?.toLowerCase().includes(word.toLowerCase()))).total,
    );
    const description = await list('manager', { query: `"equipment description"="${order.equipmentDescription!.split(',')[0]}"` });
    expect(description.count_total).toBeGreaterThan(0);
  });

  it.each([
    // A work center narrows the mechanic's FI01: FI01 names those orders only, DE02 only the
    // orders of their ship-to party or addressed to them (decision 0045: the scope is narrowed to
    // the plants a `plant=` term names, never widened).
    ['mechanic', 'plant=FI01', (o: Order) => mechanicSees(o) && o.plant === 'FI01'],
    ['mechanic', 'plant=de02', (o: Order) => mechanicSees(o) && o.plant === 'DE02'],
    ['mechanic', 'plant=FI01 plant=DE02', () => false],
    ['cs.admin', 'plant=FI01', (o: Order) => o.plant === 'FI01' && o.userEmail === 'cs.admin@example.com'],
    ['stock.admin', 'plant=De02', (o: Order) => o.plant === 'DE02'],
    ['manager', 'plant=FI01 wc=FI01M001', (o: Order) => o.plant === 'FI01' && o.workCenter === 'FI01M001'],
    ['mechanic', 'plant!=fi01', (o: Order) => mechanicSees(o) && o.plant !== 'FI01'],
    ['stock.admin', 'plant!=DE02', (o: Order) => (o.plant === 'FI01' || o.userEmail === 'stock.admin@example.com') && o.plant !== 'DE02'],
    ['mechanic', 'plant=FI01 plant!=FI01', () => false],
  ] as const)('%s searching "%s" gets every tab of their scope in the plants it leaves', async (who, query, sees) => {
    const want = expected(sees);
    const { rows, body } = await everything(who, { query });
    expect({ total: body.count_total, arrived: body.count_arrived, incoming: body.count_incoming, actionPoint: body.count_action_point }).toEqual(want);
    expect(rows.map((row) => row.orderId).sort()).toEqual(allOrders.filter((o) => sees(o) && allItems.some((i) => i.orderId === o.id)).map((o) => o.id).sort());
    for (const status of ['arrived', 'incoming'] as const) {
      expect((await everything(who, { query, status })).rows.length, status).toBe(want[status]);
    }
  });

  it('a caller whose work center narrows one of two plants finds none of the other by naming it', async () => {
    // A supervisor (planner groups narrow, no plant-wide role) given FI01 and DE02; a work center
    // in FI01 narrows the plant part to its orders.
    const db = product.database.db;
    const [supervisor] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'supervisor@example.com'));
    const own = (o: Order) => o.userEmail === 'supervisor@example.com';
    const added = [
      { userId: supervisor!.id, kind: 'plant', plant: 'DE02', code: 'DE02' },
      { userId: supervisor!.id, kind: 'work_center', plant: 'FI01', code: 'FI01M001' },
    ];
    const held = await db.select().from(userAttachments).where(eq(userAttachments.userId, supervisor!.id));
    // Its own planner groups are set aside meanwhile: the work center alone narrows.
    await db.delete(userAttachments).where(and(eq(userAttachments.userId, supervisor!.id), eq(userAttachments.kind, 'planner_group')));
    await db.insert(userAttachments).values(added).onConflictDoNothing();
    try {
      for (const [query, sees] of [
        ['', (o: Order) => (o.plant === 'FI01' && o.workCenter === 'FI01M001') || own(o)],
        ['plant=DE02', (o: Order) => o.plant === 'DE02' && own(o)],
        ['plant=fi01', (o: Order) => o.plant === 'FI01' && (o.workCenter === 'FI01M001' || own(o))],
        ['plant!=FI01', (o: Order) => o.plant !== 'FI01' && own(o)],
      ] as const) {
        const body = await list('supervisor', { query });
        expect({ total: body.count_total, arrived: body.count_arrived, incoming: body.count_incoming, actionPoint: body.count_action_point }, query).toEqual(expected(sees));
      }
    } finally {
      await db.delete(userAttachments).where(eq(userAttachments.userId, supervisor!.id));
      await db.insert(userAttachments).values(held);
    }
  });

  it('a stock admin who also holds a work center sees their plants whole: the roles add up (§6)', async () => {
    // stock.admin holds FI01 and DE02; a work center in FI01 (as a mechanic would have) narrows nothing.
    const db = product.database.db;
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'stock.admin@example.com'));
    const narrower = { userId: admin!.id, kind: 'work_center', plant: 'FI01', code: 'FI01M001' };
    await db.insert(userAttachments).values(narrower);
    try {
      const own = (o: Order) => o.userEmail === 'stock.admin@example.com';
      for (const [query, sees] of [
        ['', (o: Order) => o.plant === 'FI01' || o.plant === 'DE02' || own(o)],
        ['plant=DE02', (o: Order) => o.plant === 'DE02'],
      ] as const) {
        const body = await list('stock.admin', { query });
        expect({ total: body.count_total, arrived: body.count_arrived, incoming: body.count_incoming, actionPoint: body.count_action_point }, query).toEqual(expected(sees));
      }
    } finally {
      const { userId, kind, plant, code } = narrower;
      await db
        .delete(userAttachments)
        .where(and(eq(userAttachments.userId, userId), eq(userAttachments.kind, kind), eq(userAttachments.plant, plant), eq(userAttachments.code, code)));
    }
  });

  it.each([
    ['status=bogus', 'status must be all, arrived or incoming'],
    ['myOrders=yes', 'myOrders must be true or false'],
    ['query=colour%3Dred', 'unknown field "colour"'],
    ['query=door+po%3D', 'Search term 2 "po="'],
    ['query=dd%3D2026-13-01', 'Search term 1 "dd=2026-13-01"'],
    ['query=dd%3D2026-02-30', 'Search term 1 "dd=2026-02-30": write a date as yyyy-mm-dd or dd-mm-yyyy'],
    ['query=dd>0000-01-01', 'Search term 1 "dd>0000-01-01"'],
    ['query=dl>delivered', 'only = and !='],
    // A name of Object.prototype is not a status (it was a 500).
    ['query=dl%3Dconstructor', 'Search term 1 "dl=constructor": use delivered'],
    ['query=lift*', 'wildcards'],
    ['page=0', 'page must be 1 or more'],
    ['page=abc', 'page'],
    ['maxResults=1000', 'maxResults must be 100 or less'],
  ])('refuses %s with a 400 naming it', async (query, message) => {
    const res = await get('mechanic', `/users/me/tracking-status?${trackingListQuery(query)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it.each(['query', 'page', 'status', 'myOrders', 'maxResults'])('refuses a list call without %s (§5 requires it, decision 0024)', async (name) => {
    const params = new URLSearchParams(trackingListQuery());
    params.delete(name);
    const res = await get('mechanic', `/users/me/tracking-status?${params}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`querystring.${name}: ${name} is required${name === 'query' ? ' (query= for no search)' : ''}`);
  });

  it('reads a control character in the search as a space, never as a database error', async () => {
    const res = await get('manager', '/users/me/tracking-status?query=rope%00x&page=1&status=all&myOrders=false&maxResults=20');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().count_total).toBe((await get('manager', '/users/me/tracking-status?query=rope+x&page=1&status=all&myOrders=false&maxResults=20')).json().count_total);
  });

  it('documents the parts calls in the OpenAPI document', async () => {
    const doc = (await product.app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/parts/v1/users/me/tracking-status', '/parts/v1/users/me/tracking-status/{orderId}', '/parts/v1/users/important-message']),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['TrackingStatusPage', 'TrackingRow', 'TrackingItem', 'OrderDetails', 'ImportantMessages']));
  });

  it('returns one order with every item and its carrier events, and hides orders outside the scope', async () => {
    const shipped = allItems.find((item) => item.trackingNumber && mechanicSees(allOrders.find((o) => o.id === item.orderId)!))!;
    const res = await get('mechanic', `/users/me/tracking-status/${shipped.orderId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.map((item: { id: number }) => item.id)).toEqual(allItems.filter((item) => item.orderId === shipped.orderId).map((item) => item.id));
    const item = body.items.find((entry: { id: number }) => entry.id === shipped.id);
    expect(item.parcelEvents.length).toBeGreaterThan(0);
    expect(item.parcelEvents[0]).toMatchObject({ trackingNumber: shipped.trackingNumber, status: 'InfoReceived' });
    expect(item.stage).toBe('DeliveryOrderItem');
    const hidden = allOrders.find((order) => !mechanicSees(order))!;
    const missing = await get('mechanic', `/users/me/tracking-status/${hidden.id}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('Service Order not found');
    expect((await get('manager', `/users/me/tracking-status/${hidden.id}`)).statusCode).toBe(200);
  });
});

describe.each(ENGINES)('important messages on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['mechanic', 'manager', 'viewer']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => product?.close());

  const call = (who: string, method: 'PUT' | 'DELETE', payload?: unknown, key?: string) =>
    product.app.inject({
      method,
      url: '/parts/v1/users/important-message',
      headers: { ...bearer(tokens[who]!), ...(key ? { 'idempotency-key': key } : {}) },
      payload: payload as Record<string, unknown> | undefined,
    });
  const messagesOf = async (who: string) =>
    (await product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers: bearer(tokens[who]!) })).json().importantMessages;

  it('only a super manager (not the read-only one) may set or clear them', async () => {
    for (const who of ['mechanic', 'viewer']) {
      const put = await call(who, 'PUT', { important_messages: ['hello'] });
      expect(put.statusCode).toBe(403);
      expect(put.json().message).toContain('importantMessages.write');
      expect((await call(who, 'DELETE')).statusCode).toBe(403);
    }
    expect(await messagesOf('mechanic')).toHaveLength(1);
  });

  it('set messages reach every profile in order; DELETE clears them; a repeat with the same key replays', async () => {
    const put = await call('manager', 'PUT', { important_messages: ['  First  ', '', 'Second'] }, 'broadcast-key-1');
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ important_messages: ['First', 'Second'] });
    expect(await messagesOf('mechanic')).toEqual(['First', 'Second']);
    expect(await messagesOf('viewer')).toEqual(['First', 'Second']);
    const replay = await call('manager', 'PUT', { important_messages: ['  First  ', '', 'Second'] }, 'broadcast-key-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await call('manager', 'DELETE')).json()).toEqual({ important_messages: [] });
    expect(await messagesOf('mechanic')).toEqual([]);
  });

  it('saves at once end with one whole list, never a mix of two (writers take turns)', async () => {
    const lists = Array.from({ length: 6 }, (_, i) => [`Save ${i} first`, `Save ${i} second`]);
    const answers = await Promise.all([...lists.map((list) => call('manager', 'PUT', { important_messages: list })), call('manager', 'DELETE')]);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(7).fill(200));
    const final = await messagesOf('mechanic');
    expect([[], ...lists]).toContainEqual(final);
    await call('manager', 'DELETE');
  });

  it('refuses bodies that are not a list of messages with a 400 naming the field', async () => {
    for (const payload of [{}, { important_messages: 'hi' }, { important_messages: [''] }, { important_messages: ['x'.repeat(501)] }, { important_messages: ['a'], extra: 1 }]) {
      const res = await call('manager', 'PUT', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(/important_messages|extra|Unrecognized/);
    }
  });
});
