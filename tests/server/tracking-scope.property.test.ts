/**
 * The tracking list's scope under searches by code and plant (decision 0047, fewInScope) as a
 * seeded property: for callers with random scopes (plants, work centres and planner groups that
 * narrow them, ship-to parties, orders addressed to them) and random searches (`sloc=`, `wc=`,
 * `so=`, `"planner group"=`, `plant=`, `plant!=`, and pairs of them, in any case), every tab's
 * count and first page equal a reading of the raw tables. A failure names the seed:
 * PROPERTY_SEED=<n> replays it; PROPERTY_RUNS=<n> sets the callers per seed (default 8).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderItems, orders, userAttachments, userGrants, users } from '../../server/db/schema';
import { isActionPoint, isArrived } from '../../src/domain/tracking';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { seededRandom } from '../seeded-random';
import { eq, inArray } from 'drizzle-orm';

vi.setConfig({ testTimeout: 300_000 });

const RUNS = Number(process.env.PROPERTY_RUNS ?? 8);
const SEEDS = process.env.PROPERTY_SEED ? [Number(process.env.PROPERTY_SEED)] : [20261129, Math.floor(Math.random() * 2 ** 31)];
const PLANTS = ['FI01', 'DE02', 'FR03'];

type Order = typeof orders.$inferSelect;
type Item = typeof orderItems.$inferSelect;
const asFields = (item: Item) => ({ ...item, goodsReceiptPostedAt: item.goodsReceiptPostedAt?.toISOString() ?? null });

interface Caller {
  email: string;
  plants: string[];
  narrowers: Array<{ plant: string; kind: 'work_center' | 'planner_group'; code: string }>;
  /** Also a plant-wide role (customer service admin): the plants whole, whatever narrows them. */
  wide: boolean;
  shipTo: string[];
}

/** A term and what it says of an item and its order, written out apart from the repository. */
interface Term {
  text: string;
  matches: (item: Item, order: Order) => boolean;
}

describe.each(ENGINES)('the tracking list of random scopes and code searches on %s', (engine) => {
  let product: TestProduct;
  let allOrders: Order[];
  let allItems: Item[];
  const db = () => product.database.db;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    allItems = await db().select().from(orderItems);
  });
  afterAll(async () => product?.close());

  for (const seed of SEEDS) {
    it(`seed ${seed}: counts and first pages equal the raw tables'`, async () => {
      const random = seededRandom(seed);
      const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
      const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
      const anyCase = (value: string) => (random() < 0.5 ? value.toLowerCase() : value.toUpperCase());
      const ordersNow = async () => (allOrders = await db().select().from(orders));
      await ordersNow();
      const withCode = (code: (order: Order) => string | null) => allOrders.filter((order) => code(order) !== null);

      // The callers: a mechanic's grant (tracking, narrowed by work centers and planner groups) with
      // a random scope, some also customer service admins (plant-wide: their plants whole, §6 union).
      const callers: Caller[] = [];
      /** The addressee each order had before a caller took it (put back at the end). */
      const before = new Map<string, string | null>();
      for (let n = 0; n < RUNS; n += 1) {
        const email = `prop-${seed}-${n}@example.com`;
        const plants = PLANTS.filter(() => random() < 0.45);
        const narrowers: Caller['narrowers'] = [];
        for (const plant of plants) {
          if (random() < 0.5) continue;
          const own = allOrders.filter((order) => order.plant === plant);
          for (let k = int(1, 2); k > 0 && own.length > 0; k -= 1) {
            const order = pick(own);
            if (random() < 0.6 && order.workCenter) narrowers.push({ plant, kind: 'work_center', code: order.workCenter });
            else if (order.plannerGroup) narrowers.push({ plant, kind: 'planner_group', code: order.plannerGroup });
          }
        }
        const shipTo = [...new Set(Array.from({ length: int(0, 2) }, () => pick(withCode((order) => order.shipToParty)).shipToParty!))];
        const [user] = await db().insert(users).values({ email, displayName: `Prop ${n}`, approvalStatus: 'Approved', firstLogin: false }).returning();
        const wide = random() < 0.3;
        await db()
          .insert(userGrants)
          .values([{ userId: user!.id, grantId: 'mechanic' }, ...(wide ? [{ userId: user!.id, grantId: 'custom_service_admin' }] : [])]);
        const attachments = [
          ...plants.map((plant) => ({ userId: user!.id, kind: 'plant', plant, code: plant })),
          ...[...new Map(narrowers.map((n) => [`${n.kind}|${n.plant}|${n.code}`, n])).values()].map((n) => ({ userId: user!.id, kind: n.kind, plant: n.plant, code: n.code })),
          ...shipTo.map((code) => ({ userId: user!.id, kind: 'ship_to_party', plant: '', code })),
        ];
        if (attachments.length > 0) await db().insert(userAttachments).values(attachments);
        // A few orders addressed to the caller, in any plant.
        const addressed = Array.from({ length: int(0, 3) }, () => pick(allOrders));
        for (const order of addressed) if (!before.has(order.id)) before.set(order.id, order.userEmail);
        if (addressed.length > 0) await db().update(orders).set({ userEmail: email }).where(inArray(orders.id, addressed.map((order) => order.id)));
        callers.push({ email, plants, narrowers, shipTo, wide });
      }
      await ordersNow();

      const inScope = (caller: Caller) => (order: Order) =>
        (caller.plants.includes(order.plant) &&
          (caller.wide ||
            caller.narrowers.length === 0 ||
            caller.narrowers.some((n) => n.plant === order.plant && (n.kind === 'work_center' ? order.workCenter : order.plannerGroup) === n.code))) ||
        (order.shipToParty !== null && caller.shipTo.includes(order.shipToParty)) ||
        order.userEmail === caller.email;

      const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();
      const terms = (): Term => {
        const item = pick(allItems);
        const order = allOrders.find((o) => o.id === item.orderId)!;
        const plant = pick(PLANTS);
        switch (int(0, 5)) {
          case 0: {
            const value = anyCase(item.storageLocation ?? 'V001');
            return { text: `sloc=${value}`, matches: (i) => same(i.storageLocation, value) };
          }
          case 1: {
            const value = anyCase(order.workCenter ?? pick(withCode((o) => o.workCenter)).workCenter!);
            return { text: `wc=${value}`, matches: (_, o) => same(o.workCenter, value) };
          }
          case 2: {
            const value = order.serviceOrder ?? pick(withCode((o) => o.serviceOrder)).serviceOrder!;
            return { text: `so=${value}`, matches: (_, o) => same(o.serviceOrder, value) };
          }
          case 3: {
            const value = order.plannerGroup ?? pick(withCode((o) => o.plannerGroup)).plannerGroup!;
            return { text: `"planner group"=${value}`, matches: (_, o) => same(o.plannerGroup, value) };
          }
          case 4: {
            const value = anyCase(plant);
            return { text: `plant=${value}`, matches: (_, o) => same(o.plant, value) };
          }
          default: {
            const value = anyCase(plant);
            return { text: `plant!=${value}`, matches: (_, o) => !same(o.plant, value) };
          }
        }
      };

      const byOrder = new Map<string, Item[]>();
      for (const item of allItems) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);

      for (const caller of callers) {
        const token = await product.token(caller.email);
        const visible = allOrders.filter(inScope(caller));
        for (let q = 0; q < 6; q += 1) {
          const chosen = random() < 0.35 ? [terms(), terms()] : [terms()];
          const query = chosen.map((term) => term.text).join(' ');
          const having = (tab: (item: Item) => boolean) =>
            visible
              .filter((order) => (byOrder.get(order.id) ?? []).some((item) => tab(item) && chosen.every((term) => term.matches(item, order))))
              .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
              .map((order) => order.id);
          const tabs = { all: having(() => true), arrived: having((i) => isArrived(asFields(i))), incoming: having((i) => !isArrived(asFields(i))) };
          const counts = { count_total: tabs.all.length, count_arrived: tabs.arrived.length, count_incoming: tabs.incoming.length, count_action_point: having(isActionPoint).length };
          const what = `seed ${seed} (PROPERTY_SEED=${seed} replays it), caller ${JSON.stringify(caller)}, query "${query}"`;
          for (const status of ['all', 'arrived', 'incoming'] as const) {
            const res = await product.app.inject({
              method: 'GET',
              url: `/parts/v1/users/me/tracking-status?status=${status}&page=1&maxResults=100&myOrders=false&query=${encodeURIComponent(query)}`,
              headers: bearer(token),
            });
            expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
            const body = res.json() as { trackingStatus: Array<{ orderId: string }> } & typeof counts;
            expect(body, `${what} ${status}`).toMatchObject(counts);
            expect(body.trackingStatus.map((row) => row.orderId), `${what} ${status}`).toEqual(tabs[status].slice(0, 100));
          }
        }
      }
      // The callers and their addressed orders go again (another seed starts from the same data).
      for (const [id, userEmail] of before) await db().update(orders).set({ userEmail }).where(eq(orders.id, id));
      for (const caller of callers) await db().delete(users).where(eq(users.email, caller.email));
    });
  }
});
