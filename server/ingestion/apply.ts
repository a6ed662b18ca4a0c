/**
 * Applying one checked ERP file inside the caller's transaction. First every line is checked
 * against the database (plants, storage locations, materials, order items exist; no key twice in
 * one file) and every problem is collected with its line; only a file without problems is
 * written, in multi-row statements (rows go in as one JSON parameter per batch, which keeps
 * PGlite fast). Upserts change a row only when a value differs, so re-sending the current state
 * is a no-op. A delivery status that changes emits a delivery notification to the order's
 * mechanic (the order's user_email) in the same transaction (server/notifications/emit.ts).
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../db/client';
import { emitNotifications } from '../notifications/emit';
import type { CsvRecord, LineError } from './csv';
import { ORDER_HEADER_COLUMNS, FILE_COLUMNS, type ErpFileType } from './formats';

type Executor = Db | Tx;

export interface ApplyOutcome {
  errors: LineError[];
  /** Rows inserted or changed per table (0 when the file restated the current state). */
  changed: Record<string, number>;
  notifications: number;
}

const BATCH = 1000;

async function queryRows<T>(tx: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await tx.execute(query));
}

/** Runs `statement(json)` per batch of rows; returns the rows the statements reported. */
async function inBatches<T>(tx: Executor, rows: readonly object[], statement: (json: string) => ReturnType<typeof sql>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    out.push(...(await queryRows<T>(tx, statement(JSON.stringify(rows.slice(i, i + BATCH))))));
  }
  return out;
}

const text = (record: CsvRecord, column: string): string | null => {
  const value = record.values[column];
  return typeof value === 'string' ? value : null;
};

/** Reports a key (e.g. plant + storage location + material) seen on an earlier line. */
function duplicates(records: readonly CsvRecord[], keyOf: (r: CsvRecord) => string, describe: (r: CsvRecord) => string): LineError[] {
  const first = new Map<string, number>();
  const errors: LineError[] = [];
  for (const record of records) {
    const key = keyOf(record);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, record.line);
    else errors.push({ line: record.line, message: `${describe(record)} appears twice (first on line ${seen})` });
  }
  return errors;
}

async function existing(tx: Executor, query: ReturnType<typeof sql>): Promise<Set<string>> {
  return new Set((await queryRows<{ k: string }>(tx, query)).map((r) => r.k));
}

// ───────────────────────────── MATERIALS ─────────────────────────────

async function applyMaterials(tx: Executor, records: readonly CsvRecord[], now: Date): Promise<ApplyOutcome> {
  const errors = duplicates(records, (r) => text(r, 'material_code')!, (r) => `Material ${text(r, 'material_code')}`);
  if (errors.length > 0) return { errors, changed: {}, notifications: 0 };
  void now;
  const rows = records.map((r) => ({
    code: text(r, 'material_code'),
    description_english: text(r, 'description_english'),
    unit: text(r, 'unit'),
    material_group: text(r, 'material_group'),
  }));
  const changed = await inBatches(tx, rows, (json) => sql`
    insert into materials (code, description_english, unit, material_group)
    select code, description_english, unit, material_group from json_populate_recordset(null::materials, ${json}::json)
    on conflict (code) do update set description_english = excluded.description_english, unit = excluded.unit, material_group = excluded.material_group
    where (materials.description_english, materials.unit, materials.material_group) is distinct from (excluded.description_english, excluded.unit, excluded.material_group)
    returning 1 as x`);
  return { errors: [], changed: { materials: changed.length }, notifications: 0 };
}

// ───────────────────────────── STOCK ─────────────────────────────

const STOCK_NUMBERS = ['unrestricted_count', 'quality_inspection_count', 'blocked_count', 'restricted_count', 'transfer_count', 'reorder_point', 'reorder_quantity'] as const;

async function applyStock(tx: Executor, records: readonly CsvRecord[], now: Date): Promise<ApplyOutcome> {
  const codes = JSON.stringify([...new Set(records.map((r) => text(r, 'material_code')!))]);
  const known = await existing(tx, sql`
    select 'p:' || code as k from plants
    union all select 'l:' || plant || '/' || code from storage_locations
    union all select 'm:' || code from materials where code in (select json_array_elements_text(${codes}::json))`);
  const plants = { has: (code: string) => known.has(`p:${code}`) };
  const locations = { has: (key: string) => known.has(`l:${key}`) };
  const materials = { has: (code: string) => known.has(`m:${code}`) };
  const errors: LineError[] = [];
  for (const r of records) {
    const plant = text(r, 'plant')!;
    const location = text(r, 'storage_location')!;
    const material = text(r, 'material_code')!;
    if (!plants.has(plant)) errors.push({ line: r.line, message: `Unknown plant code "${plant}"` });
    else if (!locations.has(`${plant}/${location}`)) errors.push({ line: r.line, message: `Storage location ${location} does not exist in plant ${plant}` });
    if (!materials.has(material)) errors.push({ line: r.line, message: `Unknown material code "${material}" (send it in a MATERIALS file first)` });
  }
  errors.push(...duplicates(records, (r) => `${text(r, 'plant')}/${text(r, 'storage_location')}/${text(r, 'material_code')}`, (r) => `Stock of ${text(r, 'material_code')} in ${text(r, 'plant')}/${text(r, 'storage_location')}`));
  if (errors.length > 0) return { errors: errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)), changed: {}, notifications: 0 };
  const rows = records.map((r) => ({
    plant: text(r, 'plant'),
    storage_location: text(r, 'storage_location'),
    material_code: text(r, 'material_code'),
    bin: text(r, 'bin'),
    ...Object.fromEntries(STOCK_NUMBERS.map((column) => [column, text(r, column)])),
    planner_groups: r.values.planner_groups ?? [],
    work_centers: r.values.work_centers ?? [],
    updated_at: now.toISOString(),
  }));
  const columns = sql.raw(['plant', 'storage_location', 'material_code', 'bin', ...STOCK_NUMBERS, 'planner_groups', 'work_centers', 'updated_at'].join(', '));
  const updatable = ['bin', ...STOCK_NUMBERS, 'planner_groups', 'work_centers'];
  // Update what exists, then insert what is new: an upsert would draw a sequence value per line.
  const setFromU = sql.raw(updatable.map((c) => `${c} = u.${c}`).join(', '));
  const beforeU = sql.raw(`(${updatable.map((c) => `s.${c}`).join(', ')})`);
  const afterU = sql.raw(`(${updatable.map((c) => `u.${c}`).join(', ')})`);
  const updated = await inBatches(tx, rows, (json) => sql`
    update stock_items s set ${setFromU}, updated_at = u.updated_at
    from json_populate_recordset(null::stock_items, ${json}::json) u
    where s.plant = u.plant and s.storage_location = u.storage_location and s.material_code = u.material_code
      and ${beforeU} is distinct from ${afterU}
    returning 1 as x`);
  const inserted = await inBatches(tx, rows, (json) => sql`
    insert into stock_items (${columns})
    select ${columns} from json_populate_recordset(null::stock_items, ${json}::json) u
    where not exists (select 1 from stock_items s where s.plant = u.plant and s.storage_location = u.storage_location and s.material_code = u.material_code)
    on conflict (plant, storage_location, material_code) do nothing
    returning 1 as x`);
  return { errors: [], changed: { stock_items: updated.length + inserted.length }, notifications: 0 };
}

// ───────────────────────────── ORDERS ─────────────────────────────

const ITEM_COLUMNS = FILE_COLUMNS.ORDERS.map((c) => c.name).filter(
  (name) => name !== 'service_order' && !(ORDER_HEADER_COLUMNS as readonly string[]).includes(name),
);

async function applyOrders(tx: Executor, records: readonly CsvRecord[], now: Date): Promise<ApplyOutcome> {
  const plants = await existing(tx, sql`select code as k from plants`);
  const errors: LineError[] = [];
  const headers = new Map<string, { line: number; values: Record<string, string | null> }>();
  for (const r of records) {
    const plant = text(r, 'plant')!;
    if (!plants.has(plant)) errors.push({ line: r.line, message: `Unknown plant code "${plant}"` });
    const order = text(r, 'service_order')!;
    const values = Object.fromEntries(ORDER_HEADER_COLUMNS.map((c) => [c, text(r, c)]));
    const first = headers.get(order);
    if (!first) headers.set(order, { line: r.line, values });
    else {
      const differing = ORDER_HEADER_COLUMNS.filter((c) => first.values[c] !== values[c]);
      if (differing.length > 0) errors.push({ line: r.line, message: `Service order ${order} has a different ${differing.join(', ')} than on line ${first.line}` });
    }
  }
  errors.push(...duplicates(records, (r) => `${text(r, 'service_order')}/${String(r.values.line_number)}`, (r) => `Item ${String(r.values.line_number)} of service order ${text(r, 'service_order')}`));
  if (errors.length > 0) return { errors: errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)), changed: {}, notifications: 0 };

  const stamp = now.toISOString();
  const orderRows = [...headers].map(([id, h]) => ({ id, service_order: id, ...h.values, created_at: stamp, updated_at: stamp }));
  const orderColumns = ['id', 'service_order', ...ORDER_HEADER_COLUMNS];
  const headerSet = sql.raw(ORDER_HEADER_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', '));
  const headerBefore = sql.raw(`(${ORDER_HEADER_COLUMNS.map((c) => `orders.${c}`).join(', ')})`);
  const headerAfter = sql.raw(`(${ORDER_HEADER_COLUMNS.map((c) => `excluded.${c}`).join(', ')})`);
  const orderCols = sql.raw([...orderColumns, 'created_at', 'updated_at'].join(', '));
  const changedOrders = await inBatches(tx, orderRows, (json) => sql`
    insert into orders (${orderCols})
    select ${orderCols} from json_populate_recordset(null::orders, ${json}::json)
    on conflict (id) do update set ${headerSet}, updated_at = excluded.updated_at
    where ${headerBefore} is distinct from ${headerAfter}
    returning 1 as x`);

  const itemRows = records.map((r) => ({
    order_id: text(r, 'service_order'),
    ...Object.fromEntries(ITEM_COLUMNS.map((c) => [c, r.values[c] ?? null])),
    updated_at: stamp,
  }));
  const updatable = ITEM_COLUMNS.filter((c) => c !== 'line_number');
  const itemCols = sql.raw(['order_id', ...ITEM_COLUMNS, 'updated_at'].join(', '));
  const itemSet = sql.raw(updatable.map((c) => `${c} = u.${c}`).join(', '));
  const itemBefore = sql.raw(`(${updatable.map((c) => `i.${c}`).join(', ')})`);
  const itemAfter = sql.raw(`(${updatable.map((c) => `u.${c}`).join(', ')})`);
  // Update what exists, then insert what is new: an upsert would draw a sequence value per line.
  const updatedItems = await inBatches(tx, itemRows, (json) => sql`
    update order_items i set ${itemSet}, updated_at = u.updated_at
    from json_populate_recordset(null::order_items, ${json}::json) u
    where i.order_id = u.order_id and i.line_number = u.line_number and ${itemBefore} is distinct from ${itemAfter}
    returning 1 as x`);
  const insertedItems = await inBatches(tx, itemRows, (json) => sql`
    insert into order_items (${itemCols})
    select ${itemCols} from json_populate_recordset(null::order_items, ${json}::json) u
    where not exists (select 1 from order_items i where i.order_id = u.order_id and i.line_number = u.line_number)
    on conflict (order_id, line_number) do nothing
    returning 1 as x`);
  return { errors: [], changed: { orders: changedOrders.length, order_items: updatedItems.length + insertedItems.length }, notifications: 0 };
}

// ───────────────────────────── DELIVERIES ─────────────────────────────

interface ItemRef {
  k: string;
  id: number;
  delivery_status: string | null;
  material_code: string;
  material_description: string;
  plant: string;
  user_id: string | null;
}

async function applyDeliveries(tx: Executor, records: readonly CsvRecord[], now: Date): Promise<ApplyOutcome> {
  const keyOf = (r: CsvRecord) => `${text(r, 'service_order')}/${String(r.values.line_number)}`;
  const pairs = JSON.stringify([...new Set(records.map(keyOf))]);
  const refs = await queryRows<ItemRef>(tx, sql`
    select i.order_id || '/' || i.line_number as k, i.id::int as id, i.delivery_status, i.material_code, i.material_description, o.plant, u.id as user_id
    from order_items i
    join orders o on o.id = i.order_id
    left join users u on u.email = o.user_email
    where i.order_id || '/' || i.line_number in (select json_array_elements_text(${pairs}::json))`);
  const byKey = new Map(refs.map((ref) => [ref.k, ref]));
  const errors: LineError[] = records
    .filter((r) => !byKey.has(keyOf(r)))
    .map((r) => ({ line: r.line, message: `No item ${String(r.values.line_number)} of service order ${text(r, 'service_order')} (send it in an ORDERS file first)` }));
  if (errors.length > 0) return { errors, changed: {}, notifications: 0 };

  const eventRows = records.map((r) => ({
    order_item_id: byKey.get(keyOf(r))!.id,
    tracking_number: text(r, 'tracking_number'),
    carrier: text(r, 'carrier'),
    status: text(r, 'event_status'),
    description: text(r, 'event_description'),
    location: text(r, 'event_location'),
    occurred_at: text(r, 'occurred_at'),
  }));
  // A scan already stored (same item, number, status and time) is not stored twice.
  const inserted = await inBatches<{ order_item_id: number }>(tx, eventRows, (json) => sql`
    insert into parcel_events (order_item_id, tracking_number, carrier, status, description, location, occurred_at)
    select e.order_item_id, e.tracking_number, e.carrier, e.status, e.description, e.location, e.occurred_at
    from (select distinct on (order_item_id, tracking_number, status, occurred_at) * from json_populate_recordset(null::parcel_events, ${json}::json)) e
    where not exists (select 1 from parcel_events p where p.order_item_id = e.order_item_id and p.tracking_number = e.tracking_number and p.status = e.status and p.occurred_at = e.occurred_at)
    returning order_item_id::int as order_item_id`);
  const withNewEvents = new Set(inserted.map((row) => Number(row.order_item_id)));

  // Per item, the file's last line decides: tracking number, delivery status, dates.
  const last = new Map<number, CsvRecord>();
  const lastStatus = new Map<number, string>();
  for (const r of records) {
    const id = byKey.get(keyOf(r))!.id;
    last.set(id, r);
    const status = text(r, 'delivery_status');
    if (status) lastStatus.set(id, status);
  }
  const itemRows = [...last].map(([id, r]) => ({
    id,
    tracking_number: text(r, 'tracking_number'),
    delivery_status: lastStatus.get(id) ?? null,
    eta: text(r, 'eta'),
    delivery_date: text(r, 'delivery_date'),
    has_new_events: withNewEvents.has(id),
  }));
  // transport_details is rebuilt from all scans of the item, so it always matches parcel_events.
  const changedItems = await inBatches(tx, itemRows, (json) => sql`
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
    from json_to_recordset(${json}::json) as u(id bigint, tracking_number text, delivery_status text, eta date, delivery_date date, has_new_events boolean)
    where i.id = u.id
      and (u.has_new_events
        or u.tracking_number is distinct from i.tracking_number
        or (u.delivery_status is not null and u.delivery_status is distinct from i.delivery_status)
        or (u.eta is not null and u.eta is distinct from i.eta)
        or (u.delivery_date is not null and u.delivery_date is distinct from i.delivery_date))
    returning 1 as x`);

  let notifications = 0;
  for (const ref of refs) {
    const status = lastStatus.get(ref.id);
    if (!status || status === ref.delivery_status || !ref.user_id) continue;
    const [order, line] = ref.k.split('/');
    const result = await emitNotifications(tx, {
      key: 'delivery_notification',
      userIds: [ref.user_id],
      subject: `Order ${order}: ${ref.material_description} – ${status}`,
      body: `Item ${line} of service order ${order} (${ref.material_code} ${ref.material_description}) is now "${status}".`,
      link: `/order-details/${order}`,
      plantCode: ref.plant,
    });
    notifications += result.recorded.length;
  }
  return { errors: [], changed: { parcel_events: inserted.length, order_items: changedItems.length }, notifications };
}

export async function applyRecords(tx: Executor, fileType: ErpFileType, records: readonly CsvRecord[], now: Date): Promise<ApplyOutcome> {
  switch (fileType) {
    case 'MATERIALS':
      return applyMaterials(tx, records, now);
    case 'STOCK':
      return applyStock(tx, records, now);
    case 'ORDERS':
      return applyOrders(tx, records, now);
    case 'DELIVERIES':
      return applyDeliveries(tx, records, now);
  }
}
