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
import { and, asc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { isSuperManager, seesPlantsWhole } from '../../src/domain/permissions';
import { itemIcons, orderSummary, trackingStage, type TrackingFilter } from '../../src/domain/tracking';
import { findField, type SearchFieldKey, type SearchTerm } from '../../src/domain/search-language';
import type { OrderDetails, TrackingItem, TrackingRow, TrackingStatusPage } from '../../src/contract/parts';
import { executeNamed, rowsOf, spareConnections, type Db, type Tx } from '../db/client';
import { orderItems, orders, parcelEvents, plants, searchTextOfItem, searchTextOfOrder } from '../db/schema';
import { likePattern } from './stock-counts';
import { COUNT_CAP, CURSOR_TIMESTAMP, cappedPageOf, decodeCursor, encodeCursor } from './paging';
import type { CurrentUser } from './users';

type Executor = Db | Tx;

/**
 * The caller's scope in two parts: the plant part (whole plants, or the work centers / planner
 * groups the caller holds in them) and the extra part (ship-to-party numbers, orders addressed to
 * the caller) that lies outside it. `plants` undefined: every plant (super managers).
 */
interface ScopeParts {
  plants?: string[];
  narrowers: Array<{ plant: string; kind: 'work_center' | 'planner_group'; code: string }>;
  shipTo: string[];
  email: string;
}

function scopeParts(user: CurrentUser): ScopeParts {
  const narrowers = user.attachments
    .filter((a): a is typeof a & { kind: 'work_center' | 'planner_group' } => a.kind === 'work_center' || a.kind === 'planner_group')
    .map((a) => ({ plant: a.plant, kind: a.kind, code: a.code }));
  const shipTo = user.attachments.filter((a) => a.kind === 'ship_to_party').map((a) => a.code);
  if (isSuperManager(user.grants)) return { narrowers: [], shipTo: [], email: user.email };
  // A stock or customer-service admin who is also a mechanic or supervisor: the union of the
  // roles (§6), their plants whole. Narrowed, a stock admin of DE02 with a work center in FI01 saw no DE02 order.
  if (seesPlantsWhole(user.grants)) return { plants: user.plants, narrowers: [], shipTo, email: user.email };
  return { plants: user.plants, narrowers, shipTo, email: user.email };
}

/** Orders of the plant part of the scope. */
function plantPartSql(parts: ScopeParts, columns: { plant: AnyPgColumn; workCenter: AnyPgColumn; plannerGroup: AnyPgColumn }): SQL | undefined {
  if (!parts.plants) return undefined;
  if (parts.plants.length === 0) return sql`false`;
  const narrowed = parts.narrowers.map((n) =>
    and(eq(columns.plant, n.plant), eq(n.kind === 'work_center' ? columns.workCenter : columns.plannerGroup, n.code)),
  );
  return and(inArray(columns.plant, parts.plants), narrowed.length > 0 ? or(...narrowed) : undefined) ?? sql`false`;
}

/** A search's `plant=` / `plant!=` term, its value lower-cased as the term's SQL compares it. */
export interface PlantTerm {
  operator: '=' | '!=';
  value: string;
}

/**
 * The scope as seen by a search with `plant=` / `plant!=` terms (`lower(plant) = <value>`, or
 * `<>`, each ANDed; plant is never null): only the caller's plants the terms leave can hold a
 * match, and only their narrowers. The same orders either way, but PostgreSQL cannot tell that a
 * plant the caller does not hold matches none of theirs: a customer service admin of DE02
 * searching "plant=FI01" had each count walk all 449,400 orders of the list index for none
 * (~160 ms each at scale 500), the mechanic's "plant!=FI01" 350 ms (decision 0045). A narrower
 * names one plant, so one of a plant the terms exclude cannot match; when the caller had narrowers
 * and none is left, the plant part is empty (dropping them all would widen it to the whole plant).
 */
function narrowToPlants(parts: ScopeParts, plantTerms: readonly PlantTerm[]): ScopeParts {
  if (!parts.plants || plantTerms.length === 0) return parts;
  const kept = (plant: string) => plantTerms.every(({ operator, value }) => (plant.toLowerCase() === value) === (operator === '='));
  const narrowers = parts.narrowers.filter((n) => kept(n.plant));
  const plants = parts.plants.filter(kept);
  return { ...parts, plants: parts.narrowers.length > 0 && narrowers.length === 0 ? [] : plants, narrowers };
}

/**
 * The orders the caller may see (§6): the plant part, ship-to-party numbers, orders addressed to
 * them. `plantTerms`: a search's `plant=` and `plant!=` terms (narrowToPlants).
 */
export function trackingScope(user: CurrentUser, plantTerms: readonly PlantTerm[] = []): SQL | undefined {
  return scopeSql(narrowToPlants(scopeParts(user), plantTerms));
}

function scopeSql(parts: ScopeParts): SQL | undefined {
  if (!parts.plants) return undefined;
  return or(plantPartSql(parts, orders), extraPartSql(parts));
}

/** The extra part of the scope, one condition each: the caller's ship-to-party numbers, orders addressed to them. */
const extraParts = (parts: ScopeParts): SQL[] => [...(parts.shipTo.length > 0 ? [inArray(orders.shipToParty, parts.shipTo)] : []), eq(orders.userEmail, parts.email)];
const extraPartSql = (parts: ScopeParts) => or(...extraParts(parts))!;

/** §4 "arrived" (item_is_arrived, the SQL twin of isArrived; migration 0015, decision 0022). */
const arrivedSql = sql`item_is_arrived(${orderItems.deliveryStatus}, ${orderItems.goodsReceiptPostedAt}, ${orderItems.purchaseOrderGoodsReceiptQuantity})`;
/** A parcel waits at an access point: the mechanic has to act (item_is_action_point, twin of isActionPoint). */
const actionPointSql = sql`item_is_action_point(${orderItems.deliveryStatus})`;
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

/** The unit separator that joins the free-text columns (see searchTextOfItem, orders.search_text). */
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
  /** The page before's next_cursor, decoded (`trackingCursor`; docs/decisions/0035): read after it instead of by offset. */
  after?: TrackingCursor;
  now?: Date;
  /**
   * The tab counts as statements side by side (true) or in the page's statement (false). Unset:
   * side by side for a search when the pool has SIDE_BY_SIDE spare connections (docs/decisions/0042).
   */
  sideBySide?: boolean;
  /** The most items a range term may name to name its orders through its index (narrowRanges; tests). */
  narrowRangeItems?: number;
}

export interface TrackingCursor {
  updatedAt: string;
  id: string;
}

/**
 * A tracking cursor: the list-order key (updated_at to the microsecond in UTC, id) of a page's
 * last order, or null when the text is not one (the route answers 400). The timestamp must be a
 * real instant (a 13th month or 30 February would reach PostgreSQL's cast as a 500).
 */
export function trackingCursor(after: string): TrackingCursor | null {
  const key = decodeCursor(after, 2);
  const [updatedAt, id] = key ?? [];
  if (!updatedAt || id === undefined || !CURSOR_TIMESTAMP.test(updatedAt)) return null;
  const instant = Date.parse(updatedAt);
  if (Number.isNaN(instant) || new Date(instant).toISOString().slice(0, 19) !== updatedAt.slice(0, 19)) return null;
  return { updatedAt, id };
}

const jsonObject = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const stringList = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : null;

/**
 * A column as the answer sends it, read alike from either engine (the drivers differ in how they
 * hand over numerics, dates and instants): instants in ISO with milliseconds (Date#toISOString's
 * form), dates as their text, quantities and ids as numbers. PostgreSQL does this while it writes
 * the row, so Node hands the values on as they are: mapping the list's item rows column by column
 * through the query builder was a fifth of the server's time per call under load (decision 0040).
 * A float8 is written exactly (shortest round trip) with extra_float_digits ≥ 1, the default since
 * PostgreSQL 12. A column type not named here fails at once rather than being sent in a driver's form.
 */
function asSent(column: AnyPgColumn): SQL {
  const type = column.getSQLType();
  if (type.startsWith('numeric') || type === 'bigserial' || type === 'bigint') return sql`${column}::float8`;
  if (type === 'timestamp with time zone') return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  if (type === 'date') return sql`${column}::text`;
  if (['text', 'integer', 'jsonb', 'boolean'].includes(type)) return sql`${column}`;
  throw new Error(`asSent: no answer form for the column type "${type}"`);
}
/**
 * A select list of columns in their answer form, rendered to its text once: the lists are the same
 * on every call (a list page's rows select 47 columns; an order's details 10, then 36), and building a
 * 39-column list from its parts took ~0.1 ms of the server's time (decision 0050). It has no
 * parameters, so the text is the whole of it.
 */
const selectAsSent = (columns: Record<string, AnyPgColumn>, prefix = '') => {
  const rendered = new PgDialect().sqlToQuery(
    sql.join(
      Object.entries(columns).map(([key, column]) => sql`${asSent(column)} as ${sql.identifier(prefix + key)}`),
      sql`, `,
    ),
  );
  if (rendered.params.length > 0) throw new Error('selectAsSent: a select list with parameters cannot be rendered once');
  return sql.raw(rendered.sql);
};

/** An item's own fields (not its order, its order's plant or its change time), as a list or the details send them. */
type ItemFields = Omit<TrackingItem, 'stage' | 'icons'>;
const { orderId: _orderId, plant: _itemPlant, updatedAt: _itemUpdatedAt, ...ITEM_COLUMNS } = getTableColumns(orderItems);
const ITEM_FIELDS = selectAsSent(ITEM_COLUMNS);
const ITEM_KEYS = Object.keys(ITEM_COLUMNS);
/** The order fields a row of the list sends (not its search text: ~1 KB an order at scale). */
const ORDER_COLUMNS = {
  id: orders.id,
  serviceOrder: orders.serviceOrder,
  equipmentCode: orders.equipmentCode,
  equipmentDescription: orders.equipmentDescription,
  destination: orders.destination,
  plant: orders.plant,
  workCenter: orders.workCenter,
  plannerGroup: orders.plannerGroup,
  userEmail: orders.userEmail,
  updatedAt: orders.updatedAt,
};
type OrderFields = { [K in Exclude<keyof typeof ORDER_COLUMNS, 'updatedAt'>]: (typeof orders.$inferSelect)[K] } & { updatedAt: string };
const ORDER_SELECT_PREFIXED = selectAsSent(ORDER_COLUMNS, 'order.');
const ORDER_SELECT = selectAsSent(ORDER_COLUMNS);

export function toTrackingItem(fields: ItemFields, serviceOrder: string | null, now: Date): TrackingItem {
  const item = { ...fields, transportDetails: jsonObject(fields.transportDetails), smsTimestamps: stringList(fields.smsTimestamps) };
  return { ...item, stage: trackingStage({ ...item, serviceOrder }), icons: itemIcons(item, now) };
}

function toTrackingRow(order: OrderFields, items: TrackingItem[]): TrackingRow {
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
    updatedAt: order.updatedAt,
    summary: orderSummary(items),
    items,
  };
}

/** A tab's orders by their item summary (no search term: every item of an order matches). */
const summaryStatusSql: Record<TrackingFilter | 'actionPoint', SQL> = {
  all: sql`${orders.itemCount} > 0`,
  arrived: sql`${orders.arrivedItems} > 0`,
  incoming: sql`${orders.itemCount} > ${orders.arrivedItems}`,
  actionPoint: sql`${orders.actionPointItems} > 0`,
};

interface TabCounts {
  total: number;
  arrived: number;
  incoming: number;
  actionPoint: number;
}
type CountName = keyof TabCounts;
const COUNT_NAMES: CountName[] = ['total', 'arrived', 'incoming', 'actionPoint'];
/** How many orders the chosen tab holds. */
const tabOf = (status: TrackingFilter): CountName => (status === 'all' ? 'total' : status);

/** The §5 field terms that read the order row alone (the others read the item). */
const ORDER_FIELDS = new Set<SearchFieldKey>(['serviceOrder', 'plant', 'plannerGroup', 'equipment', 'equipmentDescription', 'workCenter', 'userEmail']);

/** Item fields with an index answering `=` (lower() btrees, the delivery date's btree; migrations 0015 and 0027). */
const INDEXED_ITEM_FIELDS = new Set<SearchFieldKey>(['purchaseOrder', 'deliveryOrder', 'salesOrder', 'trackingNumber', 'material', 'deliveryDate', 'storageLocation']);

/** A free term: the item's own text or its order's contains it (one trigram index each). */
function freeTermSql(value: string): SQL {
  // No match may span two columns: a term holding the separator is matched column by column.
  if (value.includes(SEPARATOR)) return termSql({ type: 'free', value } as SearchTerm)!;
  const pattern = likePattern(value);
  return sql`(${searchTextOfItem(orderItems)} ilike ${pattern} or ${searchTextOfOrder(orders)} ilike ${pattern})`;
}

/**
 * The order_short_grams() entries (migration 0030) every text holding a 1–2 character term holds:
 * with each character tripled, "dj" is "dddjjj", whose trigrams inside a word are "ddj" and
 * "djj"; "q" is "qqq". Only for ASCII letters, and a letter with a digit (pg_trgm's word
 * characters, stored as they are). A term of digits alone has none: the grams leave out runs of
 * digits that touch no letter (every digit pair is in most orders; decision 0049), so such a term,
 * like any other short term, is walked. Null when the term has none.
 */
export function shortTermGrams(value: string): string[] | null {
  // ASCII before lower-casing: JavaScript lower-cases the Kelvin sign to "k", PostgreSQL's lower() may not.
  if (!/^[a-zA-Z0-9]{1,2}$/.test(value) || /^[0-9]+$/.test(value)) return null;
  const term = value.toLowerCase();
  const [a, b] = [...term];
  return b === undefined ? [a!.repeat(3)] : [`${a}${a}${b}`, `${a}${b}${b}`];
}

/** The order's search_text (its own text and all its items', lower-cased) holds the text: a trigram index answers it from three characters. */
const inSearchText = (value: string) => sql`${orders.searchText} like lower(${likePattern(value)})`;
/** The same test by strpos, which no index answers: the form a walk of the list order reads. */
const holdsText = (value: string) => sql`strpos(${orders.searchText}, lower(${value})) > 0`;

/** A free term the orders' search_text can answer (a term holding the separator cannot). */
const textTerm = (term: SearchTerm): term is Extract<SearchTerm, { type: 'free' }> => term.type === 'free' && !term.value.includes(SEPARATOR);

/**
 * The orders a search may match, as a condition on `orders` (docs/decisions/0021, 0031): with
 * terms, an order matches a tab when one of its items matches every term and belongs to the tab
 * (`exists` over its items); the order-level field terms filter the order itself. Each free term
 * must also be in the order's search_text (its own text and all its items', lower-cased, one
 * trigram index): the planner reads that index when a term is rare, and walks the list order
 * checking the column row by row when it is common, stopping at the page or the count cap.
 * `whole`: the search is one free term alone, so an order with items whose search_text holds it
 * has a matching item (its own text, or an item's) and no `exists` is needed for the total.
 */
function searchSql(terms: SearchTerm[], { common, many }: TermStatistics = NO_STATISTICS, narrow: ReadonlySet<SearchTerm> = new Set()): Search {
  const orderTerms = terms.filter((term) => term.type !== 'free' && ORDER_FIELDS.has(term.field));
  const itemTerms = terms.filter((term) => !orderTerms.includes(term));
  const itemWhere = and(...itemTerms.map((term) => (term.type === 'free' ? freeTermSql(term.value) : termSql(term))));
  // A term shorter than a trigram gains nothing from the trigram index (a full index scan): it
  // is the substring test strpos, beside which a letter (or letter and digit) pair names its orders
  // through orders_short_grams_idx (shortTermGrams; docs/decisions/0035, 0049) when the pair is
  // rare. A common one ("e", "j": in 20% of the orders or more) is the strpos walk alone: as a
  // filter, order_short_grams() re-derives the trigrams of every walked order's whole text (0.3 ms an order),
  // which made a walk of 1,001 orders 380 ms (commonTerms, from the statistics; addendum
  // 2026-11-25). A common long term is the strpos walk too, where the planner ANDed its whole
  // trigram posting list with a tab's index (decision 0041); a rare one is the trigram index's.
  // The action-point tab's orders (13 % of them at scale 500) have a trigram index of their own
  // (orders_action_point_search_idx): its lists are short even for a common term, and reading
  // them beat the walk at every share measured up to "door" (31 %: 11 against 21 ms; a mechanic's
  // scope 27 against 61 ms), so a long term is always that index's there (the planner may still
  // walk, as for "elevator", 78 %).
  // `walk`: the page of a tab of more than COUNT_CAP orders, read in list order. There the grams
  // only filter the rows strpos already passed (a text holding the term holds its grams), each
  // at the cost of deriving them (0.05-0.3 ms an order): "q" (9 % of the orders) derived them for
  // ~900 orders on page 45 (decision 0049).
  const isCommon = (term: { value: string }) => common.has(term.value.toLowerCase());
  // `walked`: long terms this walk reads by strpos, not through the trigram index (walkedTerms).
  const texts = (name: CountName, walk: boolean, walked: ReadonlySet<string>) =>
    terms.filter(textTerm).map((term) => {
      const contains = holdsText(term.value);
      if (term.value.length >= 3) return (isCommon(term) && name !== 'actionPoint') || walked.has(term.value.toLowerCase()) ? contains : inSearchText(term.value);
      const grams = isCommon(term) || walk ? null : shortTermGrams(term.value);
      return grams ? sql`(${contains} and order_short_grams(${orders.searchText}) @> ${sql.param(grams)}::text[])` : contains;
    });
  // The item field terms also name their orders through the items' own indexes (a btree on the
  // document, the date, the status; trigrams on the description), as a condition the `exists`
  // implies: a rare document is a semi join of a few orders, a common one still a walk of the list
  // order that stops after a page (docs/decisions/0035; the `exists` alone walked every order).
  // Only equality on a btree-indexed item column, and a range PostgreSQL expects to name few
  // items (`narrow`, narrowRanges): a broader range, `!=`, the delivery status or a description
  // word match many items and are walked (a semi join would read all of them first: 2–7 s at
  // scale 500).
  const itemFieldTerms = itemTerms.filter(
    (term) => (term.type !== 'free' && term.operator === '=' && INDEXED_ITEM_FIELDS.has(term.field)) || narrow.has(term),
  );
  // The tab's item condition goes inside (an item of the tab matching the terms): a date whose
  // items are none of them arrived names no order for the arrived count, where the orders of all
  // its items were each checked by the `exists` (7,644 orders for a count of 0 at scale 500).
  const byItems = (tab: SQL | undefined) =>
    itemFieldTerms.length ? sql`${orders.id} in (select ${orderItems.orderId} from ${orderItems} where ${and(...itemFieldTerms.map(termSql), tab)})` : undefined;
  // Terms whose indexes hold the plant, or that name few rows by themselves (fewInScope): `sloc=`
  // (order_items_storage_location_plant_idx) and the order codes.
  const located = itemFieldTerms.some((term) => term.type !== 'free' && term.field === 'storageLocation' && term.operator === '=');
  const coded = located || orderTerms.some((term) => term.type !== 'free' && term.operator === '=' && SCOPED_ORDER_FIELDS.has(term.field));
  // `delivery=<status>` names the status of every matching item: the call reads what the §4 rules
  // say of the statuses the items hold once (statusFacts), and each tab is decided from that.
  const statusValues = itemTerms
    .filter((term): term is Extract<SearchTerm, { type: 'field' }> => term.type !== 'free' && term.field === 'delivery' && term.operator === '=')
    .map((term) => term.value.toLowerCase());
  const whole = itemTerms.length === 1 && textTerm(itemTerms[0]!);
  const wholeValue = whole ? (itemTerms[0] as Extract<SearchTerm, { type: 'free' }>).value : undefined;
  // "material description=<word>" is a substring of the item's text, so of its order's
  // search_text: the trigram index names the orders that may hold it, where the `exists` alone
  // walked every order (a word on 6% of the orders: 15,794 orders walked for 1,001 at scale 50).
  const named = terms.filter(textTerm).filter((term) => term.value.length >= 3 && !isCommon(term));
  const described = (walked: ReadonlySet<string>) =>
    describedWords(itemTerms).map((value) => (walked.has(value.toLowerCase()) ? holdsText(value) : inSearchText(value)));
  return {
    order: (tab, name, itemsNamed = false, walk = false, walked = NO_WALKED) =>
      and(...orderTerms.map(termSql), ...texts(name, walk, walked), ...described(walked), itemsNamed ? undefined : byItems(tab)),
    scoped: { items: located ? and(...itemFieldTerms.map(termSql)) : undefined, orders: and(...orderTerms.map(termSql)), coded },
    // Rare free terms of three characters or more, through the trigram index; none for one term
    // that the statistics put in many orders (its few orders would not be few).
    named: named.length === 1 && many.has(named[0]!.value.toLowerCase()) ? undefined : and(...named.map((term) => inSearchText(term.value))),
    // `offset 0` keeps the `exists` a per-order check (PostgreSQL does not turn it into a semi
    // join, which would read every item of the tab before the first order is known).
    items: (tab) => sql`exists (select 1 from ${orderItems} where ${orderItems.orderId} = ${orders.id} and ${and(itemWhere, tab) ?? sql`true`} offset 0)`,
    statusValues,
    statusOnly: statusValues.length > 0 && statusValues.length === itemTerms.length,
    orderOnly: itemTerms.length === 0,
    // Holds while byItems and itemWhere write each of these terms with termSql, and `narrow` holds
    // field range terms only (narrowRanges): no free term, `delivery=` or description term is one.
    itemsByIndex: itemTerms.length > 0 && itemFieldTerms.length === itemTerms.length,
    whole,
    ownText: whole ? sql`${searchTextOfOrder(orders)} ilike ${likePattern(wholeValue!)}` : undefined,
    // The same test as the items' (`ilike` is `lower() like lower()`), on the tab's items' text,
    // which the order holds lower-cased; no match spans two items (the term has no separator).
    inTabText: whole ? (column) => sql`${column} like lower(${likePattern(wholeValue!)})` : undefined,
  };
}

/** Order codes that an index answers by themselves or with the plant (`wc=`, `so=` …; fewInScope). */
const SCOPED_ORDER_FIELDS = new Set<SearchFieldKey>(['serviceOrder', 'plannerGroup', 'equipment', 'workCenter', 'userEmail']);

/** A search's terms as fewInScope asks them. */
interface ScopedTerms {
  /** With `sloc=`: the item field terms that an index answers. */
  items: SQL | undefined;
  /** The terms on the order row. */
  orders: SQL | undefined;
  /** A `sloc=` or order code term names the rows (plant terms alone do not: see fewInScope's callers). */
  coded: boolean;
}

interface Search {
  /**
   * Conditions on a tab's order rows (order fields, the free terms in search_text, item documents
   * of the tab by their index; not those when `itemsNamed`: fewInScope named their orders).
   * `walk`: for the walk of the list order, without the short terms' grams (there they only filter);
   * `walked`: the long terms it reads by strpos, not through the trigram index (walkedTerms).
   */
  order: (tab: SQL | undefined, name: CountName, itemsNamed?: boolean, walk?: boolean, walked?: ReadonlySet<string>) => SQL | undefined;
  /** What fewInScope asks (with `sloc=`, an order code, or plant terms that leave none of the caller's plants). */
  scoped: ScopedTerms;
  /** The order has an item matching every item term and the tab's item condition. */
  items: (tab: SQL | undefined) => SQL;
  /** The `delivery=` values (lower-cased): every matching item's status is each of them, in any case. */
  statusValues: string[];
  /** Every item term is a `delivery=` term: an order with an item of the named statuses has a matching item. */
  statusOnly: boolean;
  /** Every term reads the order row (plant, work center …): every item of a matching order matches. */
  orderOnly: boolean;
  /**
   * Every item term is one the items' indexes name their orders by (`order`'s semi join, with the
   * tab's item condition): that semi join is the `items` check itself, which then adds nothing.
   */
  itemsByIndex: boolean;
  /** The free terms of three characters or more in search_text (undefined without such a term). */
  named: SQL | undefined;
  /** One free term alone: an order whose search_text holds it has a matching item. */
  whole: boolean;
  /** With `whole`: the order's own text holds the term, so every item of it matches. */
  ownText: SQL | undefined;
  /** With `whole`: the order's text of its items in a tab (orders.arrivedText …) holds the term. */
  inTabText: ((column: AnyPgColumn) => SQL) | undefined;
}

/** The distinct delivery statuses of the items, one index step each (a skip scan of order_items_status_idx). */
const DELIVERY_STATUSES = sql`with recursive found(status) as (
    (select ${orderItems.deliveryStatus} from ${orderItems} where ${orderItems.deliveryStatus} is not null order by ${orderItems.deliveryStatus} limit 1)
    union all
    select (select i.delivery_status from ${orderItems} i where i.delivery_status > found.status order by i.delivery_status limit 1) from found where found.status is not null
  ) select status from found where status is not null`;

/**
 * What the §4 rules say of the statuses a search's `delivery=` terms name (the statuses the items
 * hold whose lower case is every value; read through order_items_status_idx one step per status),
 * as the rule functions decide them, the triggers' own. One small statement before the list's: a
 * status first written between the two is seen by the list's next call.
 */
interface StatusFacts {
  /** The statuses the items hold as they spell them (empty: no item has a named status). */
  spellings: string[];
  /** Some named status makes an item arrived by itself ("Delivered"); `allArrived`: every one does. */
  someArrived: boolean;
  allArrived: boolean;
  /** Some named status is an action point; `allActionPoint`: every one is. */
  someActionPoint: boolean;
  allActionPoint: boolean;
  /** The tab can hold a matching item at all: a status is named, and one that can be in the tab. */
  possible(name: CountName): boolean;
}

async function statusFacts(db: Executor, values: string[]): Promise<StatusFacts> {
  const status = sql.raw('statuses.status');
  const arrived = sql`item_is_arrived(${status}, null, null)`;
  const actionPoint = sql`item_is_action_point(${status})`;
  // One text for every `delivery=` search (the values are an array parameter): prepared (decision 0044).
  const [row] = rowsOf<{ spellings: string[] | null; some_arrived: boolean; all_arrived: boolean; some_action_point: boolean; all_action_point: boolean }>(
    await executeNamed(db, 'status_facts', sql`
      select array_agg(${status}) as spellings, coalesce(bool_or(${arrived}), false) as some_arrived, coalesce(bool_and(${arrived}), false) as all_arrived,
        coalesce(bool_or(${actionPoint}), false) as some_action_point, coalesce(bool_and(${actionPoint}), false) as all_action_point
      from (${DELIVERY_STATUSES}) statuses where lower(${status}) = all(${sql.param(values)}::text[])`),
  );
  const spellings = row?.spellings ?? [];
  const allArrived = row?.all_arrived ?? false;
  const someActionPoint = row?.some_action_point ?? false;
  return {
    spellings,
    someArrived: row?.some_arrived ?? false,
    allArrived,
    someActionPoint,
    allActionPoint: row?.all_action_point ?? false,
    // An item of a status that arrives by itself is never incoming; one of any status may be
    // arrived by its goods receipt.
    possible: (name) => spellings.length > 0 && !(name === 'incoming' && allArrived) && !(name === 'actionPoint' && !someActionPoint),
  };
}

/**
 * The free terms that are common, from PostgreSQL's statistics (one statement). A short term
 * (letters and digits) is common when its grams are among the most common entries of
 * orders_short_grams_idx with a share of at least COMMON_SHARE; a term of three characters or
 * more when at least COMMON_TEXT_SHARE of the sampled search texts (the column's histogram, the
 * sample the planner itself estimates LIKE from) holds it, and `many` when that share of the
 * table's rows is more than MANY_ORDERS (decision 0046). Reading an index's list for such a term is no
 * gain over walking (a count stops after 1,001 orders, a page after a page): for "door" (31 % of
 * the orders at scale 500) each count that ANDed the term's posting list (155,966 entries) with
 * its own index read 14 ms of it (decision 0041); as a filter order_short_grams() is costly. Without
 * statistics (never analyzed) every term counts as rare: the index paths of decisions 0031, 0035.
 */
export async function commonTerms(db: Executor, terms: SearchTerm[], { described = true }: { described?: boolean } = {}): Promise<TermStatistics> {
  const values = [...new Set(terms.filter(textTerm).map((term) => term.value.toLowerCase()))];
  const short = values.filter((value) => shortTermGrams(value));
  const free = values.filter((value) => value.length >= 3);
  // The share of a "material description=<word>" word too (walkedTerms), asked as a free word's;
  // `described: false` where no walk can use it (a search of descriptions alone then asks nothing).
  const long = [...new Set([...free, ...(described ? describedWords(terms) : []).map((value) => value.toLowerCase())])];
  if (short.length === 0 && long.length === 0) return NO_STATISTICS;
  const grams = short.flatMap((value) => shortTermGrams(value)!);
  // One text for every search (the terms are array parameters), asked by every search: prepared
  // (docs/decisions/0044). Its plan reads the catalog, whatever the terms.
  const result = await executeNamed(db, 'common_terms', sql`
    select 'gram:' || u.gram as key, u.share::float8 as share, null::float8 as orders, null::int as sampled from pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs[1:array_length(s.most_common_elems, 1)]) as u(gram, share)
    where s.schemaname = current_schema() and s.tablename = 'orders_short_grams_idx' and u.gram = any(${sql.param(grams)}::text[]) and u.share >= ${COMMON_SHARE}
    union all
    select 'text:' || t.value, t.share, (select greatest(c.reltuples, 0)::float8 from pg_class c where c.oid = 'orders'::regclass), t.sampled
    from (
      select t.value, (select avg((h like lower(t.pattern))::int) from unnest(s.histogram_bounds::text::text[]) as h)::float8 as share,
        array_length(s.histogram_bounds::text::text[], 1) as sampled
      from unnest(${sql.param(long)}::text[], ${sql.param(long.map(likePattern))}::text[]) as t(value, pattern), pg_stats s
      where s.schemaname = current_schema() and s.tablename = 'orders' and s.attname = 'search_text'
    ) t
    where t.share > 0`);
  const rows = rowsOf<{ key: string; share: number; orders: number | null; sampled: number | null }>(result);
  const grammed = new Set(rows.filter((row) => row.key.startsWith('gram:')).map((row) => row.key.slice(5)));
  const shares = new Map(rows.filter((row) => row.key.startsWith('text:')).map((row) => [row.key.slice(5), Number(row.share)]));
  const texts = rows.find((row) => row.orders !== null);
  const orderCount = Number(texts?.orders ?? 0);
  const isCommonText = (value: string) => (shares.get(value) ?? 0) >= COMMON_TEXT_SHARE;
  return {
    common: new Set([...short.filter((value) => shortTermGrams(value)!.every((gram) => grammed.has(gram))), ...free.filter(isCommonText)]),
    many: new Set(free.filter((value) => !isCommonText(value) && (shares.get(value) ?? 0) * orderCount > MANY_ORDERS)),
    shares,
    orders: orderCount,
    sampled: Number(texts?.sampled ?? 0),
  };
}

/** What the statistics say of a search's free terms (commonTerms), lower-cased. */
export interface TermStatistics {
  /** Terms read by the walk, not by an index (see commonTerms). */
  common: ReadonlySet<string>;
  /**
   * Long terms that are not common but that PostgreSQL's sample puts in more than MANY_ORDERS
   * orders: a search of one such term does not first ask for its few orders (fewOrders), which
   * would find more than FEW_ORDERS (7 ms for "motor", 3.7 % of the orders at scale 500).
   */
  many: ReadonlySet<string>;
  /**
   * The share of the sampled search texts that hold each long term (three characters or more: free
   * terms and "material description" words, lower-cased); a term no sampled text holds is absent.
   */
  shares: ReadonlyMap<string, number>;
  /** PostgreSQL's estimate of the number of orders (pg_class.reltuples). */
  orders: number;
  /** How many search texts the shares were read from (the column's histogram: 101 at the default statistics target). */
  sampled: number;
}

const NO_STATISTICS: TermStatistics = { common: new Set(), many: new Set(), shares: new Map(), orders: 0, sampled: 0 };

/** The words of "material description=<word>" terms that search_text can answer (three characters or more). */
function describedWords(terms: SearchTerm[]): string[] {
  return terms
    .filter((term): term is Extract<SearchTerm, { type: 'field' }> => term.type !== 'free' && term.field === 'materialDescription' && term.operator === '=' && term.value.length >= 3 && !term.value.includes(SEPARATOR))
    .map((term) => term.value);
}

/**
 * The long terms (lower-cased) that the page of a tab past the count cap finds by walking the list
 * order rather than through the trigram index. A search of one such term alone, by a caller who
 * sees every order, on the whole list: to reach its page the walk passes about `rows / s` orders
 * (s: the term's sampled share), where the index names `s × N` orders, every one read, checked and
 * sorted before the first row of the page is known. The walk is taken when it passes fewer:
 * `rows < s² × N`. PostgreSQL's own choice went the other way for `"material description"=Governor`
 * page 45 at scale 500 (6.5 % of the orders): 29,237 orders read, each with its items checked,
 * 420-580 ms, where the walk passes ~14,000 orders in 30-65 ms (decision 0051). A narrower
 * caller, another tab or another term would make the walk pass more orders for the same page, by
 * a share nobody has estimated: those keep PostgreSQL's choice. The share is read from a sample
 * (k of the ~101 texts of the column's histogram), so a term must be in at least
 * MIN_SAMPLED_HITS of them: a term in 1,100 of 449,400 orders (0.24 %) is in one of the sample's
 * texts in about a fifth of the analyses, and s = 1/101 would walk its first pages (~17,000
 * orders passed where its index names 1,100); in three of them in about 0.2 % (decision 0051).
 * The walk also assumes the term is spread over the list order, as every walk of a common term does.
 */
export function walkedTerms(terms: SearchTerm[], { shares, orders: orderCount, sampled }: TermStatistics, rows: number): ReadonlySet<string> {
  const named = [...terms.filter(textTerm).map((term) => term.value), ...describedWords(terms)].map((value) => value.toLowerCase());
  if (terms.length !== 1 || named.length !== 1 || named[0]!.length < 3) return NO_WALKED;
  const share = shares.get(named[0]!) ?? 0;
  if (Math.round(share * sampled) < MIN_SAMPLED_HITS) return NO_WALKED;
  return rows < share * share * orderCount ? new Set(named) : NO_WALKED;
}
/** The fewest sampled texts holding a term for walkedTerms to trust its share. */
const MIN_SAMPLED_HITS = 3;
const NO_WALKED: ReadonlySet<string> = new Set();

/** A range naming at most this many items names its orders through its index (narrowRanges). */
export const NARROW_RANGE_ITEMS = 50_000;

/**
 * The range terms (`dd>=2026-12-01`, `po<4500100000` …) on an indexed item field that PostgreSQL
 * expects to name at most NARROW_RANGE_ITEMS items (its own estimate, from the column's or the
 * index's statistics: a plan, not a run, ~1 ms). Such a term names its orders like an `=` term
 * (a semi join through its index): walking the list order and checking each order's items found
 * the 1,001 orders of a count only after tens of thousands of orders, and a tab the range hardly
 * reaches (dates ahead, arrived) walked all of them: `dd>=2026-12-01` (37,312 items of 1,079,472)
 * took 0.6-2 s at scale 500. A broad range stays the walk, which soon finds its orders, where the
 * semi join would read every matching item first (2-7 s; decision 0035). Decision 0045.
 */
export async function narrowRanges(db: Executor, terms: SearchTerm[], most = NARROW_RANGE_ITEMS): Promise<Set<SearchTerm>> {
  const ranges = terms.filter(
    (term): term is Extract<SearchTerm, { type: 'field' }> =>
      term.type === 'field' && ['>', '<', '>=', '<='].includes(term.operator) && INDEXED_ITEM_FIELDS.has(term.field),
  );
  const estimates = await Promise.all(
    ranges.map(async (term) => {
      const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (format json) select 1 from ${orderItems} where ${termSql(term)}`));
      const plan = row ? Object.values(row)[0] : undefined;
      const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan?: { 'Plan Rows'?: number } }> | undefined;
      return parsed?.[0]?.Plan?.['Plan Rows'];
    }),
  );
  return new Set(ranges.filter((_, i) => typeof estimates[i] === 'number' && estimates[i] <= most));
}

/**
 * A short term whose grams are each in at least this share of the orders is common. Measured at
 * scale 500: "j" (41% of the orders) answers in ~150 ms by the walk and ~400 ms through the index
 * (which then re-derives the grams of every walked order); "q" (9%) ~190 ms through the index and more by the walk,
 * whose four capped counts read ~11,000 orders each in list order; "door" (31 %) 56-72 ms with
 * the trigram index, 45-50 ms by the walk (decision 0041).
 */
const COMMON_SHARE = 0.2;
/**
 * A long term (three characters or more) in at least this share of the sampled search texts is
 * common: at scale 500 the walk's total, arrived and incoming counts beat the trigram index from
 * about 10 % of the orders ("roller", 16 %: 19, 24 and 20 ms through the index, 5, 14 and 7 ms
 * walked; "governor", 6.5 %: about even), and the column's sample of 101 texts puts a term of
 * 13-16 % at 9-14 %. The action-point count keeps its own index (searchSql).
 */
const COMMON_TEXT_SHARE = 0.08;
/** A term estimated in more orders than this is `many` (TermStatistics): four times FEW_ORDERS. */
const MANY_ORDERS = 800;

/**
 * The most orders that a search's counts and page read by their ids (FEW_ORDERS + 1 are asked).
 * Each count and the page of a rare term ("4500180285": 13 candidates in the trigram index, 1
 * order) read the index for themselves, ~8 ms each at scale 500 because the trigrams of a
 * document number are in most orders; named once, the five are lookups by id.
 */
export const FEW_ORDERS = 200;

/**
 * The ids of the orders in scope whose search_text holds the long free terms, when there are at
 * most FEW_ORDERS; undefined when there are more. PostgreSQL decides how: a common term walks
 * until FEW_ORDERS + 1 are found (well under a millisecond for "door"), a rare one reads the
 * trigram index once. The list's statement that follows reads the same rows again by id (an
 * order that changed between the two statements is checked again there, as everything is).
 */
async function fewOrders(db: Executor, where: SQL): Promise<string[] | undefined> {
  const found = rowsOf<{ id: string }>(await db.execute(sql`select ${orders.id} as id from ${orders} where ${where} limit ${FEW_ORDERS + 1}`));
  return found.length > FEW_ORDERS ? undefined : found.map((row) => row.id);
}

/**
 * The orders in the caller's scope that a search's indexed terms name (ScopedTerms), when there
 * are at most FEW_ORDERS of them (of their items, with an item term); undefined when there are
 * more (docs/decisions/0047). Two parts, each through indexes that hold the plant: the orders (or
 * items) of the caller's plants (in scope by any part, as the plant part may be narrowed to work
 * centres or planner groups), and the orders of the extra part (ship-to-party numbers, orders
 * addressed to the caller) in other plants. PostgreSQL cannot see that a code is nearly all one
 * plant's (extended statistics keep only the common pairs), so beside the caller's scope it
 * walked the whole list index, or read every item of the code, for each count: a DE02 admin's
 * `sloc=V001` (193,231 items, 54 in DE02 at scale 500) 1.2-1.5 s, `wc=FI01M001` and a
 * mechanic's `plant!=FI01` 120-190 ms. A code the caller's plants hold many of stops after
 * FEW_ORDERS + 1 rows (the list goes on as before). The list's statement that follows checks
 * every named order again, with its scope and every term.
 */
async function fewInScope(
  db: Executor,
  parts: ScopeParts & { plants: string[] },
  terms: ScopedTerms,
  plantTerms: readonly PlantTerm[],
): Promise<string[] | undefined> {
  const limit = FEW_ORDERS + 1;
  // Each part also answers the order's created_at, which the list index does not hold: beside a
  // LIMIT, PostgreSQL otherwise walked the list index (index-only), expecting from the codes'
  // spread over the plants to meet the part's rows soon, and found none after all 449,400 orders
  // (70-120 ms a part). A walk that must read each order's row costs it more than the (code,
  // plant) index's range, which is what it then reads.
  // The plants outside the caller's that the plant terms leave, as a condition the extra part's
  // (code, plant) indexes answer.
  const left = plantTerms.map(({ operator, value }) => sql`lower(${plants.code}) ${sql.raw(operator === '=' ? '=' : '<>')} ${value}`);
  const outside = sql`${orders.plant} = any(array(select ${plants.code} from ${plants} where ${and(sql`not ${inArray(plants.code, parts.plants)}`, ...left)}))`;
  const extra = extraParts(parts);
  const joined = sql`${orders} inner join ${orderItems} on ${orderItems.orderId} = ${orders.id}`;
  const selects = terms.items
    ? [
        // The items of the caller's plants, whatever the order terms (the list checks them).
        sql`select ${orderItems.orderId} as id, null::timestamptz as created_at from ${orderItems} where ${and(terms.items, inArray(orderItems.plant, parts.plants))}`,
        ...extra.map((part) => sql`select ${orders.id} as id, ${orders.createdAt} from ${joined} where ${and(part, outside, terms.orders, terms.items)}`),
      ]
    : [
        // Every order of the caller's plants in scope: by its plant part or, outside the work
        // centres / planner groups that narrow it, by the extra part.
        ...(parts.plants.length > 0
          ? [sql`select ${orders.id} as id, ${orders.createdAt} from ${orders} where ${and(terms.orders, inArray(orders.plant, parts.plants), or(plantPartSql(parts, orders), extraPartSql(parts)))}`]
          : []),
        ...extra.map((part) => sql`select ${orders.id} as id, ${orders.createdAt} from ${orders} where ${and(part, outside, terms.orders)}`),
      ];
  const found = rowsOf<{ id: string }>(
    await db.execute(sql`select id, created_at from (${sql.join(selects.map((select) => sql`(${select} limit ${limit})`), sql` union all `)}) found limit ${limit}`),
  );
  return found.length > FEW_ORDERS ? undefined : [...new Set(found.map((row) => row.id))];
}

/** Every item of the order is in the tab (by the order's item summary). */
const ALL_IN_TAB: Record<Exclude<CountName, 'total'>, SQL> = {
  arrived: sql`${orders.arrivedItems} = ${orders.itemCount}`,
  incoming: sql`${orders.arrivedItems} = 0`,
  actionPoint: sql`${orders.actionPointItems} = ${orders.itemCount}`,
};

/**
 * The search text of an order's items in a tab, where the order has items in and out of it
 * (migration 0024; NULL otherwise, where ALL_IN_TAB or the item summary answers).
 */
const TAB_TEXT: Record<Exclude<CountName, 'total'>, AnyPgColumn> = {
  arrived: orders.arrivedText,
  incoming: orders.incomingText,
  actionPoint: orders.actionPointText,
};

/** The items of a tab, by the §4 rules' SQL functions (migration 0015, decision 0022). */
const ITEM_TAB_SQL: Record<CountName, SQL | undefined> = {
  total: undefined,
  arrived: arrivedSql,
  incoming: sql`not ${arrivedSql}`,
  actionPoint: actionPointSql,
};

/**
 * Orders with an item of the statuses (as the items spell them) that is arrived by its goods
 * receipt and not by its status: order_items_received_idx (migration 0023) holds exactly those
 * items, so its predicate is written here as there.
 */
const receivedWith = (spellings: string[]) =>
  sql`${orders.id} in (select ${orderItems.orderId} from ${orderItems} where ${arrivedSql} and not item_is_arrived(${orderItems.deliveryStatus}, null, null) and ${withStatus(spellings)})`;
/** Orders with an item of the statuses (order_items_status_idx, index-only). */
const statusIn = (spellings: string[]) => sql`${orders.id} in (select ${orderItems.orderId} from ${orderItems} where ${withStatus(spellings)})`;
const withStatus = (spellings: string[]) => sql`${orderItems.deliveryStatus} = any(${sql.param(spellings)}::text[])`;

/** The page's order ids (one more than the page when another follows) and their list keys. */
interface PageIds {
  ids: string[] | null;
  updated: string[] | null;
}

/**
 * The spare pool connections from which a call asks its tab counts side by side (the page and up
 * to three counts; docs/decisions/0042). Fewer means the server is busy: the counts go into the
 * page's statement, whose work is the same with fewer statements to plan and answer.
 */
const SIDE_BY_SIDE = 4;

/**
 * One page of the tracking list (docs/decisions/0021). PostgreSQL answers everything: the tab
 * counts are exact up to COUNT_CAP and then a lower bound (`counts_capped` names them); the page
 * is the tab's orders newest change first: by id from the orders its count read when the tab holds
 * COUNT_CAP or fewer, else read through orders_list_idx (one row more than the page says whether
 * another follows). Without a search term the orders' item summary answers the
 * tabs; with terms, an order belongs to a tab when one of its items matches every term and the
 * tab. The rows and their matching items are read by the page's ids.
 */
export async function listTrackingStatus(db: Executor, user: CurrentUser, options: TrackingListOptions): Promise<TrackingStatusPage> {
  const now = options.now ?? new Date();
  const plantTerms = options.terms.flatMap((term): PlantTerm[] =>
    term.type === 'field' && term.field === 'plant' && (term.operator === '=' || term.operator === '!=') ? [{ operator: term.operator, value: term.value.toLowerCase() }] : [],
  );
  const parts = narrowToPlants(scopeParts(user), plantTerms);
  const scope = and(scopeSql(parts), options.myOrders ? eq(orders.userEmail, user.email) : undefined);
  const tab = tabOf(options.status);
  // Only a lone term on the whole list of a caller who sees every order may be walked (walkedTerms).
  const mayWalk = tab === 'total' && scope === undefined && options.terms.length === 1;
  // What the statistics say of the terms: two small statements, asked at once.
  const [statistics, narrow] =
    options.terms.length > 0
      ? await Promise.all([commonTerms(db, options.terms, { described: mayWalk }), narrowRanges(db, options.terms, options.narrowRangeItems)])
      : [NO_STATISTICS, undefined];
  const search = options.terms.length > 0 ? searchSql(options.terms, statistics, narrow) : null;
  const [few, fewScoped] = await Promise.all([
    search?.named ? fewOrders(db, and(scope, search.named)!) : undefined,
    // Plant terms alone ask only when they leave none of the caller's plants: otherwise the plants
    // they leave hold the orders of the list, which it walks as before.
    search && parts.plants && (search.scoped.coded || (plantTerms.length > 0 && parts.plants.length === 0))
      ? fewInScope(db, { ...parts, plants: parts.plants }, search.scoped, plantTerms)
      : undefined,
  ]);
  // The item documents' semi join is left out where fewInScope read the items for the orders.
  const itemsNamed = fewScoped !== undefined && search?.scoped.items !== undefined;
  const facts = search?.statusValues.length ? await statusFacts(db, search.statusValues) : undefined;
  /**
   * A tab's orders in two parts: conditions on the order row and the orders' indexes, and the
   * check of the order's items (none without terms, or for one free term's total).
   */
  const ofTab = (name: CountName, walk = false, walked: ReadonlySet<string> = NO_WALKED): { order: SQL | undefined; items?: SQL } => {
    if (!search) return { order: and(scope, summaryStatusSql[name === 'total' ? 'all' : name]) };
    if (facts && !facts.possible(name)) return { order: sql`false` };
    const named = and(few ? inArray(orders.id, few) : undefined, fewScoped ? inArray(orders.id, fewScoped) : undefined);
    // The item summary is the cheap first check: an order without an item of the tab has no
    // matching one either (docs/decisions/0031).
    const summary = summaryStatusSql[name === 'total' ? 'all' : name];
    const tabItems = ITEM_TAB_SQL[name];
    const order = and(byStatus(name), named, scope, search.order(tabItems, name, itemsNamed, walk, walked), summary);
    // Order fields alone (`plant=FI01`): every item of an order matches, so the item summary is
    // the whole check, as without a search.
    if (search.orderOnly || (name === 'total' && (search.whole || (facts && search.statusOnly)))) return { order };
    // Item terms that the items' indexes all answer (`dd=2026-12-01`, `po=…`): the order's semi join
    // on its items (byItems: every such term and the tab, on one item) is what the `exists` would
    // check again, item by item, for every order it names (7,644 of them for page 45 of
    // `dd=2026-12-01` at scale 500; decision 0049). Not where fewInScope named the orders instead.
    if (search.itemsByIndex && !itemsNamed) return { order };
    // One free term alone (addendum 2026-11-25): an order whose own text holds it has every item
    // matching, and one whose items are all in the tab has its matching item there: the item
    // summary answers both. An order with items in and out of the tab holds the text of those in
    // it (TAB_TEXT, docs/decisions/0041): no order's items are read.
    if (search.inTabText && name !== 'total') return { order, items: or(ALL_IN_TAB[name], search.ownText, search.inTabText(TAB_TEXT[name]))! };
    return { order, items: search.items(tabItems) };
  };
  /**
   * What the `delivery=` statuses add to a tab's order conditions. When each named status makes an
   * item arrived by itself ("Delivered"), a matching item is arrived, and so its order has one in
   * the item summary of the list index: the walk, newest first, checks the items of those orders
   * alone (`dl=delivered` checked 8,176 orders, mostly incoming, to find 1,001; decision 0040).
   * Likewise an action-point status and the action-point summary (its partial index). When none
   * does, a matching item is arrived only by a goods receipt: the arrived tab names those orders
   * through order_items_received_idx (`dl=on_the_way` walked 213,725 orders with an arrived item
   * for a count of 0, 1.5 s at scale 500).
   */
  const byStatus = (name: CountName): SQL | undefined => {
    if (!facts) return undefined;
    const actionPoint = facts.allActionPoint && name !== 'actionPoint' ? summaryStatusSql.actionPoint : undefined;
    if (name === 'arrived' && !facts.someArrived) return and(receivedWith(facts.spellings), actionPoint);
    return and(statusIn(facts.spellings), name === 'total' && facts.allArrived ? summaryStatusSql.arrived : undefined, actionPoint);
  };
  // Keyset (docs/decisions/0035): after a cursor, the page starts below its key in the index's
  // order (a row comparison on orders_list_idx); a page number alone is an offset.
  const cursor = options.after;
  const offset = cursor ? 0 : (options.page - 1) * options.maxResults;
  const below = cursor ? sql`(${orders.updatedAt}, ${orders.id}) < (${cursor.updatedAt}::timestamptz, ${cursor.id})` : undefined;
  // A count checks the items of the orders that the order conditions leave, apart from them
  // (`offset 0`): PostgreSQL costs the item check for every row a plan reads, so beside it a
  // broad term ("door": a third of the orders) read the whole trigram index into a bitmap for
  // each count (30-37 ms each at scale 500) where a walk finds 1,001 orders after a few thousand
  // rows. Alone, the order conditions are planned as the total's are: the walk for a broad term,
  // the index for a rare one (the count's limit reaches the inner query); for the action-point
  // tab, whose orders are few, their own trigram index (orders_action_point_search_idx, decision
  // 0043) or its partial index ANDed with the term's (with random_page_cost 1.1,
  // server/db/client.ts; at 4 PostgreSQL walked 155,000 orders of a mechanic for it).
  /** A tab's orders, at most COUNT_CAP + 1 of them, in no order. */
  const cappedIds = ({ order, items }: ReturnType<typeof ofTab>) =>
    items
      ? sql`select ${orders.id} from (select * from ${orders} where ${order ?? sql`true`} offset 0) ${orders} where ${items} limit ${COUNT_CAP + 1}`
      : sql`select ${orders.id} from ${orders} where ${order ?? sql`true`} limit ${COUNT_CAP + 1}`;
  const shown = ofTab(tab);
  // The page's walk reads a lone term by strpos where that passes fewer orders than its trigram
  // index names (walkedTerms): a caller who sees every order, on the whole list.
  const walkByText = mayWalk ? walkedTerms(options.terms, statistics, offset + options.maxResults + 1) : NO_WALKED;
  const walked = ofTab(tab, true, walkByText);
  // The shown tab's orders, up to COUNT_CAP + 1, are read once (`shown`): their number is the tab's
  // count, and when they are all of them (COUNT_CAP or fewer) the page is those orders in list
  // order, read by id. Only a larger tab walks the list order for its page, which then finds its
  // rows soon. A tab of few orders among many (a rare status, an empty tab) walked the whole list
  // index for its page (`dl=failed`, arrived tab: 1.2 s at scale 500; decision 0040).
  // The page's change times are written as text (the cursor's form) once the page is cut: a
  // select list is computed for every row a scan passes, so a deep offset formatted each row it
  // skipped (page 20,217 of the manager's 449,400 orders: 294-328 ms, 75-93 ms without; 0050).
  const listed = (where: SQL | undefined) =>
    sql`select ${orders.id} as id, ${orders.updatedAt} as updated
      from ${orders} where ${where ?? sql`true`}
      order by ${orders.updatedAt} desc, ${orders.id} desc limit ${options.maxResults + 1} offset ${offset}`;
  const pageSql = sql`select array_agg(id) as ids, array_agg(to_char(updated at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) as updated from (
        (${listed(and(sql`(select count(*) from shown) <= ${COUNT_CAP}`, sql`${orders.id} in (select id from shown)`, below))})
        union all
        (${listed(and(sql`(select count(*) from shown) > ${COUNT_CAP}`, walked.order, walked.items, below))})
      ) listed`;
  /** A tab's count (the shown tab's from `shown`), as a scalar subquery. */
  const countSql = (name: CountName) => (name === tab ? sql`(select count(*) from shown)::int` : sql`(select count(*) from (${cappedIds(ofTab(name))}) capped)::int`);
  // Counts the statuses settle without a walk of their own: every matching item arrived (arrived =
  // total) or at an action point (action point = total); none arrived by its status and none found
  // arrived by its receipt (incoming = total: the incoming walk runs only otherwise).
  const incomingAfterArrived = Boolean(facts && facts.possible('incoming') && !facts.someArrived);
  /**
   * One statement: `counted` is computed once, and the incoming walk is a subquery in a CASE arm
   * that is not run when the arm is not taken. Used with fewer than SIDE_BY_SIDE spare
   * connections (a busy server), on PGlite, in a transaction and for a list without a search
   * (whose counts read the item summary, a few milliseconds each).
   */
  async function countsInOneStatement(): Promise<TabCounts & { page: PageIds | undefined }> {
    const arrived = facts?.allArrived ? sql`counted.total` : sql`counted.arrived`;
    const incoming = incomingAfterArrived ? sql`case when counted.arrived = 0 then counted.total else ${countSql('incoming')} end` : countSql('incoming');
    const actionPoint = facts?.allActionPoint ? sql`counted.total` : countSql('actionPoint');
    const statement = sql`
      with shown as materialized (${cappedIds(shown)}),
      counted as materialized (select ${countSql('total')} as total, ${facts?.allArrived ? sql`0` : countSql('arrived')} as arrived)
      select counted.total, ${arrived} as arrived, ${incoming} as incoming, ${actionPoint} as action_point, page.ids, page.updated
      from counted, (${pageSql}) page`;
    // A list without a search, from its start or a cursor (what the app asks, the home screen's
    // first call), is prepared: parsing and planning it were about half of its time in the
    // database. A page by number past the first is not: a deep offset's plans cost far more, and
    // they would lead PostgreSQL to a generic plan for the first page too (for a mechanic's scope
    // 19 ms against 3.8; docs/decisions/0044).
    const result = await (search === null && offset === 0 ? executeNamed(db, 'tracking_page', statement) : db.execute(statement));
    const [found] = rowsOf<{ total: number; arrived: number; incoming: number; action_point: number } & PageIds>(result);
    return {
      total: Number(found?.total ?? 0),
      arrived: Number(found?.arrived ?? 0),
      incoming: Number(found?.incoming ?? 0),
      actionPoint: Number(found?.action_point ?? 0),
      page: found,
    };
  }

  /**
   * The page with its tab's count, and each other tab's count, as statements of their own asked at
   * once (docs/decisions/0042): each count is a walk or an index read that shares nothing with the
   * others, so on a pool with spare connections they run side by side on the database's cores,
   * where one statement ran them one after the other. Each statement sees its own snapshot, as
   * the call's first statements (the common terms, the few orders, the status facts) already do:
   * with writes landing meanwhile, two counts of one answer may be a moment apart.
   */
  async function countsSideBySide(): Promise<TabCounts & { page: PageIds | undefined }> {
    const page = db
      .execute(sql`with shown as materialized (${cappedIds(shown)}) select ${countSql(tab)} as shown, page.ids, page.updated from (${pageSql}) page`)
      .then((result) => rowsOf<{ shown: number } & PageIds>(result)[0]);
    // A tab the named statuses cannot hold is 0 without a statement (in one statement it is a
    // `false` condition, free; here it would be a round trip on a connection of its own).
    const countOf = (name: CountName): Promise<number> =>
      name === tab
        ? page.then((found) => Number(found?.shown ?? 0))
        : facts && !facts.possible(name)
          ? Promise.resolve(0)
          : db.execute(sql`select ${countSql(name)} as n`).then((result) => Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0));
    const total = countOf('total');
    const arrived = facts?.allArrived ? total : countOf('arrived');
    const incoming = incomingAfterArrived ? arrived.then((n) => (n === 0 ? total : countOf('incoming'))) : countOf('incoming');
    const actionPoint = facts?.allActionPoint ? total : countOf('actionPoint');
    // Every statement is awaited before the call answers or fails: none is left running on the pool.
    const settled = await Promise.allSettled([page, total, arrived, incoming, actionPoint]);
    const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return { total: await total, arrived: await arrived, incoming: await incoming, actionPoint: await actionPoint, page: await page };
  }

  const sideBySide = options.sideBySide ?? (search !== null && spareConnections(db) >= SIDE_BY_SIDE);
  const raw = await (sideBySide ? countsSideBySide() : countsInOneStatement());
  const row = raw.page;
  const counts: TabCounts = { total: raw.total, arrived: raw.arrived, incoming: raw.incoming, actionPoint: raw.actionPoint };
  const cappedNames: CountName[] = [];
  for (const name of COUNT_NAMES) {
    if (raw[name] > COUNT_CAP) {
      counts[name] = COUNT_CAP;
      cappedNames.push(name);
    }
  }
  const ids = row?.ids ?? [];
  const hasNext = ids.length > options.maxResults;
  const paging = cappedPageOf(counts[tab], cappedNames.includes(tab), options.page, options.maxResults, hasNext, ids.length);
  const itemWhere = and(...options.terms.map((term) => (term.type === 'free' ? freeTermSql(term.value) : termSql(term))), ITEM_STATUS_SQL[options.status]);
  const last = options.maxResults - 1;
  const nextCursor = hasNext ? encodeCursor([row!.updated![last]!, ids[last]!]) : null;
  const page = { ids: ids.slice(0, options.maxResults), itemWhere, named: options.terms.length === 0 };
  return { ...(await pageOfOrders(db, page, counts, paging, now, cappedNames)), next_cursor: nextCursor };
}

const COUNT_FIELDS = { total: 'count_total', arrived: 'count_arrived', incoming: 'count_incoming', actionPoint: 'count_action_point' } as const;

/** The page's orders with their matching items, in page order, and the envelope. */
async function pageOfOrders(
  db: Executor,
  { ids, itemWhere, named }: { ids: string[]; itemWhere: SQL | undefined; named: boolean },
  counts: TabCounts,
  paging: ReturnType<typeof cappedPageOf>,
  now: Date,
  capped: CountName[],
): Promise<TrackingStatusPage> {
  // One row per matching item with its order's fields beside it (prefixed "order."), in page order.
  // The ids are one array parameter, so a page of any length is one text: without a search term
  // (a tab's status at most) it is prepared, and its generic plan (the orders by key) is the one
  // every page needs (docs/decisions/0044).
  const statement = sql`
          select ${ITEM_FIELDS}, ${orderItems.orderId} as "orderId", ${ORDER_SELECT_PREFIXED}
          from ${orderItems} inner join ${orders} on ${orders.id} = ${orderItems.orderId}
          where ${and(sql`${orders.id} = any(${sql.param(ids)}::text[])`, itemWhere)}
          order by ${orderItems.orderId}, ${orderItems.lineNumber}`;
  const rows = ids.length
    ? rowsOf<ItemFields & { orderId: string } & Record<string, unknown>>(await (named ? executeNamed(db, 'tracking_rows', statement) : db.execute(statement)))
    : [];
  const byOrder = new Map<string, { order: OrderFields; items: TrackingItem[] }>();
  for (const row of rows) {
    let own = byOrder.get(row.orderId);
    if (!own) {
      const order = Object.fromEntries(Object.keys(ORDER_COLUMNS).map((key) => [key, row[`order.${key}`]])) as OrderFields;
      own = { order, items: [] };
      byOrder.set(row.orderId, own);
    }
    const fields: Record<string, unknown> = {};
    for (const key of ITEM_KEYS) fields[key] = row[key];
    own.items.push(toTrackingItem(fields as ItemFields, own.order.serviceOrder, now));
  }
  const trackingStatus = ids.flatMap((id) => {
    const own = byOrder.get(id);
    return own ? [toTrackingRow(own.order, own.items)] : [];
  });

  return {
    ...paging.envelope,
    trackingStatus,
    count_action_point: counts.actionPoint,
    count_arrived: counts.arrived,
    count_incoming: counts.incoming,
    count_total: counts.total,
    counts_capped: capped.map((name) => COUNT_FIELDS[name]),
  };
}

/** One order in the caller's scope with every item and its carrier events, or null. */
export async function findOrderDetails(db: Executor, user: CurrentUser, orderId: string, now = new Date()): Promise<OrderDetails | null> {
  const [order] = rowsOf<OrderFields>(await db.execute(sql`select ${ORDER_SELECT} from ${orders} where ${and(eq(orders.id, orderId), trackingScope(user))}`));
  if (!order) return null;
  const items = rowsOf<ItemFields>(await db.execute(sql`select ${ITEM_FIELDS} from ${orderItems} where ${eq(orderItems.orderId, order.id)} order by ${orderItems.lineNumber}`));
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
