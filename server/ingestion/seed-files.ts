/**
 * The demo seed's 30 days of ERP files (#9), really ingested: for every expected slot of the
 * default schedule the seed writes a CSV that restates a slice of the seeded world (materials,
 * stock rows, order items, parcel scans), and runs it through registerFile → claimNext →
 * processClaimed in the seed's transaction, with the clock set to when the file "arrived". So the
 * file_processing rows, their line counts and their line-numbered errors come from the real
 * parser and checks, and every start exercises the pipeline. Restating current values changes
 * nothing (the upserts skip equal rows), so the seeded world stays exactly as built.
 *
 * Deterministic: which slots are errored or missing follows a hash of the slot, and row ids are
 * derived from labels, never random. Today: the latest arrived file waits (not_processed), the
 * one before it is claimed by a worker that "died" (in_progress; a starting server claims it
 * again once the lease is over), later slots are expected (shown, not stored).
 */
import { createHash } from 'node:crypto';
import Papa from 'papaparse';
import type { Tx } from '../db/client';
import type * as schema from '../db/schema';
import { FILE_COLUMNS, fileNameFor, type ErpFileType, type PartOfDay } from './formats';
import { claimNext, processClaimed, registerFile, sweepMissing } from './queue';
import { DEFAULT_SCHEDULE, expectedSlots } from './schedule';

type OrderRow = typeof schema.orders.$inferInsert;
type ItemRow = typeof schema.orderItems.$inferInsert;
type EventRow = typeof schema.parcelEvents.$inferInsert;
type StockRow = typeof schema.stockItems.$inferInsert;
type MaterialRow = typeof schema.materials.$inferInsert;

export interface SeedWorld {
  now: Date;
  materials: readonly MaterialRow[];
  stock: readonly StockRow[];
  orders: readonly OrderRow[];
  items: readonly ItemRow[];
  events: readonly EventRow[];
}

const HOUR = 3_600_000;
const ARRIVAL_HOUR: Record<PartOfDay, number> = { morning: 6, midday: 12, evening: 18 };
const SEED_WORKER = 'seed-import';
const DEAD_WORKER = 'ingest-worker-2 (stopped)';

/** A stable UUID-shaped id from a label. */
export function seedUuid(label: string): string {
  const hex = createHash('sha256').update(`partstrack-files:${label}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A stable fraction in [0, 1) for a slot. */
function roll(label: string): number {
  return parseInt(createHash('sha256').update(label).digest('hex').slice(0, 8), 16) / 0x1_0000_0000;
}

const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : value === null || value === undefined ? '' : String(value));
const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function csv(fileType: ErpFileType, lines: Array<Record<string, unknown>>): string {
  const columns = FILE_COLUMNS[fileType].map((c) => c.name);
  return `${Papa.unparse({ fields: columns, data: lines.map((l) => columns.map((c) => iso(l[c]))) }, { newline: '\n' })}\n`;
}

function rotate<T>(rows: readonly T[], start: number, count: number): T[] {
  if (rows.length === 0) return [];
  return Array.from({ length: Math.min(count, rows.length) }, (_, i) => rows[(start + i) % rows.length]!);
}

interface Content {
  text: string;
}

function materialsFile(world: SeedWorld, slotIndex: number, broken: boolean): Content {
  const lines: Array<Record<string, unknown>> = rotate(world.materials, slotIndex * 12, 12).map((m) => ({
    material_code: m.code,
    description_english: m.descriptionEnglish,
    unit: m.unit,
    material_group: m.materialGroup,
  }));
  if (broken) lines.splice(7, 0, { material_code: '', description_english: 'Guide shoe insert 16 mm', unit: 'PC' });
  return { text: csv('MATERIALS', lines) };
}

function stockFile(world: SeedWorld, slotIndex: number, broken: boolean): Content {
  const lines: Array<Record<string, unknown>> = rotate(world.stock, slotIndex * 15, 15).map((s) => ({
    ...Object.fromEntries(FILE_COLUMNS.STOCK.map((c) => [c.name, (s as Record<string, unknown>)[camel(c.name)]])),
    planner_groups: (s.plannerGroups as string[] | undefined)?.join('|') ?? '',
    work_centers: (s.workCenters as string[] | undefined)?.join('|') ?? '',
  }));
  if (broken && lines[4]) lines[4] = { ...lines[4], plant: 'FI1' };
  if (broken && lines[11]) lines[11] = { ...lines[11], blocked_count: '12,5' };
  return { text: csv('STOCK', lines) };
}

function ordersFile(world: SeedWorld, slotIndex: number, broken: boolean, itemsByOrder: Map<string, ItemRow[]>): Content {
  const lines: Array<Record<string, unknown>> = [];
  for (const order of rotate(world.orders, slotIndex * 3, 4)) {
    for (const item of itemsByOrder.get(order.id) ?? []) {
      const line: Record<string, unknown> = { service_order: order.id };
      for (const column of FILE_COLUMNS.ORDERS) {
        if (column.name === 'service_order') continue;
        const source = column.name in { plant: 1, equipment_code: 1, equipment_description: 1, destination: 1, work_center: 1, planner_group: 1, ship_to_party: 1, user_email: 1 } ? order : item;
        line[column.name] = (source as Record<string, unknown>)[column.name === 'sales_order_doc_number_at_po' ? 'salesOrderDocNumberAtPO' : camel(column.name)];
      }
      lines.push(line);
    }
  }
  if (broken && lines.length > 2) lines[2] = { ...lines[2], reservation_quantity: '12,5' };
  if (broken && lines.length > 4) lines[4] = { ...lines[4], delivery_date: '2024-02-30' };
  return { text: csv('ORDERS', lines) };
}

function deliveriesFile(world: SeedWorld, slotIndex: number, broken: boolean, shipped: readonly ItemRow[], eventsByItem: Map<number, EventRow[]>): Content {
  const lines: Array<Record<string, unknown>> = [];
  for (const item of rotate(shipped, slotIndex * 2, 3)) {
    const events = eventsByItem.get(Number(item.id)) ?? [];
    events.forEach((event, index) => {
      const isLast = index === events.length - 1;
      lines.push({
        service_order: item.orderId,
        line_number: item.lineNumber,
        tracking_number: event.trackingNumber,
        carrier: event.carrier,
        event_status: event.status,
        event_description: event.description,
        occurred_at: event.occurredAt,
        event_location: event.location,
        delivery_status: isLast ? item.deliveryStatus : '',
        eta: isLast ? item.eta : '',
        delivery_date: isLast ? item.deliveryDate : '',
      });
    });
  }
  if (broken && lines.length > 3) lines[3] = { ...lines[3], service_order: '4999999999' };
  return { text: csv('DELIVERIES', lines) };
}

/** Writes and ingests the seed's files in `tx`; returns how many file rows exist afterwards. */
export async function ingestSeedFiles(tx: Tx, world: SeedWorld): Promise<number> {
  const { now } = world;
  const itemsByOrder = new Map<string, ItemRow[]>();
  for (const item of world.items) itemsByOrder.set(item.orderId, [...(itemsByOrder.get(item.orderId) ?? []), item]);
  const eventsByItem = new Map<number, EventRow[]>();
  for (const event of world.events) eventsByItem.set(Number(event.orderItemId), [...(eventsByItem.get(Number(event.orderItemId)) ?? []), event]);
  const shipped = world.items.filter((item) => item.deliveryStatus && eventsByItem.has(Number(item.id)));

  const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const slots = expectedSlots(DEFAULT_SCHEDULE);
  const arrivals: Array<{ date: string; fileType: ErpFileType; part: PartOfDay; at: Date; label: string; index: number }> = [];
  const perType: Record<ErpFileType, number> = { ORDERS: 0, DELIVERIES: 0, STOCK: 0, MATERIALS: 0 };
  for (let dayOffset = -29; dayOffset <= 0; dayOffset += 1) {
    const date = new Date(startOfToday + dayOffset * 24 * HOUR).toISOString().slice(0, 10);
    for (const slot of slots) {
      const label = `${date}/${slot.fileType}/${slot.partOfDay}`;
      const minute = Math.floor(roll(`${label}:minute`) * 20);
      arrivals.push({ date, fileType: slot.fileType, part: slot.partOfDay, at: new Date(startOfToday + dayOffset * 24 * HOUR + ARRIVAL_HOUR[slot.partOfDay] * HOUR + minute * 60_000), label, index: perType[slot.fileType]++ });
    }
  }
  // Today's latest arrived slots become the waiting and the abandoned file; if none arrived yet,
  // the first slots of today arrive early, a few minutes ago.
  const today = arrivals.filter((a) => a.at.getTime() >= startOfToday);
  let arrived = today.filter((a) => a.at <= now);
  if (arrived.length < 2) {
    arrived = today.slice(0, 2);
    arrived[0]!.at = new Date(now.getTime() - 9 * 60_000);
    arrived[1]!.at = new Date(now.getTime() - 4 * 60_000);
  }
  const waiting = arrived[arrived.length - 1]!;
  const abandoned = arrived[arrived.length - 2]!;
  const forcedMissing = arrivals.find((a) => a.label.endsWith('/STOCK/morning') && a.date === new Date(startOfToday - 3 * 24 * HOUR).toISOString().slice(0, 10));
  const forcedErrored = arrivals.find((a) => a.label.endsWith('/ORDERS/midday') && a.date === new Date(startOfToday - 1 * 24 * HOUR).toISOString().slice(0, 10));

  for (const arrival of arrivals) {
    if (arrival.at > now && arrival !== waiting && arrival !== abandoned) continue;
    const chance = roll(arrival.label);
    const isPast = arrival.at.getTime() < startOfToday;
    if (arrival === forcedMissing || (isPast && chance < 0.04 && arrival !== forcedErrored)) continue;
    const broken = arrival === forcedErrored || (isPast && chance >= 0.04 && chance < 0.1);
    const content =
      arrival.fileType === 'MATERIALS'
        ? materialsFile(world, arrival.index, broken)
        : arrival.fileType === 'STOCK'
          ? stockFile(world, arrival.index, broken)
          : arrival.fileType === 'ORDERS'
            ? ordersFile(world, arrival.index, broken, itemsByOrder)
            : deliveriesFile(world, arrival.index, broken, shipped, eventsByItem);
    const fileName = fileNameFor(arrival.fileType, arrival.date, arrival.part);
    await registerFile(tx, { fileName, content: content.text, source: 'seed', now: arrival.at, id: seedUuid(arrival.label) });
    if (arrival === waiting) continue;
    const claimedAt = new Date(Math.min(arrival.at.getTime() + 20_000, now.getTime()));
    const worker = arrival === abandoned ? DEAD_WORKER : SEED_WORKER;
    const claimed = await claimNext(tx, { workerId: worker, leaseSeconds: 3600, now: claimedAt });
    if (!claimed || arrival === abandoned) continue;
    // Processing takes a few seconds per hundred lines, as the ERP interface's do.
    const duration = 15_000 + Math.floor(roll(`${arrival.label}:duration`) * 90_000);
    await processClaimed(tx, claimed.id, { workerId: worker, clock: () => new Date(Math.min(claimedAt.getTime() + duration, now.getTime())) });
  }
  let missingIndex = 0;
  return sweepMissing(tx, DEFAULT_SCHEDULE, now, () => seedUuid(`missing:${missingIndex++}`));
}
