import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from '../../server/db/client';
import * as schema from '../../server/db/schema';
import { DEMO_ACCOUNTS } from '../../server/auth/demo-accounts';
import { seedDatabase } from '../../server/db/seed';
import { GRANTS } from '../../src/domain/permissions';
import { DOCUMENT_STAGES } from '../../src/domain/tracking';
import {
  DELIVERY_STATUSES,
  FILE_STATUSES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KEYS,
  STOCK_COUNT_STATUSES,
} from '../../src/domain/constants';

const NOW = new Date('2025-06-11T09:30:00Z');

type Item = typeof schema.orderItems.$inferSelect;

/** §4 tracking stage, checked in the spec's order, read from the document fields only. */
function trackingStage(serviceOrder: string | null, item: Item): string {
  const reservation = item.reservationDocNumber !== null;
  const po = item.purchaseOrderDocNumber !== null;
  const confirmation = item.purchaseOrderConfirmationCategory !== null;
  const receipt = item.purchaseOrderGoodsReceiptQuantity !== null;
  const salesOrder = item.salesOrderDocNumber !== null;
  const scheduleLine = item.salesOrderScheduleLineQuantity !== null;
  const delivery = item.deliveryOrderDocNumber !== null;
  const anyDocument = reservation || po || confirmation || receipt || salesOrder || scheduleLine || delivery;
  if (serviceOrder && !anyDocument) return 'ServiceOrder';
  if (reservation && !po && !confirmation && !receipt && !salesOrder && !scheduleLine && !delivery) return 'ReservationItem';
  if (po && !confirmation && !receipt && !salesOrder && !scheduleLine && !delivery) return 'PurchaseOrderItem';
  if (confirmation && !delivery && !scheduleLine) return 'PurchaseOrderConfirmationItem';
  if (receipt && !scheduleLine && !delivery) return 'PurchaseOrderGoodsReceiptItem';
  if (salesOrder && !scheduleLine && !delivery) return 'SalesOrderItem';
  if (scheduleLine && !delivery) return 'SalesOrderScheduleLineItem';
  if (delivery) return 'DeliveryOrderItem';
  return 'unknown';
}

/** Every index of the schema, by name, with its definition as the catalog states it. */
async function indexDefinitions(database: Database): Promise<Record<string, string>> {
  const result = await database.db.execute(sql`select indexname, indexdef from pg_indexes where schemaname = current_schema() order by indexname`);
  return Object.fromEntries(rowsOf<{ indexname: string; indexdef: string }>(result).map((row) => [row.indexname, row.indexdef]));
}

async function freshSeeded(): Promise<{ database: Database; counts: Record<string, number> | null; migratedIndexes: Record<string, string> }> {
  const database = await openDatabase({ memory: true });
  await database.migrate();
  const migratedIndexes = await indexDefinitions(database);
  const counts = await seedDatabase(database.db, { now: NOW });
  return { database, counts, migratedIndexes };
}

describe('demo seed', () => {
  let database: Database;
  let counts: Record<string, number> | null;
  let migratedIndexes: Record<string, string>;

  beforeAll(async () => {
    ({ database, counts, migratedIndexes } = await freshSeeded());
  });

  afterAll(async () => {
    await database.close();
  });

  it('reports the rows it wrote, at the documented scale-1 sizes', () => {
    expect(counts).not.toBeNull();
    expect(counts?.plants).toBe(3);
    expect(counts?.materials).toBe(2_000);
    expect(counts?.orders).toBe(300);
    expect(counts?.stock_items).toBeGreaterThan(3_000);
  });

  it('creates every demo account with exactly its grants', async () => {
    const rows = await database.db
      .select({ email: schema.users.email, grantId: schema.userGrants.grantId })
      .from(schema.users)
      .leftJoin(schema.userGrants, eq(schema.userGrants.userId, schema.users.id));
    for (const account of DEMO_ACCOUNTS) {
      const grants = rows.filter((r) => r.email === account.email && r.grantId !== null).map((r) => r.grantId);
      expect(rows.some((r) => r.email === account.email), account.email).toBe(true);
      expect(grants.sort(), account.email).toEqual([...account.grants].sort());
    }
  });

  it('has a pending user with a pending request and an expired mechanic', async () => {
    const [pending] = await database.db.select().from(schema.users).where(eq(schema.users.email, 'pending@example.com'));
    expect(pending?.approvalStatus).toBe('Pending');
    const requests = await database.db.select().from(schema.approvalRequests).where(eq(schema.approvalRequests.requestingUserEmail, 'pending@example.com'));
    expect(requests).toMatchObject([{ approvalStatus: 'Pending', managerEmail: 'support@example.com' }]);
    const [expired] = await database.db.select().from(schema.users).where(eq(schema.users.email, 'expired@example.com'));
    expect(expired?.expirationDate).toBe('2025-06-10');
  });

  it('fills the grants catalogue and the four allowed-plant lists', async () => {
    const grants = await database.db.select().from(schema.grants);
    expect(grants.map((g) => g.id).sort()).toEqual([...GRANTS].sort());
    const allowed = await database.db.select().from(schema.allowedPlants);
    const list = (parameter: string) => allowed.filter((a) => a.parameter === parameter).map((a) => a.plant).sort();
    expect(list('notifications_allowed_plants')).toEqual(['DE02', 'FI01']);
    expect(list('stock_count_allowed_plants')).toEqual(['DE02', 'FI01']);
    expect(list('count_deadline_allowed_plants')).toEqual(['FI01']);
    expect(list('show_zero_stock_material_plants')).toEqual(['DE02']);
  });

  it('has order items in all 8 tracking stages of §4 and every delivery status', async () => {
    const rows = await database.db
      .select({ serviceOrder: schema.orders.serviceOrder, item: schema.orderItems })
      .from(schema.orderItems)
      .innerJoin(schema.orders, eq(schema.orders.id, schema.orderItems.orderId));
    const stages = new Set(rows.map((r) => trackingStage(r.serviceOrder, r.item)));
    expect([...stages].sort()).toEqual([...DOCUMENT_STAGES].sort());
    const atAccessPoint = rows.filter((r) => r.item.deliveryStatus === 'At access point' || r.item.deliveryStatus === 'ToBePickedUp');
    expect(atAccessPoint.every((r) => r.item.deliveryType === 'AccessPoint' && r.item.addressCode !== null)).toBe(true);
    const statuses = new Set(rows.map((r) => r.item.deliveryStatus));
    for (const status of [...DELIVERY_STATUSES, null]) expect(statuses.has(status), String(status)).toBe(true);
    // The demo mechanic alone already shows every stage ("My orders").
    const mine = await database.db.select().from(schema.orders).where(eq(schema.orders.userEmail, 'mechanic@example.com'));
    expect(mine.length).toBeGreaterThan(30);
  });

  it('gives every shipped item a tracking number and 3–6 carrier events', async () => {
    const shipped = await database.db
      .select({ id: schema.orderItems.id, trackingNumber: schema.orderItems.trackingNumber, events: sql<number>`count(${schema.parcelEvents.id})::int` })
      .from(schema.orderItems)
      .innerJoin(schema.parcelEvents, eq(schema.parcelEvents.orderItemId, schema.orderItems.id))
      .groupBy(schema.orderItems.id);
    expect(shipped.length).toBeGreaterThan(50);
    for (const row of shipped) {
      expect(row.trackingNumber).toBeTruthy();
      expect(row.events).toBeGreaterThanOrEqual(3);
      expect(row.events).toBeLessThanOrEqual(6);
    }
    const future = await database.db.select().from(schema.parcelEvents).where(sql`${schema.parcelEvents.occurredAt} > ${NOW}`);
    expect(future).toEqual([]);
  });

  it('keeps goods receipts both within the last 5 days and older', async () => {
    const receipts = await database.db.select({ at: schema.orderItems.goodsReceiptPostedAt }).from(schema.orderItems).where(sql`${schema.orderItems.goodsReceiptPostedAt} is not null`);
    const fiveDaysAgo = NOW.getTime() - 5 * 86_400_000;
    expect(receipts.some((r) => r.at !== null && r.at.getTime() > fiveDaysAgo)).toBe(true);
    expect(receipts.some((r) => r.at !== null && r.at.getTime() < fiveDaysAgo)).toBe(true);
  });

  it('has stock counts in every status, both types, drafts and a big wall-to-wall for the mechanic', async () => {
    const countsRows = await database.db.select().from(schema.stockCounts);
    expect(new Set(countsRows.map((c) => c.status))).toEqual(new Set(STOCK_COUNT_STATUSES));
    expect(new Set(countsRows.map((c) => c.type))).toEqual(new Set(['single', 'wall_to_wall']));
    expect(countsRows.some((c) => c.isDraft)).toBe(true);
    const error = countsRows.find((c) => c.status === 'error');
    expect(() => JSON.parse(error?.latestSapError ?? '')).not.toThrow();

    const wallToWall = countsRows.find((c) => c.type === 'wall_to_wall' && c.status === 'initiated' && c.conductedBy === 'mechanic@example.com');
    expect(wallToWall).toBeDefined();
    const lines = await database.db.select().from(schema.materialCounts).where(eq(schema.materialCounts.stockCountId, wallToWall?.id ?? -1));
    expect(lines.length).toBeGreaterThanOrEqual(300);
    expect(lines.every((l) => l.quantity === null && l.version === 0)).toBe(true);
  });

  it('has notifications of each channel × key', async () => {
    const rows = await database.db.selectDistinct({ channel: schema.notifications.channel, key: schema.notifications.notificationKey }).from(schema.notifications);
    const pairs = new Set(rows.map((r) => `${r.channel}/${r.key}`));
    for (const channel of NOTIFICATION_CHANNELS) for (const key of NOTIFICATION_KEYS) expect(pairs.has(`${channel}/${key}`)).toBe(true);
  });

  it('has 30 days of file-processing rows in every status', async () => {
    const files = await database.db.select().from(schema.fileProcessing);
    expect(new Set(files.map((f) => f.businessDate)).size).toBe(30);
    expect(new Set(files.map((f) => f.status))).toEqual(new Set(FILE_STATUSES));
    expect(files.filter((f) => f.businessDate === '2025-06-11').every((f) => f.startDate === null || f.startDate <= NOW)).toBe(true);
  });

  it('moves the sequences past explicit ids, so the app can insert afterwards', async () => {
    const [order] = await database.db.select().from(schema.orders).limit(1);
    const inserted = await database.db
      .insert(schema.orderItems)
      .values({ orderId: order?.id ?? '', plant: order?.plant ?? '', lineNumber: 990, materialCode: 'X', materialDescription: 'X', unit: 'PC' })
      .returning({ id: schema.orderItems.id });
    expect(inserted[0]?.id).toBe((counts?.order_items ?? 0) + 1);
    await database.db.delete(schema.orderItems).where(eq(schema.orderItems.lineNumber, 990));
  });

  // The seed drops the bulk tables' secondary indexes and builds them again after the load (seed/indexes.ts).
  it('leaves every index of the migrations as the migrations made it', async () => {
    expect(Object.keys(migratedIndexes)).toContain('orders_short_grams_idx');
    expect(await indexDefinitions(database)).toEqual(migratedIndexes);
  });

  it('does nothing when the database already has users', async () => {
    expect(await seedDatabase(database.db, { now: NOW })).toBeNull();
  });

  // A second database migrated and seeded from scratch: minutes on a busy 2-core machine.
  it('is deterministic: the same `now` gives the same rows', async () => {
    const other = await freshSeeded();
    try {
      const snapshot = async (db: Database['db']) => ({
        users: await db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users).orderBy(asc(schema.users.email)),
        orders: (await db.select({ id: schema.orders.id }).from(schema.orders).orderBy(asc(schema.orders.id))).map((o) => o.id),
        stock: await db.select().from(schema.stockItems).orderBy(asc(schema.stockItems.id)).limit(50),
        items: await db.select().from(schema.orderItems).orderBy(asc(schema.orderItems.id)).limit(50),
      });
      expect(await snapshot(other.database.db)).toEqual(await snapshot(database.db));
      expect(other.counts).toEqual(counts);
    } finally {
      await other.database.close();
    }
  }, 240_000);
});
