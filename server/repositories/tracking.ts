/**
 * Tracking status (§3, §4, §5, §6): order rows and their items, scoped to what the caller may see,
 * filtered by the §5 search language (the shared parser, turned into SQL here) and by the §4
 * status filter, with the tab counts over the same scope and search.
 *
 * Scope: super managers (both kinds) see every order. Everyone else sees
 *   - orders in their plants, narrowed to their work centers / planner groups when they hold any
 *     (a mechanic sees the orders of their route, a supervisor those of their planner group;
 *     plant-wide roles such as stock and customer-service admins hold neither and see the plant),
 *   - orders for their ship-to-party numbers, and
 *   - orders addressed to them (user_email), wherever they are.
 * A row is an order with at least one item matching search and status; its `items` are those
 * matching items (the details call returns every item).
 */
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { isSuperManager } from '../../src/domain/permissions';
import { itemIcons, orderSummary, trackingStage, type TrackingFilter } from '../../src/domain/tracking';
import { findField, type SearchFieldKey, type SearchTerm } from '../../src/domain/search-language';
import type { OrderDetails, TrackingItem, TrackingRow, TrackingStatusPage } from '../../src/contract/parts';
import { rowsOf, type Db, type Tx } from '../db/client';
import { orderDayCounts, orderGroupCounts, orderItems, orders, parcelEvents, searchTextOfItem, searchTextOfOrder } from '../db/schema';
import { likePattern, pageOf } from './stock-counts';
import type { CurrentUser } from './users';
import type { IndexScope, TrackingSearchIndex } from '../search/tracking-index';

type Executor = Db | Tx;

/**
 * The caller's scope in two parts: the plant part (whole plants, or the work centers / planner
 * groups the caller holds in them) and the extra part (ship-to-party numbers, orders addressed to
 * the caller) that lies outside it. `plants` undefined: every plant (super managers).
 */
type ScopeParts = IndexScope;

function scopeParts(user: CurrentUser): ScopeParts {
  const narrowers = user.attachments
    .filter((a): a is typeof a & { kind: 'work_center' | 'planner_group' } => a.kind === 'work_center' || a.kind === 'planner_group')
    .map((a) => ({ plant: a.plant, kind: a.kind, code: a.code }));
  const shipTo = user.attachments.filter((a) => a.kind === 'ship_to_party').map((a) => a.code);
  if (isSuperManager(user.grants)) return { narrowers: [], shipTo: [], email: user.email };
  return { plants: user.plants, narrowers, shipTo, email: user.email };
}

/** Orders of the plant part, over `orders` or over `order_group_counts` (same column names). */
function plantPartSql(parts: ScopeParts, columns: { plant: AnyPgColumn; workCenter: AnyPgColumn; plannerGroup: AnyPgColumn }): SQL | undefined {
  if (!parts.plants) return undefined;
  if (parts.plants.length === 0) return sql`false`;
  const narrowed = parts.narrowers.map((n) =>
    and(eq(columns.plant, n.plant), eq(n.kind === 'work_center' ? columns.workCenter : columns.plannerGroup, n.code)),
  );
  return and(inArray(columns.plant, parts.plants), narrowed.length > 0 ? or(...narrowed) : undefined) ?? sql`false`;
}

/** The orders the caller may see (§6): the plant part, ship-to-party numbers, orders addressed to them. */
export function trackingScope(user: CurrentUser): SQL | undefined {
  const parts = scopeParts(user);
  if (!parts.plants) return undefined;
  return or(plantPartSql(parts, orders), parts.shipTo.length > 0 ? inArray(orders.shipToParty, parts.shipTo) : undefined, eq(orders.userEmail, parts.email));
}

/** §4 "arrived": delivered by the carrier or a goods receipt posted (the SQL twin of isArrived). */
const arrivedSql = sql`(coalesce(${orderItems.deliveryStatus}, '') = 'Delivered' or ${orderItems.goodsReceiptPostedAt} is not null or coalesce(${orderItems.purchaseOrderGoodsReceiptQuantity}, 0) > 0)`;
/** A parcel waits at an access point: the mechanic has to act (pick it up). */
const actionPointSql = sql`${orderItems.deliveryStatus} in ('ToBePickedUp', 'At access point')`;
/** The items of a tab (all: every item). */
const ITEM_STATUS_SQL: Record<TrackingFilter, SQL | undefined> = { all: undefined, arrived: arrivedSql, incoming: sql`not ${arrivedSql}` };

const FIELD_COLUMNS: Record<SearchFieldKey, AnyPgColumn> = {
  purchaseOrder: orderItems.purchaseOrderDocNumber,
  deliveryOrder: orderItems.deliveryOrderDocNumber,
  salesOrder: orderItems.salesOrderDocNumber,
  serviceOrder: orders.serviceOrder,
  storageLocation: orderItems.storageLocation,
  trackingNumber: orderItems.trackingNumber,
  plant: orders.plant,
  plannerGroup: orders.plannerGroup,
  equipment: orders.equipmentCode,
  equipmentDescription: orders.equipmentDescription,
  workCenter: orders.workCenter,
  userEmail: orders.userEmail,
  delivery: orderItems.deliveryStatus,
  material: orderItems.materialCode,
  materialDescription: orderItems.materialDescription,
  deliveryDate: orderItems.deliveryDate,
};

const FREE_TEXT_COLUMNS: AnyPgColumn[] = [
  orders.id,
  orders.equipmentCode,
  orders.equipmentDescription,
  orders.destination,
  orderItems.materialCode,
  orderItems.materialDescription,
  orderItems.reservationDocNumber,
  orderItems.purchaseOrderDocNumber,
  orderItems.salesOrderDocNumber,
  orderItems.deliveryOrderDocNumber,
  orderItems.trackingNumber,
];

const SQL_OPERATORS = { '>': sql`>`, '<': sql`<`, '>=': sql`>=`, '<=': sql`<=` } as const;

/**
 * One parsed term as SQL. Codes and documents compare case-insensitively; descriptions: `=` is
 * "contains", `!=` "does not contain"; dates compare as dates; `!=` also matches an empty field.
 */
function termSql(term: SearchTerm): SQL | undefined {
  if (term.type === 'free') return or(...FREE_TEXT_COLUMNS.map((column) => ilike(column, likePattern(term.value))));
  return fieldTermSql(term);
}

/** The unit separator that joins the columns of the trigram indexes (see searchTextOfItem). */
const SEPARATOR = '\x1f';

function fieldTermSql(term: Exclude<SearchTerm, { type: 'free' }>): SQL | undefined {
  const column = FIELD_COLUMNS[term.field];
  const kind = findField(term.field)?.kind;
  if (kind === 'date') {
    const value = sql`${term.value}::date`;
    if (term.operator === '=') return sql`${column} = ${value}`;
    if (term.operator === '!=') return sql`(${column} is null or ${column} <> ${value})`;
    return sql`${column} ${SQL_OPERATORS[term.operator]} ${value}`;
  }
  if (kind === 'text') {
    if (term.operator === '=') return ilike(column, likePattern(term.value));
    if (term.operator === '!=') return sql`(${column} is null or ${column} not ilike ${likePattern(term.value)})`;
  }
  const lowered = sql`lower(${column})`;
  const value = term.value.toLowerCase();
  if (term.operator === '=') return sql`${lowered} = ${value}`;
  if (term.operator === '!=') return sql`(${column} is null or ${lowered} <> ${value})`;
  return sql`${lowered} ${SQL_OPERATORS[term.operator]} ${value}`;
}

export interface TrackingListOptions {
  terms: SearchTerm[];
  status: TrackingFilter;
  myOrders: boolean;
  page: number;
  maxResults: number;
  now?: Date;
}

const num = (value: string | null): number | null => (value === null ? null : Number(value));
const jsonObject = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const stringList = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : null;

type ItemRecord = typeof orderItems.$inferSelect;
type OrderRecord = typeof orders.$inferSelect;

export function toTrackingItem(row: ItemRecord, serviceOrder: string | null, now: Date): TrackingItem {
  const item = {
    id: row.id,
    lineNumber: row.lineNumber,
    materialCode: row.materialCode,
    materialDescription: row.materialDescription,
    unit: row.unit,
    deliveryDate: row.deliveryDate,
    eta: row.eta,
    deliveryStatus: row.deliveryStatus,
    deliveryType: row.deliveryType,
    deliveryAddress: row.deliveryAddress,
    storageLocation: row.storageLocation,
    addressCode: row.addressCode,
    trackingNumber: row.trackingNumber,
    transportDetails: jsonObject(row.transportDetails),
    smsTimestamps: stringList(row.smsTimestamps),
    reservationDocNumber: row.reservationDocNumber,
    reservationQuantity: num(row.reservationQuantity),
    pending: num(row.pending),
    purchaseOrderDocNumber: row.purchaseOrderDocNumber,
    purchaseOrder: row.purchaseOrder,
    purchaseOrderQuantity: num(row.purchaseOrderQuantity),
    purchaseOrderConfirmationCategory: row.purchaseOrderConfirmationCategory,
    purchaseOrderConfirmationQuantity: num(row.purchaseOrderConfirmationQuantity),
    purchaseOrderGoodsReceiptQuantity: num(row.purchaseOrderGoodsReceiptQuantity),
    goodsReceiptPostedAt: row.goodsReceiptPostedAt?.toISOString() ?? null,
    salesOrderDocNumber: row.salesOrderDocNumber,
    salesOrderDocNumberAtPO: row.salesOrderDocNumberAtPO,
    salesOrderScheduleLineQuantity: num(row.salesOrderScheduleLineQuantity),
    salesOrderQuantity: num(row.salesOrderQuantity),
    deliveryOrderDocNumber: row.deliveryOrderDocNumber,
    deliveryQuantity: num(row.deliveryQuantity),
    mainAssetNumber: row.mainAssetNumber,
    network: row.network,
    costCenter: row.costCenter,
    actionPoint: row.actionPoint,
    notification: row.notification,
  };
  return { ...item, stage: trackingStage({ ...item, serviceOrder }), icons: itemIcons(item, now) };
}

function toTrackingRow(order: OrderRecord, items: TrackingItem[]): TrackingRow {
  return {
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
    summary: orderSummary(items),
    items,
  };
}

/** Reads a tab's orders from the orders' item summary (no search term: every item matches). */
const summaryStatusSql: Record<TrackingFilter, SQL> = {
  all: sql`${orders.itemCount} > 0`,
  arrived: sql`${orders.arrivedItems} > 0`,
  incoming: sql`${orders.itemCount} > ${orders.arrivedItems}`,
};

const countsOfOrders = {
  total: sql<number>`(count(*) filter (where ${orders.itemCount} > 0))::int`,
  arrived: sql<number>`(count(*) filter (where ${orders.arrivedItems} > 0))::int`,
  incoming: sql<number>`(count(*) filter (where ${orders.itemCount} > ${orders.arrivedItems}))::int`,
  actionPoint: sql<number>`(count(*) filter (where ${orders.actionPointItems} > 0))::int`,
};

interface TabCounts {
  total: number;
  arrived: number;
  incoming: number;
  actionPoint: number;
}

const addCounts = (a: TabCounts, b: TabCounts | undefined): TabCounts => ({
  total: a.total + Number(b?.total ?? 0),
  arrived: a.arrived + Number(b?.arrived ?? 0),
  incoming: a.incoming + Number(b?.incoming ?? 0),
  actionPoint: a.actionPoint + Number(b?.actionPoint ?? 0),
});
const NO_COUNTS: TabCounts = { total: 0, arrived: 0, incoming: 0, actionPoint: 0 };
/** How many orders the chosen tab holds. */
const tabTotal = (counts: TabCounts, status: TrackingFilter) => (status === 'all' ? counts.total : status === 'arrived' ? counts.arrived : counts.incoming);

/**
 * The list without a search term (docs/decisions/0013): the tab counts come from
 * order_group_counts for the plant part of the scope plus a direct count of the few orders outside
 * it (ship-to parties, orders addressed to the caller); a page of a whole-plant scope walks
 * order_day_counts to the day where it starts, so a deep page reads about one day of orders.
 */
async function listBySummary(db: Executor, user: CurrentUser, options: TrackingListOptions) {
  const parts = scopeParts(user);
  const plantPart = plantPartSql(parts, orders);
  const extraPart = parts.plants
    ? and(
        or(parts.shipTo.length > 0 ? inArray(orders.shipToParty, parts.shipTo) : undefined, eq(orders.userEmail, parts.email)),
        plantPart ? sql`not coalesce(${plantPart}, false)` : undefined,
      )
    : undefined;

  let counts: TabCounts;
  let scope: SQL | undefined;
  let walkPlants: string[] | undefined | null = null; // null: no day walk; undefined: every plant
  if (options.myOrders) {
    scope = and(eq(orders.userEmail, parts.email), trackingScope(user));
    const [mine] = await db.select(countsOfOrders).from(orders).where(scope);
    counts = addCounts(NO_COUNTS, mine);
  } else {
    const [grouped] = await db
      .select({
        total: sql<number>`coalesce(sum(${orderGroupCounts.orders}), 0)::int`,
        arrived: sql<number>`coalesce(sum(${orderGroupCounts.arrived}), 0)::int`,
        incoming: sql<number>`coalesce(sum(${orderGroupCounts.incoming}), 0)::int`,
        actionPoint: sql<number>`coalesce(sum(${orderGroupCounts.actionPoint}), 0)::int`,
      })
      .from(orderGroupCounts)
      .where(plantPartSql(parts, orderGroupCounts));
    const [extra] = extraPart ? await db.select(countsOfOrders).from(orders).where(extraPart) : [];
    counts = addCounts(addCounts(NO_COUNTS, grouped), extra);
    scope = parts.plants ? or(plantPart, extraPart) : undefined;
    if (parts.narrowers.length === 0 && Number(extra?.total ?? 0) === 0) walkPlants = parts.plants;
  }

  const paging = pageOf(tabTotal(counts, options.status), options.page, options.maxResults);
  const status = summaryStatusSql[options.status];

  let from: Date | undefined;
  let skip = paging.offset;
  if (walkPlants !== null && skip > 0) {
    const column = { all: orderDayCounts.orders, arrived: orderDayCounts.arrived, incoming: orderDayCounts.incoming }[options.status];
    const days = await db
      .select({ day: orderDayCounts.day, n: sql<number>`sum(${column})::int` })
      .from(orderDayCounts)
      .where(walkPlants ? inArray(orderDayCounts.plant, walkPlants) : undefined)
      .groupBy(orderDayCounts.day)
      .orderBy(desc(orderDayCounts.day));
    for (const { day, n } of days) {
      if (skip < Number(n)) {
        from = endOfUtcDay(day);
        break;
      }
      skip -= Number(n);
    }
    // Past the last order: the plain query answers with no rows.
    if (!from) skip = paging.offset;
  }
  const pageIds = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(scope, status, from ? sql`${orders.updatedAt} < ${from.toISOString()}` : undefined))
    .orderBy(desc(orders.updatedAt), desc(orders.id))
    .limit(options.maxResults)
    .offset(skip);
  return { counts, paging, ids: pageIds.map((row) => row.id) };
}

/** The instant a UTC day ('yyyy-mm-dd') ends. */
function endOfUtcDay(day: string): Date {
  const start = new Date(`${day}T00:00:00.000Z`);
  return new Date(start.getTime() + 24 * 60 * 60 * 1000);
}

/**
 * One page of the tracking list. Without a search term it reads the order summary (listBySummary);
 * with terms, the tracking search index answers the counts and the page's orders when it can
 * (docs/decisions/0016), else the database does (listBySearch); the rows are read here either way.
 */
export async function listTrackingStatus(
  db: Executor,
  user: CurrentUser,
  options: TrackingListOptions,
  index?: TrackingSearchIndex,
): Promise<TrackingStatusPage> {
  const now = options.now ?? new Date();
  if (options.terms.length === 0) {
    const { counts, paging, ids } = await listBySummary(db, user, options);
    return pageOfOrders(db, ids, ITEM_STATUS_SQL[options.status], counts, paging, now);
  }
  const scopeSql = and(trackingScope(user), options.myOrders ? eq(orders.userEmail, user.email) : undefined);
  const offset = (options.page - 1) * options.maxResults;
  const fromIndex = await index?.search({
    scope: scopeParts(user),
    mine: options.myOrders ? user.email : null,
    terms: options.terms,
    status: options.status,
    offset,
    limit: options.maxResults,
  });
  // The index names the page's matching items; the database finds them again by search and tab.
  const found = fromIndex ?? (await listBySearch(db, scopeSql, options, offset));
  const itemWhere = fromIndex
    ? sql`${orderItems.id} = any(${sql.param(fromIndex.itemIds)}::bigint[])`
    : and(scopeSql, ...options.terms.map(termSql), ITEM_STATUS_SQL[options.status]);
  const paging = pageOf(tabTotal(found.counts, options.status), options.page, options.maxResults);
  return pageOfOrders(db, found.ids, itemWhere, found.counts, paging, now);
}

/** The counts and the page's orders of a search, from the database (docs/decisions/0013). */
async function listBySearch(db: Executor, scopeSql: SQL | undefined, options: TrackingListOptions, offset: number): Promise<{ counts: TabCounts; ids: string[] }> {
  const tabColumn = { all: sql`true`, arrived: sql`per_order.arrived`, incoming: sql`per_order.incoming` }[options.status];

  // The matching items, read once. The first free term drives through the trigram indexes: items
  // whose own text contains it, plus (union all) items whose order's text does and their own does
  // not — an `or` across the join could use neither index. Other terms filter those rows.
  const driver = options.terms.find((term) => term.type === 'free' && !term.value.includes(SEPARATOR));
  const rest = and(scopeSql, ...options.terms.filter((term) => term !== driver).map(termSql));
  const matchingRows = (where: SQL | undefined) => sql`
    select ${orders.id} as id, ${orders.updatedAt} as updated_at, ${arrivedSql} as arrived, ${actionPointSql} as action_point
    from ${orderItems} inner join ${orders} on ${orders.id} = ${orderItems.orderId}
    where ${where ?? sql`true`}`;
  let matching: SQL;
  if (driver) {
    const pattern = likePattern(driver.value);
    const inItem = sql`${searchTextOfItem(orderItems)} ilike ${pattern}`;
    matching = sql`${matchingRows(and(rest, inItem))}
      union all
      ${matchingRows(and(rest, sql`${searchTextOfOrder(orders)} ilike ${pattern}`, sql`not (${inItem})`))}`;
  } else {
    matching = matchingRows(rest);
  }

  // One statement: an order counts in a tab when at least one of its matching items belongs there;
  // the page is the tab's orders, newest change first.
  const result = await db.execute(sql`
    with per_order as materialized (
      select id, updated_at, bool_or(arrived) as arrived, bool_or(not arrived) as incoming, bool_or(action_point) as action_point
      from (${matching}) matching
      group by id, updated_at
    )
    select
      (select count(*) from per_order)::int as total,
      (select count(*) from per_order where arrived)::int as arrived,
      (select count(*) from per_order where incoming)::int as incoming,
      (select count(*) from per_order where action_point)::int as action_point,
      (select array_agg(id) from (
        select id from per_order where ${tabColumn} order by updated_at desc, id desc limit ${options.maxResults} offset ${offset}
      ) page) as ids`);
  const [row] = rowsOf<{ total: number; arrived: number; incoming: number; action_point: number; ids: string[] | null }>(result);
  const counts: TabCounts = {
    total: Number(row?.total ?? 0),
    arrived: Number(row?.arrived ?? 0),
    incoming: Number(row?.incoming ?? 0),
    actionPoint: Number(row?.action_point ?? 0),
  };
  return { counts, ids: row?.ids ?? [] };
}

/** The page's orders with their matching items, in page order, and the envelope. */
async function pageOfOrders(
  db: Executor,
  ids: string[],
  itemWhere: SQL | undefined,
  counts: TabCounts,
  paging: ReturnType<typeof pageOf>,
  now: Date,
): Promise<TrackingStatusPage> {
  const rows = ids.length
    ? await db
        .select({ item: orderItems, order: orders })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(and(inArray(orders.id, ids), itemWhere))
        .orderBy(asc(orderItems.orderId), asc(orderItems.lineNumber))
    : [];
  const byOrder = new Map<string, typeof rows>();
  for (const row of rows) {
    const own = byOrder.get(row.order.id);
    if (own) own.push(row);
    else byOrder.set(row.order.id, [row]);
  }
  const trackingStatus = ids.flatMap((id) => {
    const own = byOrder.get(id);
    if (!own) return [];
    const order = own[0]!.order;
    return [toTrackingRow(order, own.map((row) => toTrackingItem(row.item, order.serviceOrder, now)))];
  });

  return {
    ...paging.envelope,
    trackingStatus,
    count_action_point: counts.actionPoint,
    count_arrived: counts.arrived,
    count_incoming: counts.incoming,
    count_total: counts.total,
  };
}

/** One order in the caller's scope with every item and its carrier events, or null. */
export async function findOrderDetails(db: Executor, user: CurrentUser, orderId: string, now = new Date()): Promise<OrderDetails | null> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), trackingScope(user)));
  if (!order) return null;
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.lineNumber));
  const events = items.length
    ? await db
        .select()
        .from(parcelEvents)
        .where(inArray(parcelEvents.orderItemId, items.map((item) => item.id)))
        .orderBy(asc(parcelEvents.occurredAt), asc(parcelEvents.id))
    : [];
  const detailed = items.map((row) => ({
    ...toTrackingItem(row, order.serviceOrder, now),
    parcelEvents: events
      .filter((event) => event.orderItemId === row.id)
      .map((event) => ({
        trackingNumber: event.trackingNumber,
        carrier: event.carrier,
        status: event.status,
        description: event.description,
        location: event.location,
        occurredAt: event.occurredAt.toISOString(),
      })),
  }));
  return { ...toTrackingRow(order, detailed), items: detailed };
}
