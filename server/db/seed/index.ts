/**
 * Deterministic demo seed (ARCHITECTURE §4): fills an EMPTY database with a realistic world of
 * three plants, their people, parts, stock, orders in every tracking stage (§4), stock counts in
 * every status, notifications, file-dashboard rows and the rest of §3.
 *
 * Strategy:
 * - Every random choice comes from a seeded mulberry32 stream, one stream per section, so the same
 *   `now` and `scale` always give identical rows, and changing one section does not reshuffle the
 *   others. Math.random and gen_random_uuid are never used; UUIDs come from the stream too.
 * - All dates are offsets from `options.now`, so "ETA next week" and "goods receipt 2 days ago"
 *   stay true whenever the seed runs.
 * - Rows are built in memory first (pure functions), then written in ONE transaction with
 *   multi-row inserts, which keeps PGlite fast. Tables with ids that other rows point to
 *   (order_items, stock_counts) get explicit ids and their sequences are moved past them.
 * - `scale` multiplies orders, vans (storage locations) and thus stock rows and stock counts.
 * - The bulk tables' secondary indexes are dropped before their rows go in and built once after
 *   (seed/indexes.ts), as PostgreSQL advises for loading a table: the trigram indexes cost far less.
 */
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { grantCatalogue } from '../bootstrap';
import { DEMO_MECHANIC } from '../../auth/demo-accounts';
import { ingestSeedFiles } from '../../ingestion/seed-files';
import type { Db } from '../client';
import * as schema from '../schema';
import { buildAccessPointPriorities, buildAdminRows, buildAllowedPlants, buildFeedback } from './admin';
import { buildStockCounts } from './counts';
import { ACCESS_POINTS, PLANTS, SHIP_TO_PARTIES } from './data';
import type { Insert, SeedUser } from './model';
import { buildDevices, buildNotifications, buildNotificationSettings } from './notifications';
import { orderChunks, type OrderRows } from './orders';
import { createIndexes, dropSecondaryIndexes } from './indexes';
import { buildWorld } from './world';
import { insertAll, insertStream, syncSequence } from './write';

/** The demo accounts live with sign-in (server/auth/demo-accounts.ts); re-exported for the seed's callers. */
export { DEMO_ACCOUNTS } from '../../auth/demo-accounts';

export interface SeedOptions {
  /** Multiplies orders, vans, stock rows and stock counts. 1 = hand-sized demo. */
  scale?: number;
  /** Reference time; every date is derived from it. */
  now?: Date;
  /** Manager address of the pending approval request. */
  supportEmail?: string;
}

/** Orders drawn and written at a time: the demo's (300) and small scales are one chunk, so one statement per table as before. */
const ORDERS_PER_CHUNK = 20_000;
/** Orders kept whole for the seed's ERP files, which restate the first ~300 orders and ~200 shipped items. */
const KEPT_ORDERS = 2_000;

function attachmentRows(users: readonly SeedUser[]): Insert<typeof schema.userAttachments>[] {
  return users.flatMap((u) => u.spec.attachments.map((a) => ({ userId: u.id, ...a })));
}

/** Fills an EMPTY database; returns counts per table. No-op (returns null) if users table already has rows. */
export async function seedDatabase(db: Db, options: SeedOptions = {}): Promise<Record<string, number> | null> {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`seed: scale must be a positive number, got ${scale}`);
  const now = options.now ?? new Date();
  const supportEmail = options.supportEmail ?? 'support@example.com';

  const tally = await db.transaction(async (tx) => {
    const existing = await tx.select({ id: schema.users.id }).from(schema.users).limit(1);
    if (existing.length > 0) return null;

    const world = buildWorld(now, scale);
    const byEmail = (email: string): SeedUser => {
      const user = world.users.find((u) => u.spec.email === email);
      if (!user) throw new Error(`seed: no user ${email}`);
      return user;
    };
    const counts = buildStockCounts(world);
    const admin = buildAdminRows(world, byEmail, supportEmail);
    const tally: Record<string, number> = {};
    const write = <T extends PgTable>(table: T, rows: readonly Insert<T>[]) => insertAll(tx, table, rows, tally);

    await write(schema.grants, grantCatalogue());
    await write(schema.plants, PLANTS.map(({ code, name, country, city, timezone }) => ({ code, name, country, city, timezone })));
    await write(schema.plannerGroups, PLANTS.flatMap((p) => p.plannerGroups.map((pg) => ({ plant: p.code, ...pg }))));
    await write(schema.workCenters, world.workCenters.map(({ plant, code, name, plannerGroup }) => ({ plant, code, name, plannerGroup })));
    await write(schema.storageLocations, world.storageLocations);
    await write(schema.shipToParties, SHIP_TO_PARTIES.map((stp) => ({ ...stp })));
    await write(schema.accessPoints, ACCESS_POINTS.map((ap) => ({ ...ap })));
    await write(schema.accessPointPriorities, buildAccessPointPriorities(world));
    await write(schema.allowedPlants, buildAllowedPlants());

    await write(schema.users, world.users.map((u) => u.row));
    await write(schema.userGrants, world.users.flatMap((u) => u.spec.grants.map((grantId) => ({ userId: u.id, grantId, createdAt: u.row.createdAt }))));
    await write(schema.userAttachments, attachmentRows(world.users));
    await write(schema.approvalRequests, admin.approvalRequests);
    await write(schema.auditLog, admin.auditLog);

    // The bulk tables' secondary indexes are built once their rows are in (seed/indexes.ts).
    const dropped = await dropSecondaryIndexes(tx);
    await write(schema.materials, world.materials);
    await insertStream(tx, schema.stockItems, world.stock.rowCount, () => world.stock.rows(), tally);
    await write(schema.stockTransferRequests, admin.transfers);
    await write(schema.stockCounts, counts.counts);
    await syncSequence(tx, 'stock_counts', counts.counts.length);
    await write(schema.materialCounts, counts.lines);

    // Orders, items and scans chunk by chunk (a chunk's orders before their items, the items before their scans); only
    // what later sections read is kept: the first KEPT_ORDERS orders whole (the ERP files restate some of them) and
    // every parcel waiting at an access point (the pickup notifications name them).
    const orders: OrderRows = { orders: [], items: [], events: [], ownerOf: new Map() };
    let itemCount = 0;
    for (const chunk of orderChunks(world, ORDERS_PER_CHUNK)) {
      await write(schema.orders, chunk.orders);
      await write(schema.orderItems, chunk.items);
      await write(schema.parcelEvents, chunk.events);
      itemCount += chunk.items.length;
      const room = KEPT_ORDERS - orders.orders.length;
      const whole = new Set(chunk.orders.slice(0, Math.max(0, room)).map((o) => o.id));
      orders.orders.push(...chunk.orders.filter((o) => whole.has(o.id)));
      for (const it of chunk.items) {
        if (!whole.has(it.orderId) && it.deliveryStatus !== 'ToBePickedUp' && it.deliveryStatus !== 'At access point') continue;
        orders.items.push(it);
        orders.ownerOf.set(it.orderId, chunk.ownerOf.get(it.orderId) ?? null);
      }
      const wholeItems = new Set(chunk.items.filter((it) => whole.has(it.orderId)).map((it) => Number(it.id)));
      orders.events.push(...chunk.events.filter((e) => wholeItems.has(Number(e.orderItemId))));
      for (const id of whole) orders.ownerOf.set(id, chunk.ownerOf.get(id) ?? null);
    }
    await syncSequence(tx, 'order_items', itemCount);
    await createIndexes(tx, dropped);

    await write(schema.notifications, buildNotifications(world, orders));
    await write(schema.notificationSettings, buildNotificationSettings(world));
    await write(schema.notificationDevices, buildDevices(world, byEmail(DEMO_MECHANIC.email)));
    await write(schema.importantMessages, admin.importantMessages);
    await write(schema.feedback, buildFeedback(world, byEmail));
    // #9: the file-processing rows come from really ingesting 30 days of generated ERP files.
    // The files restate rows from the start of the stock (at most ~1,400 of them): the first 20,000 stand for all.
    const stockRows = world.stock.firstRows(20_000);
    await ingestSeedFiles(tx, { now, materials: world.materials, stock: stockRows, orders: orders.orders, items: orders.items, events: orders.events });
    tally.file_processing = (await tx.select({ n: sql<number>`count(*)::int` }).from(schema.fileProcessing))[0]?.n ?? 0;
    return tally;
  });
  // Fresh statistics, so the planner uses the indexes of the just-filled tables at once; and the
  // row versions the summary triggers rewrote while filling are reclaimed (all-visible pages let
  // index-only scans skip the table). PGlite has no autovacuum to do either later (db/maintenance.ts).
  if (tally) await db.execute(sql`vacuum (analyze)`);
  return tally;
}
