/**
 * The tracking search index (server/search, docs/decisions/0016) against the database's own
 * answer: the same call of listTrackingStatus with the index and without it (the SQL of
 * docs/decisions/0013) must give the same page — counts, order ids, rows — for every caller,
 * every §5 field and operator, free text, combinations, tabs, "my orders" and pages. Then the
 * index must follow the data: writes behind its back, deletes, an order moved out of a scope, a
 * transaction that commits after a newer one (PostgreSQL), a truncate and a burst of changes too
 * big to apply within a request (answered by the database meanwhile, then built anew).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { orderItems, orders, trackingChanges } from '../../server/db/schema';
import { listTrackingStatus, type TrackingListOptions } from '../../server/repositories/tracking';
import { resolveUser, type CurrentUser } from '../../server/repositories/users';
import { pruneTrackingChanges, TrackingSearchIndex } from '../../server/search/tracking-index';
import { parseSearch } from '../../src/domain/search-language';
import type { TrackingFilter } from '../../src/domain/tracking';
import { rowsOf } from '../../server/db/client';
import { createTestProduct, ENGINES, type TestProduct } from './harness';

const WHO = ['manager', 'mechanic', 'supervisor', 'stock.admin', 'cs.admin', 'viewer', 'pm.reader'] as const;
const MY_ORDERS = new Set(['mechanic', 'supervisor', 'cs.admin']);
const quiet = { info: () => {}, warn: () => {} };

/** A small deterministic random source (the same queries on every run). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe.each(ENGINES)('tracking search index on %s', (engine) => {
  let product: TestProduct;
  const users: Record<string, CurrentUser> = {};

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of WHO) {
      const email = `${who}@example.com`;
      users[who] = await resolveUser(product.database.db, { issuer: 'index-test', subject: email, email, emailVerified: true, name: null }, 'support@example.com');
    }
  });
  afterAll(async () => product?.close());

  const db = () => product.database.db;
  const index = () => product.trackingIndex;

  /** The page through the index and through the database; the index must have answered. */
  const both = async (who: string, query: string, options: Partial<TrackingListOptions> = {}, search = index()) => {
    const parsed = parseSearch(query);
    expect(parsed.errors, query).toEqual([]);
    const call: TrackingListOptions = { terms: parsed.terms, status: 'all', myOrders: false, page: 1, maxResults: 20, now: new Date('2026-11-20T09:00:00Z'), ...options };
    const before = search.stats().answered;
    const fromIndex = await listTrackingStatus(db(), users[who]!, call, search);
    const answered = search.stats().answered > before;
    const fromDatabase = await listTrackingStatus(db(), users[who]!, call);
    return { fromIndex, fromDatabase, answered };
  };
  const same = async (who: string, query: string, options: Partial<TrackingListOptions> = {}) => {
    const { fromIndex, fromDatabase, answered } = await both(who, query, options);
    expect(answered, `the index answered ${query}`).toBe(true);
    expect(fromIndex, `${who} ${query} ${JSON.stringify(options)}`).toEqual(fromDatabase);
    return fromIndex;
  };

  /** Search terms for every field and operator, from values of the seeded data. */
  const queries = async (): Promise<string[]> => {
    const items = await db().select().from(orderItems).orderBy(asc(orderItems.id));
    const allOrders = await db().select().from(orders).orderBy(asc(orders.id));
    const pick = <T>(rows: T[], n: number) => rows[Math.floor(rows.length * n)]!;
    const item = pick(items.filter((i) => i.purchaseOrderDocNumber && i.trackingNumber && i.deliveryDate && i.salesOrderDocNumber && i.deliveryOrderDocNumber), 0.37);
    const order = pick(allOrders.filter((o) => o.equipmentCode && o.equipmentDescription && o.workCenter && o.plannerGroup && o.userEmail && o.serviceOrder), 0.61);
    const word = (text: string | null, n = 0) => (text ?? '').split(/\s+/)[n]!;
    const values: Record<string, string> = {
      po: item.purchaseOrderDocNumber!,
      do: item.deliveryOrderDocNumber!,
      'sales_order': item.salesOrderDocNumber!,
      so: order.serviceOrder!,
      sloc: item.storageLocation ?? 'FI01-0001',
      tn: item.trackingNumber!,
      plant: order.plant,
      planner_group: order.plannerGroup!,
      ec: order.equipmentCode!,
      equipment_description: word(order.equipmentDescription).toUpperCase(),
      wc: order.workCenter!,
      user_email: order.userEmail!,
      dl: 'delivered',
      mat: item.materialCode,
      material_description: word(item.materialDescription),
      dd: item.deliveryDate!,
    };
    const out: string[] = [];
    for (const [field, value] of Object.entries(values)) {
      for (const operator of ['=', '!=', '>', '<', '>=', '<=']) {
        const query = `${field}${operator}${value}`;
        if (parseSearch(query).errors.length === 0) out.push(query);
      }
    }
    const [d, m, y] = [item.deliveryDate!.slice(8, 10), item.deliveryDate!.slice(5, 7), item.deliveryDate!.slice(0, 4)];
    out.push(
      `dd=${d}-${m}-${y}`,
      'dl=at_access_point',
      'dl!=delivered',
      word(item.materialDescription).toLowerCase(),
      word(item.materialDescription).slice(1, 4).toUpperCase(),
      item.purchaseOrderDocNumber!.slice(2, 8),
      order.id,
      order.id.slice(0, 5),
      word(order.destination, 0),
      `${word(item.materialDescription)} plant=${order.plant}`,
      `${word(item.materialDescription)} ${item.materialCode.slice(0, 3)}`,
      `po>=${item.purchaseOrderDocNumber!} plant!=${order.plant}`,
      `dd<${item.deliveryDate!} dl!=delivered wc=${order.workCenter!}`,
      'zzzz-nothing',
      'e',
    );
    // Random pairs of the above: terms are combined with "and".
    const next = random(2026);
    const singles = [...out];
    for (let i = 0; i < 20; i += 1) out.push(`${singles[Math.floor(next() * singles.length)]} ${singles[Math.floor(next() * singles.length)]}`);
    return out;
  };

  it('answers every caller, field, operator, free text and combination exactly as the database does', async () => {
    const all = await queries();
    let nonEmpty = 0;
    for (const who of WHO) {
      for (const query of all) {
        const page = await same(who, query);
        if (page.count_total > 0) nonEmpty += 1;
      }
    }
    // The queries find something for most callers (not a comparison of empty answers).
    expect(nonEmpty).toBeGreaterThan((WHO.length * all.length) / 3);
  });

  it('answers every tab, page and "my orders" exactly as the database does', async () => {
    const broad = ['e', 'a', 'dl!=delivered', 'plant!=zz'];
    for (const who of WHO) {
      for (const query of broad) {
        for (const status of ['all', 'arrived', 'incoming'] as TrackingFilter[]) {
          const first = await same(who, query, { status, maxResults: 7 });
          for (const page of new Set([2, Math.max(1, Math.ceil(first.pages / 2)), first.pages, first.pages + 1])) {
            await same(who, query, { status, page, maxResults: 7 });
          }
          if (MY_ORDERS.has(who)) await same(who, query, { status, myOrders: true, maxResults: 7 });
        }
      }
    }
  });

  it('follows writes behind its back: changed, new, deleted and moved orders', async () => {
    const [order] = await db().select().from(orders).where(and(eq(orders.plant, 'FI01'), eq(orders.workCenter, 'FI01M001'))).orderBy(asc(orders.id)).limit(1);
    expect(order).toBeDefined();
    // An item's description changes: the new word is found at once, the old text is not.
    await db().update(orderItems).set({ materialDescription: 'Quasar governor' }).where(eq(orderItems.orderId, order!.id));
    expect((await same('mechanic', 'quasar')).trackingStatus.map((row) => row.orderId)).toEqual([order!.id]);
    // A new order with items; then one of them delivered (it moves between tabs).
    await db().insert(orders).values({ id: 'ZZ-IDX-1', plant: 'FI01', workCenter: 'FI01M001', updatedAt: new Date('2026-11-21T00:00:00Z') });
    await db()
      .insert(orderItems)
      .values([
        { orderId: 'ZZ-IDX-1', lineNumber: 10, materialCode: 'QX-1', materialDescription: 'Quasar sheave', unit: 'PC', deliveryStatus: 'ToBePickedUp' },
        { orderId: 'ZZ-IDX-1', lineNumber: 20, materialCode: 'QX-2', materialDescription: 'Quasar rope', unit: 'PC' },
      ]);
    expect(await same('mechanic', 'quasar')).toMatchObject({ count_total: 2, count_arrived: 0, count_incoming: 2, count_action_point: 1 });
    expect((await same('mechanic', 'quasar')).trackingStatus[0]!.orderId).toBe('ZZ-IDX-1');
    await db().update(orderItems).set({ deliveryStatus: 'Delivered' }).where(and(eq(orderItems.orderId, 'ZZ-IDX-1'), eq(orderItems.lineNumber, 10)));
    expect(await same('mechanic', 'quasar', { status: 'arrived' })).toMatchObject({ count_total: 2, count_arrived: 1, count_incoming: 2, count_action_point: 0 });
    // Moved to another plant: out of the mechanic's scope, still the manager's.
    await db().update(orders).set({ plant: 'DE02', workCenter: null }).where(eq(orders.id, 'ZZ-IDX-1'));
    expect((await same('mechanic', 'quasar')).count_total).toBe(1);
    expect((await same('manager', 'mat=qx-2')).count_total).toBe(1);
    // Deleted (with its items): gone.
    await db().delete(orders).where(eq(orders.id, 'ZZ-IDX-1'));
    expect((await same('manager', 'mat=qx-2')).count_total).toBe(0);
    expect(index().stats().reloaded).toBeGreaterThan(0);
  });

  it.runIf(engine === 'postgres')('sees a transaction that commits after a newer one it has already read past', async () => {
    const changes = product.database.changes;
    if (!('connectionString' in changes)) throw new Error('PostgreSQL expected');
    const [early, late] = await db().select().from(orders).where(eq(orders.plant, 'DE02')).orderBy(asc(orders.id)).limit(2);
    const first = new pg.Client({ connectionString: changes.connectionString });
    const second = new pg.Client({ connectionString: changes.connectionString });
    await Promise.all([first.connect(), second.connect()]);
    try {
      // The first transaction takes its id and holds it open; a later one commits and is read.
      await first.query('begin');
      await first.query(`update order_items set material_description = 'Nebula brake' where order_id = $1`, [early!.id]);
      await second.query(`update order_items set material_description = 'Pulsar brake' where order_id = $1`, [late!.id]);
      expect((await same('manager', 'pulsar')).count_total).toBe(1);
      expect((await same('manager', 'nebula')).count_total).toBe(0);
      await first.query('commit');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    expect((await same('manager', 'nebula')).trackingStatus.map((row) => row.orderId)).toEqual([early!.id]);
  });

  it.runIf(engine === 'postgres')('builds once, not again and again, after a burst while an older transaction stays open', async () => {
    const changes = product.database.changes;
    if (!('connectionString' in changes)) throw new Error('PostgreSQL expected');
    const small = new TrackingSearchIndex(db(), { enabled: true, maxItems: 1_000_000, inlineChanges: 3, log: quiet });
    await small.start();
    const holder = new pg.Client({ connectionString: changes.connectionString });
    await holder.connect();
    try {
      // An older transaction with an xid holds the snapshots' xmin back while the burst commits.
      await holder.query('begin');
      await holder.query(`update orders set destination = destination where id = (select min(id) from orders)`);
      const some = await db().select({ id: orders.id }).from(orders).orderBy(asc(orders.id)).offset(10).limit(6);
      for (const { id } of some) await db().update(orderItems).set({ materialDescription: 'Meteor cable' }).where(eq(orderItems.orderId, id));
      expect((await both('manager', 'meteor', {}, small)).answered).toBe(false);
      await small.whenBuilt();
      const after = await both('manager', 'meteor', {}, small);
      expect(after.answered).toBe(true);
      expect(after.fromIndex).toEqual(after.fromDatabase);
      expect(small.stats().builds).toBe(2);
    } finally {
      await holder.query('rollback');
      await holder.end();
      await small.stop();
    }
  });

  it('answers from the database while too many changes wait, then from memory again once built anew', async () => {
    const small = new TrackingSearchIndex(db(), { enabled: true, maxItems: 1_000_000, inlineChanges: 3, log: quiet });
    await small.start();
    try {
      expect((await both('manager', 'e', {}, small)).answered).toBe(true);
      const some = await db().select({ id: orders.id }).from(orders).orderBy(asc(orders.id)).limit(6);
      for (const { id } of some) await db().update(orderItems).set({ materialDescription: 'Comet cable' }).where(eq(orderItems.orderId, id));
      const meanwhile = await both('manager', 'comet', {}, small);
      expect(meanwhile.answered).toBe(false);
      expect(meanwhile.fromIndex).toEqual(meanwhile.fromDatabase);
      expect(meanwhile.fromIndex.count_total).toBe(6);
      await small.whenBuilt();
      const after = await both('manager', 'comet', {}, small);
      expect(after.answered).toBe(true);
      expect(after.fromIndex).toEqual(after.fromDatabase);
      expect(small.stats().builds).toBe(2);
    } finally {
      await small.stop();
    }
  });

  it('prunes changes older than a day that have been read, oldest first, and keeps the others', async () => {
    const dayAgo = sql`now() - interval '25 hours'`;
    // What the seed wrote is older still (changes come in the order of their transactions).
    await db().execute(sql`update tracking_changes set changed_at = now() - interval '26 hours'`);
    const before = (await db().select({ id: trackingChanges.orderId }).from(trackingChanges)).length;
    await db().insert(trackingChanges).values([{ orderId: 'ZZ-OLD-1', changedAt: dayAgo }, { orderId: 'ZZ-OLD-2', changedAt: dayAgo }]);
    await db().insert(trackingChanges).values({ orderId: 'ZZ-YOUNG' });
    // The index's cursor: past every change above (a transaction started after them; not the
    // server-wide xmin, which another database's open transaction may hold back).
    const [{ xmin }] = rowsOf<{ xmin: string }>(await db().execute(sql`select pg_current_xact_id()::text as xmin`)) as [{ xmin: string }];
    await db().insert(trackingChanges).values({ orderId: 'ZZ-OLD-UNREAD', changedAt: dayAgo });
    const left = async () => (await db().select({ id: trackingChanges.orderId }).from(trackingChanges)).map((row) => row.id).filter((id) => id.startsWith('ZZ-'));
    expect(await pruneTrackingChanges(db(), xmin, 50)).toBe(before + 2);
    // Older than a day and read (below the cursor): gone; younger, or not read yet: kept.
    expect((await left()).sort()).toEqual(['ZZ-OLD-UNREAD', 'ZZ-YOUNG']);
    expect((await db().select({ id: trackingChanges.orderId }).from(trackingChanges)).length).toBe(2);
  });

  it('is not used when turned off, and a truncate sends searches to the database until it is built anew', async () => {
    const off = new TrackingSearchIndex(db(), { enabled: false, maxItems: 1_000_000, log: quiet });
    await off.start();
    expect((await both('manager', 'e', {}, off)).answered).toBe(false);
    expect(off.stats().state).toBe('off');
    const tooSmall = new TrackingSearchIndex(db(), { enabled: true, maxItems: 10, log: quiet });
    await tooSmall.start();
    expect(tooSmall.stats().state).toBe('off');
    await tooSmall.stop();

    await db().execute(sql`truncate order_items cascade`);
    const meanwhile = await both('manager', 'e');
    expect(meanwhile.answered).toBe(false);
    expect(meanwhile.fromIndex.count_total).toBe(0);
    await index().whenBuilt();
    const after = await same('manager', 'e');
    expect(after.count_total).toBe(0);
  });
});
