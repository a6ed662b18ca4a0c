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
import type { Db, Tx } from '../db/client';
import { orderItems, orders, parcelEvents } from '../db/schema';
import { likePattern, pageOf } from './stock-counts';
import type { CurrentUser } from './users';

type Executor = Db | Tx;

export function trackingScope(user: CurrentUser): SQL | undefined {
  if (isSuperManager(user.grants)) return undefined;
  const of = (kind: string) => user.attachments.filter((a) => a.kind === kind);
  const narrowers = [
    ...of('work_center').map((a) => and(eq(orders.plant, a.plant), eq(orders.workCenter, a.code))),
    ...of('planner_group').map((a) => and(eq(orders.plant, a.plant), eq(orders.plannerGroup, a.code))),
  ];
  const inPlants = user.plants.length > 0 ? and(inArray(orders.plant, user.plants), narrowers.length > 0 ? or(...narrowers) : undefined) : undefined;
  const shipTo = of('ship_to_party').map((a) => a.code);
  return or(inPlants, shipTo.length > 0 ? inArray(orders.shipToParty, shipTo) : undefined, eq(orders.userEmail, user.email)) ?? sql`false`;
}

/** §4 "arrived": delivered by the carrier or a goods receipt posted (the SQL twin of isArrived). */
const arrivedSql = sql`(coalesce(${orderItems.deliveryStatus}, '') = 'Delivered' or ${orderItems.goodsReceiptPostedAt} is not null or coalesce(${orderItems.purchaseOrderGoodsReceiptQuantity}, 0) > 0)`;
/** A parcel waits at an access point: the mechanic has to act (pick it up). */
const actionPointSql = sql`${orderItems.deliveryStatus} in ('ToBePickedUp', 'At access point')`;

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

export async function listTrackingStatus(db: Executor, user: CurrentUser, options: TrackingListOptions): Promise<TrackingStatusPage> {
  const now = options.now ?? new Date();
  const base = and(
    trackingScope(user),
    options.myOrders ? eq(orders.userEmail, user.email) : undefined,
    ...options.terms.map(termSql),
  );
  const statusSql = options.status === 'arrived' ? arrivedSql : options.status === 'incoming' ? sql`not ${arrivedSql}` : undefined;
  const itemWhere = and(base, statusSql);

  // One pass grouped by order (count(distinct) would sort every item): an order counts in a tab
  // when at least one of its matching items belongs there.
  const perOrder = db
    .select({
      arrived: sql<boolean>`bool_or(${arrivedSql})`.as('arrived'),
      incoming: sql<boolean>`bool_or(not ${arrivedSql})`.as('incoming'),
      actionPoint: sql<boolean>`bool_or(${actionPointSql})`.as('action_point'),
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(base)
    .groupBy(orders.id)
    .as('per_order');
  const [counts] = await db
    .select({
      total: sql<number>`count(*)::int`,
      arrived: sql<number>`(count(*) filter (where ${perOrder.arrived}))::int`,
      incoming: sql<number>`(count(*) filter (where ${perOrder.incoming}))::int`,
      actionPoint: sql<number>`(count(*) filter (where ${perOrder.actionPoint}))::int`,
    })
    .from(perOrder);
  const count = {
    all: Number(counts?.total ?? 0),
    arrived: Number(counts?.arrived ?? 0),
    incoming: Number(counts?.incoming ?? 0),
  };
  const paging = pageOf(count[options.status], options.page, options.maxResults);

  const pageIds = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(orderItems, eq(orders.id, orderItems.orderId))
    .where(itemWhere)
    .groupBy(orders.id)
    .orderBy(desc(orders.updatedAt), desc(orders.id))
    .limit(options.maxResults)
    .offset(paging.offset);
  const ids = pageIds.map((row) => row.id);

  const rows = ids.length
    ? await db
        .select({ item: orderItems, order: orders })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(and(inArray(orders.id, ids), itemWhere))
        .orderBy(asc(orderItems.orderId), asc(orderItems.lineNumber))
    : [];
  const trackingStatus = ids.map((id) => {
    const own = rows.filter((row) => row.order.id === id);
    const order = own[0]!.order;
    return toTrackingRow(order, own.map((row) => toTrackingItem(row.item, order.serviceOrder, now)));
  });

  return {
    ...paging.envelope,
    trackingStatus,
    count_action_point: Number(counts?.actionPoint ?? 0),
    count_arrived: count.arrived,
    count_incoming: count.incoming,
    count_total: count.all,
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
