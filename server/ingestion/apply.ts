/**
 * Applying one ERP file from its staging table (staging.ts, #16) inside the caller's transaction,
 * in set-based statements. First every line is checked against the database (plants, storage
 * locations, materials, order items exist; no key twice in one file) by queries over the staging
 * table that name each problem's line; only a file without problems is written. Upserts change a
 * row only when a value differs (update what exists, then insert what is new: an upsert would
 * draw a sequence value per line), so re-sending the current state is a no-op. A delivery status
 * that changes emits a delivery notification to the order's mechanic (the order's user_email) in
 * the same transaction (server/notifications/emit.ts). A row that exists is changed only in the
 * columns the file's header names: a file without an optional column leaves that column as it is
 * (its staging column is NULL for want of a value, not because the ERP cleared it).
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../db/client';
import { emitNotifications } from '../notifications/emit';
import { englishNotificationText } from '../notifications/texts';
import type { NotificationText } from '../../src/domain/notification-texts';
import { MAX_LISTED_ERRORS, type LineError } from './csv';
import { ORDER_HEADER_COLUMNS, FILE_COLUMNS, type ErpFileType } from './formats';
import { STAGING_TABLE } from './staging';

type Executor = Db | Tx;

export interface ApplyOutcome {
  /** The first errors (MAX_LISTED_ERRORS + 1 at most), by line; errorCount says how many. */
  errors: LineError[];
  errorCount: number;
  /** Rows inserted or changed per table (0 when the file restated the current state). */
  changed: Record<string, number>;
  notifications: number;
}

const STAGE = sql.raw(STAGING_TABLE);

async function queryRows<T>(tx: Executor, query: SQL): Promise<T[]> {
  return rowsOf<T>(await tx.execute(query));
}

async function countOf(tx: Executor, query: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(tx, sql`with changed as (${query}) select count(*) as n from changed`);
  return Number(row?.n ?? 0);
}

/**
 * Runs the checks (each a query answering `line`, `rank` — the order of messages on one line —,
 * `message`, and `code` with `params` (jsonb) that the app words in the reader's language) and
 * keeps the first errors by line, with their count.
 */
async function lineErrors(tx: Executor, checks: SQL[]): Promise<{ errors: LineError[]; errorCount: number }> {
  const union = sql.join(
    checks.map((check) => sql`(${check})`),
    sql` union all `,
  );
  const rows = await queryRows<{ line: number; message: string; code: string; params: Record<string, string | number> | string; total: number | string }>(
    tx,
    sql`select line, message, code, params, count(*) over () as total from (${union}) e order by line, rank limit ${MAX_LISTED_ERRORS + 1}`,
  );
  return {
    // PGlite answers jsonb parsed, node-postgres too; a string is parsed here all the same.
    errors: rows.map((r) => ({ line: Number(r.line), message: r.message, code: r.code, params: typeof r.params === 'string' ? (JSON.parse(r.params) as Record<string, string | number>) : r.params })),
    errorCount: Number(rows[0]?.total ?? 0),
  };
}

const refused = (found: { errors: LineError[]; errorCount: number }): ApplyOutcome => ({ ...found, changed: {}, notifications: 0 });

/**
 * Lines whose key appeared on an earlier line: "<what> appears twice (first on line N)"; `code`
 * with `params` (the key's columns as jsonb_build_object pairs) and firstLine.
 */
const duplicateCheck = (key: string, describe: SQL, rank: number, code: string, params: SQL): SQL => sql`
  select line, ${rank} as rank, ${describe} || ' appears twice (first on line ' || first_line || ')' as message,
    ${code}::text as code, jsonb_build_object(${params}, 'firstLine', first_line) as params
  from (select s.*, min(line) over (partition by ${sql.raw(key)}) as first_line from ${STAGE} s) d
  where line <> first_line`;

const columnList = (columns: readonly string[], prefix = '') => sql.raw(columns.map((c) => `${prefix}${c}`).join(', '));

/** The columns a file may change on a row that exists: those its header named. */
type Named = ReadonlySet<string>;
const namedOnly = (columns: readonly string[], named: Named) => columns.filter((column) => named.has(column));

// ───────────────────────────── MATERIALS ─────────────────────────────

async function applyMaterials(tx: Executor, named: Named): Promise<ApplyOutcome> {
  const found = await lineErrors(tx, [duplicateCheck('material_code', sql`'Material ' || material_code`, 1, 'erpDuplicateMaterial', sql`'material', material_code`)]);
  if (found.errorCount > 0) return refused(found);
  // description_english and unit are required: always named, so the row comparison has two columns at least.
  const updatable = namedOnly(['description_english', 'unit', 'material_group'], named);
  const changed = await countOf(
    tx,
    sql`
    insert into materials (code, description_english, unit, material_group)
    select material_code, description_english, unit, material_group from ${STAGE}
    on conflict (code) do update set ${sql.raw(updatable.map((c) => `${c} = excluded.${c}`).join(', '))}
    where (${columnList(updatable, 'materials.')}) is distinct from (${columnList(updatable, 'excluded.')})
    returning 1`,
  );
  return { errors: [], errorCount: 0, changed: { materials: changed }, notifications: 0 };
}

// ───────────────────────────── STOCK ─────────────────────────────

const STOCK_NUMBERS = ['unrestricted_count', 'quality_inspection_count', 'blocked_count', 'restricted_count', 'transfer_count', 'reorder_point', 'reorder_quantity'] as const;

async function applyStock(tx: Executor, now: Date, named: Named): Promise<ApplyOutcome> {
  const found = await lineErrors(tx, [
    sql`select s.line, 1 as rank, case when p.code is null then 'Unknown plant code "' || s.plant || '"'
          else 'Storage location ' || s.storage_location || ' does not exist in plant ' || s.plant end as message,
          case when p.code is null then 'erpUnknownPlant' else 'erpUnknownStorageLocation' end as code,
          jsonb_build_object('plant', s.plant, 'storageLocation', s.storage_location) as params
        from ${STAGE} s left join plants p on p.code = s.plant
        left join storage_locations l on l.plant = s.plant and l.code = s.storage_location
        where p.code is null or l.code is null`,
    sql`select s.line, 2 as rank, 'Unknown material code "' || s.material_code || '" (send it in a MATERIALS file first)' as message,
          'erpUnknownMaterial' as code, jsonb_build_object('material', s.material_code) as params
        from ${STAGE} s where not exists (select 1 from materials m where m.code = s.material_code)`,
    duplicateCheck(
      'plant, storage_location, material_code',
      sql`'Stock of ' || material_code || ' in ' || plant || '/' || storage_location`,
      3,
      'erpDuplicateStock',
      sql`'material', material_code, 'plant', plant, 'storageLocation', storage_location`,
    ),
  ]);
  if (found.errorCount > 0) return refused(found);
  const stockColumns = ['bin', ...STOCK_NUMBERS, 'planner_groups', 'work_centers'];
  const updatable = namedOnly(stockColumns, named);
  const stamp = now.toISOString();
  // A file naming no column but the key changes nothing of a row that exists.
  const updated =
    updatable.length === 0
      ? 0
      : await countOf(
          tx,
          sql`
    update stock_items s set ${sql.raw(updatable.map((c) => `${c} = u.${c}`).join(', '))}, updated_at = ${stamp}::timestamptz
    from ${STAGE} u
    where s.plant = u.plant and s.storage_location = u.storage_location and s.material_code = u.material_code
      and (${columnList(updatable, 's.')}) is distinct from (${columnList(updatable, 'u.')})
    returning 1`,
        );
  const columns = ['plant', 'storage_location', 'material_code', ...stockColumns];
  const inserted = await countOf(
    tx,
    sql`
    insert into stock_items (${columnList(columns)}, updated_at)
    select ${columnList(columns, 'u.')}, ${stamp}::timestamptz from ${STAGE} u
    where not exists (select 1 from stock_items s where s.plant = u.plant and s.storage_location = u.storage_location and s.material_code = u.material_code)
    on conflict (plant, storage_location, material_code) do nothing
    returning 1`,
  );
  return { errors: [], errorCount: 0, changed: { stock_items: updated + inserted }, notifications: 0 };
}

// ───────────────────────────── ORDERS ─────────────────────────────

const ITEM_COLUMNS = FILE_COLUMNS.ORDERS.map((c) => c.name).filter(
  (name) => name !== 'service_order' && !(ORDER_HEADER_COLUMNS as readonly string[]).includes(name),
);

async function applyOrders(tx: Executor, now: Date, named: Named): Promise<ApplyOutcome> {
  // Every line of one service order must agree on the header columns of its first line.
  const differs = sql.raw(
    `concat_ws(', ', ${ORDER_HEADER_COLUMNS.map((c) => `case when s.${c} is distinct from f.${c} then '${c}' end`).join(', ')})`,
  );
  const found = await lineErrors(tx, [
    sql`select s.line, 1 as rank, 'Unknown plant code "' || s.plant || '"' as message, 'erpUnknownPlant' as code, jsonb_build_object('plant', s.plant) as params
        from ${STAGE} s where not exists (select 1 from plants p where p.code = s.plant)`,
    sql`select line, 2 as rank, 'Service order ' || service_order || ' has a different ' || differing || ' than on line ' || first_line as message,
          'erpOrderHeaderDiffers' as code, jsonb_build_object('serviceOrder', service_order, 'columns', differing, 'firstLine', first_line) as params
        from (select s.line, s.service_order, f.line as first_line, ${differs} as differing
              from ${STAGE} s
              join (select distinct on (service_order) * from ${STAGE} order by service_order, line) f on f.service_order = s.service_order and f.line <> s.line) h
        where differing <> ''`,
    duplicateCheck('service_order, line_number', sql`'Item ' || line_number || ' of service order ' || service_order`, 3, 'erpDuplicateItem', sql`'item', line_number, 'serviceOrder', service_order`),
  ]);
  if (found.errorCount > 0) return refused(found);

  const stamp = now.toISOString();
  const headerColumns = [...ORDER_HEADER_COLUMNS];
  // An order that exists: the header columns the file names (plant always, it is required).
  const changedHeader = namedOnly(headerColumns, named);
  // A new order is written once, with the item summary and search text of the lines that follow
  // (migration 0020): the items' insert trigger then reads them, finds nothing to change and
  // writes nothing. These are the values of the items as inserted below (a column the ORDERS file
  // has not is NULL in order_items), through the same SQL rules as the trigger. For an order that
  // exists they are unused (the conflict updates its header only; the trigger counts its items).
  const item = (column: string) => sql.raw(ITEM_COLUMNS.includes(column) ? `u.${column}` : 'null');
  const arrived = sql`item_is_arrived(${item('delivery_status')}, ${item('goods_receipt_posted_at')}, ${item('purchase_order_goods_receipt_quantity')})`;
  // With the summary, the text of the items in each tab of an order that has items in and out of
  // it (migration 0024); each staged line's text and tabs are computed once.
  const itemText = sql`order_item_search_text(${item('material_code')}, ${item('material_description')}, ${item('reservation_doc_number')}, ${item('purchase_order_doc_number')},
          ${item('sales_order_doc_number')}, ${item('delivery_order_doc_number')}, ${item('tracking_number')})`;
  const changedOrders = await countOf(
    tx,
    sql`
    insert into orders (id, service_order, ${columnList(headerColumns)}, created_at, updated_at, item_count, arrived_items, action_point_items, search_text,
      arrived_text, incoming_text, action_point_text)
    select h.service_order, h.service_order, ${columnList(headerColumns, 'h.')}, ${stamp}::timestamptz, ${stamp}::timestamptz, s.n, s.a, s.p,
      lower(order_own_search_text(h.service_order, h.equipment_code, h.equipment_description, h.destination) || s.text),
      case when s.a > 0 and s.a < s.n then lower(s.arrived) end, case when s.a > 0 and s.a < s.n then lower(s.incoming) end,
      case when s.p > 0 and s.p < s.n then lower(s.action_point) end
    from (select distinct on (service_order) * from ${STAGE} order by service_order, line) h
    join (
      select u.service_order, count(*)::int as n,
        (count(*) filter (where u.arrived))::int as a,
        (count(*) filter (where u.action_point))::int as p,
        string_agg(u.text, '' order by u.line_number) as text,
        string_agg(u.text, '' order by u.line_number) filter (where u.arrived) as arrived,
        string_agg(u.text, '' order by u.line_number) filter (where not u.arrived) as incoming,
        string_agg(u.text, '' order by u.line_number) filter (where u.action_point) as action_point
      from (
        select u.service_order, u.line_number, ${itemText} as text, ${arrived} as arrived, item_is_action_point(${item('delivery_status')}) as action_point
        from ${STAGE} u
      ) u group by u.service_order
    ) s on s.service_order = h.service_order
    on conflict (id) do update set ${sql.raw(changedHeader.map((c) => `${c} = excluded.${c}`).join(', '))}, updated_at = excluded.updated_at
    where (${columnList(changedHeader, 'orders.')}) is distinct from (${columnList(changedHeader, 'excluded.')})
    returning 1`,
  );
  const updatable = namedOnly(ITEM_COLUMNS, named).filter((c) => c !== 'line_number');
  const updatedItems = await countOf(
    tx,
    sql`
    update order_items i set ${sql.raw(updatable.map((c) => `${c} = u.${c}`).join(', '))}, updated_at = ${stamp}::timestamptz
    from ${STAGE} u
    where i.order_id = u.service_order and i.line_number = u.line_number
      and (${columnList(updatable, 'i.')}) is distinct from (${columnList(updatable, 'u.')})
    returning 1`,
  );
  const insertedItems = await countOf(
    tx,
    sql`
    insert into order_items (order_id, plant, ${columnList(ITEM_COLUMNS)}, updated_at)
    select u.service_order, o.plant, ${columnList(ITEM_COLUMNS, 'u.')}, ${stamp}::timestamptz from ${STAGE} u join orders o on o.id = u.service_order
    where not exists (select 1 from order_items i where i.order_id = u.service_order and i.line_number = u.line_number)
    on conflict (order_id, line_number) do nothing
    returning 1`,
  );
  return { errors: [], errorCount: 0, changed: { orders: changedOrders, order_items: updatedItems + insertedItems }, notifications: 0 };
}

// ───────────────────────────── DELIVERIES ─────────────────────────────

interface StatusChange {
  order_id: string;
  line_number: number;
  delivery_status: string;
  material_code: string;
  material_description: string;
  plant: string;
  user_id: string;
}

async function applyDeliveries(tx: Executor, now: Date): Promise<ApplyOutcome> {
  const found = await lineErrors(tx, [
    sql`select s.line, 1 as rank, 'No item ' || s.line_number || ' of service order ' || s.service_order || ' (send it in an ORDERS file first)' as message,
          'erpNoSuchItem' as code, jsonb_build_object('item', s.line_number, 'serviceOrder', s.service_order) as params
        from ${STAGE} s where not exists (select 1 from order_items i where i.order_id = s.service_order and i.line_number = s.line_number)`,
  ]);
  if (found.errorCount > 0) return refused(found);
  await tx.execute(sql`alter table ${STAGE} add column item_id bigint`);
  await tx.execute(sql`update ${STAGE} s set item_id = i.id from order_items i where i.order_id = s.service_order and i.line_number = s.line_number`);

  // A scan already stored (same item, number, status and time) is not stored twice.
  await tx.execute(sql`create temp table erp_new_events on commit drop as
    with inserted as (
      insert into parcel_events (order_item_id, tracking_number, carrier, status, description, location, occurred_at)
      select e.item_id, e.tracking_number, e.carrier, e.event_status, e.event_description, e.event_location, e.occurred_at
      from (select distinct on (item_id, tracking_number, event_status, occurred_at) * from ${STAGE} order by item_id, tracking_number, event_status, occurred_at, line) e
      where not exists (select 1 from parcel_events p where p.order_item_id = e.item_id and p.tracking_number = e.tracking_number and p.status = e.event_status and p.occurred_at = e.occurred_at)
      returning order_item_id)
    select distinct order_item_id as item_id, count(*) over () as total from inserted`);
  const [events] = await queryRows<{ total: number | string }>(tx, sql`select coalesce(max(total), 0) as total from erp_new_events`);

  // Per item, the file's last line decides tracking number, eta and delivery date; its last status, the status.
  await tx.execute(sql`create temp table erp_item_changes on commit drop as
    select l.item_id, l.tracking_number, st.delivery_status, l.eta, l.delivery_date, (n.item_id is not null) as has_new_events,
      i.delivery_status as previous_status
    from (select distinct on (item_id) * from ${STAGE} order by item_id, line desc) l
    join order_items i on i.id = l.item_id
    left join (select distinct on (item_id) item_id, delivery_status from ${STAGE} where delivery_status is not null order by item_id, line desc) st on st.item_id = l.item_id
    left join erp_new_events n on n.item_id = l.item_id`);

  // transport_details is rebuilt from all scans of the item, so it always matches parcel_events.
  const changedItems = await countOf(
    tx,
    sql`
    update order_items i set
      tracking_number = u.tracking_number,
      delivery_status = coalesce(u.delivery_status, i.delivery_status),
      eta = coalesce(u.eta, i.eta),
      delivery_date = coalesce(u.delivery_date, i.delivery_date),
      transport_details = case when u.has_new_events then jsonb_build_object(
        'carrier', (select p.carrier from parcel_events p where p.order_item_id = i.id order by p.occurred_at desc, p.id desc limit 1),
        'trackingUrl', i.transport_details -> 'trackingUrl',
        'events', (select coalesce(jsonb_agg(jsonb_build_object('status', p.status, 'description', p.description, 'location', p.location,
          'occurredAt', to_char(p.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by p.occurred_at, p.id), '[]'::jsonb)
          from parcel_events p where p.order_item_id = i.id)) else i.transport_details end,
      updated_at = ${now.toISOString()}::timestamptz
    from erp_item_changes u
    where i.id = u.item_id
      and (u.has_new_events
        or u.tracking_number is distinct from i.tracking_number
        or (u.delivery_status is not null and u.delivery_status is distinct from i.delivery_status)
        or (u.eta is not null and u.eta is distinct from i.eta)
        or (u.delivery_date is not null and u.delivery_date is distinct from i.delivery_date))
    returning 1`,
  );

  const changes = await queryRows<StatusChange>(
    tx,
    sql`
    select i.order_id, i.line_number, c.delivery_status, i.material_code, i.material_description, o.plant, u.id as user_id
    from erp_item_changes c
    join order_items i on i.id = c.item_id
    join orders o on o.id = i.order_id
    join users u on u.email = o.user_email
    where c.delivery_status is not null and c.delivery_status is distinct from c.previous_status
    order by i.order_id, i.line_number`,
  );
  let notifications = 0;
  for (const change of changes) {
    const order = change.order_id;
    const line = change.line_number;
    const status = change.delivery_status;
    const text: NotificationText = {
      key: 'orderItemStatus',
      params: { order, line, material: change.material_code, description: change.material_description, status },
    };
    const result = await emitNotifications(tx, {
      key: 'delivery_notification',
      userIds: [change.user_id],
      ...englishNotificationText(text),
      text,
      link: `/order-details/${order}`,
      plantCode: change.plant,
    });
    notifications += result.recorded.length;
  }
  await tx.execute(sql`drop table erp_new_events`);
  await tx.execute(sql`drop table erp_item_changes`);
  return { errors: [], errorCount: 0, changed: { parcel_events: Number(events?.total ?? 0), order_items: changedItems }, notifications };
}

/** Checks and writes the rows staged for a file of this type (staging.ts). */
export async function applyStaged(tx: Executor, fileType: ErpFileType, now: Date, named: Named): Promise<ApplyOutcome> {
  switch (fileType) {
    case 'MATERIALS':
      return applyMaterials(tx, named);
    case 'STOCK':
      return applyStock(tx, now, named);
    case 'ORDERS':
      return applyOrders(tx, now, named);
    case 'DELIVERIES':
      return applyDeliveries(tx, now);
  }
}
