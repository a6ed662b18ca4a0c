/**
 * One home per rule (docs/decisions/0022): each business rule the database needs lives in one SQL
 * function (migration 0015) used by every query and trigger, beside its TypeScript twin in
 * src/domain. One table of fixtures, both answers, required equal — on PGlite and PostgreSQL:
 *   item_is_arrived       ↔ isArrived         (§4 arrived / incoming tabs, the orders' item summary)
 *   item_is_action_point  ↔ isActionPoint     (§4 action point count)
 *   stock_total           ↔ totalQuantity     (§3 total quantity)
 *   is_zero_stock_plant   ↔ isZeroStockPlant  (§5 plants that show zero stock)
 *   stock_row_shown       ↔ isShownInSearch   (§5 zero totals hidden in searches)
 * Then the same rules through the triggers and lists that use them: the orders' item summary and
 * a stock search, against the TypeScript rules applied to the same rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { allowedPlants, orderItems, orders } from '../../server/db/schema';
import { rowsOf } from '../../server/db/client';
import { isActionPoint, isArrived } from '../../src/domain/tracking';
import { isShownInSearch, isZeroStockPlant, totalQuantity, ZERO_STOCK_PARAMETER } from '../../src/domain/stock';
import { createTestProduct, ENGINES, type TestProduct } from './harness';

/** Item fixtures: every delivery status the ERP sends, and the edges of the goods receipt fields. */
const STATUSES = [null, '', 'Delivered', 'delivered', 'Delivery Failed', 'ToBePickedUp', 'At access point', 'In transit', 'Out for delivery'];
const POSTED = [null, '2026-11-20T08:00:00.000Z'];
const QUANTITIES = [null, '0', '0.000', '-1', '0.001', '5'];
const ITEMS = STATUSES.flatMap((deliveryStatus) =>
  POSTED.flatMap((goodsReceiptPostedAt) => QUANTITIES.map((purchaseOrderGoodsReceiptQuantity) => ({ deliveryStatus, goodsReceiptPostedAt, purchaseOrderGoodsReceiptQuantity }))),
);

/** Stock count fixtures: all present, one missing, zeros, negatives, decimals that sum to 0. */
const COUNTS: Array<[string | null, string | null, string | null, string | null, string | null]> = [
  ['0', '0', '0', '0', '0'],
  ['1', '0', '0', '0', '0'],
  ['0', '0', '0', '0', '2.5'],
  [null, '0', '0', '0', '0'],
  ['3', '1', null, '0', '0'],
  ['-1', '1', '0', '0', '0'],
  ['0.1', '0.2', '-0.3', '0', '0'],
  ['12.345', '0', '1', '0', '0'],
  [null, null, null, null, null],
];
const PLANTS = ['FI01', 'DE02', 'FR03', 'NO-SUCH'];

const num = (value: string | null) => (value === null ? null : Number(value));

describe.each(ENGINES)('SQL rules and their TypeScript twins on %s', (engine) => {
  let product: TestProduct;
  const db = () => product.database.db;
  const one = async <T,>(query: ReturnType<typeof sql>) => rowsOf<{ value: T }>(await db().execute(query))[0]!.value;

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => product?.close());

  it('item_is_arrived and item_is_action_point answer as isArrived and isActionPoint for every fixture', async () => {
    const result = await db().execute(sql`
      select f.n, item_is_arrived(f.status, f.posted, f.quantity) as arrived, item_is_action_point(f.status) as action_point
      from jsonb_to_recordset(${JSON.stringify(ITEMS.map((item, n) => ({ n, status: item.deliveryStatus, posted: item.goodsReceiptPostedAt, quantity: item.purchaseOrderGoodsReceiptQuantity })))}::jsonb)
        as f(n int, status text, posted timestamptz, quantity numeric)
      order by f.n`);
    const sqlAnswers = rowsOf<{ n: number; arrived: boolean; action_point: boolean }>(result);
    expect(sqlAnswers).toHaveLength(ITEMS.length);
    const tsAnswers = ITEMS.map((item, n) => ({ n, arrived: isArrived(item), action_point: isActionPoint(item) }));
    expect(sqlAnswers).toEqual(tsAnswers);
    // The fixtures reach both answers of each rule.
    expect(new Set(tsAnswers.map((a) => a.arrived))).toEqual(new Set([true, false]));
    expect(new Set(tsAnswers.map((a) => a.action_point))).toEqual(new Set([true, false]));
  });

  it('stock_total, is_zero_stock_plant and stock_row_shown answer as totalQuantity, isZeroStockPlant and isShownInSearch', async () => {
    const zeroPlants = (await db().select({ plant: allowedPlants.plant }).from(allowedPlants).where(eq(allowedPlants.parameter, ZERO_STOCK_PARAMETER))).map((r) => r.plant);
    expect(zeroPlants.length).toBeGreaterThan(0);
    expect(await one<string[]>(sql`select zero_stock_plants() as value`)).toEqual([...zeroPlants].sort());
    const fixtures = COUNTS.flatMap((counts) => PLANTS.map((plant) => ({ counts, plant })));
    const result = await db().execute(sql`
      select f.n, stock_total(f.u, f.q, f.b, f.r, f.t)::float8 as total, is_zero_stock_plant(f.plant) as zero_plant,
        is_zero_stock_plant(f.plant, (select zero_stock_plants())) as zero_plant_given,
        stock_row_shown(stock_total(f.u, f.q, f.b, f.r, f.t), is_zero_stock_plant(f.plant)) as shown
      from jsonb_to_recordset(${JSON.stringify(fixtures.map(({ counts: [u, q, b, r, t], plant }, n) => ({ n, u, q, b, r, t, plant })))}::jsonb)
        as f(n int, u numeric, q numeric, b numeric, r numeric, t numeric, plant text)
      order by f.n`);
    const sqlAnswers = rowsOf<{ n: number; total: number | null; zero_plant: boolean; zero_plant_given: boolean; shown: boolean }>(result).map((row) => ({
      ...row,
      total: row.total === null ? null : Number(row.total),
    }));
    const tsAnswers = fixtures.map(({ counts: [u, q, b, r, t], plant }, n) => {
      // Both spellings of the second count: the domain's field name is being changed elsewhere.
      const counts = { unrestricted_count: num(u), quality_inspection_count: num(q), quantity_inspection_count: num(q), blocked_count: num(b), restricted_count: num(r), transfer_count: num(t) };
      const total = totalQuantity(counts as unknown as Parameters<typeof totalQuantity>[0]);
      const zeroPlant = isZeroStockPlant(plant, zeroPlants);
      // Decimal sums: SQL numeric is exact, JavaScript rounds; compare at the §5 precision.
      const rounded = total === null ? null : Math.round(total * 1000) / 1000;
      return { n, total: rounded === 0 ? 0 : rounded, zero_plant: zeroPlant, zero_plant_given: zeroPlant, shown: isShownInSearch(rounded, zeroPlant) };
    });
    expect(sqlAnswers).toEqual(tsAnswers);
    expect(new Set(tsAnswers.map((a) => a.shown))).toEqual(new Set([true, false]));
  });

  it('the orders’ item summary (triggers) and the tracking tabs count items by the same rules', async () => {
    await db().insert(orders).values({ id: 'ZZ-TWINS', plant: 'DE02' });
    await db()
      .insert(orderItems)
      .values(
        ITEMS.map((item, n) => ({
          orderId: 'ZZ-TWINS', plant: 'DE02',
          lineNumber: n + 1,
          materialCode: `TW${n}`,
          materialDescription: 'Twin rule fixture',
          unit: 'PC',
          deliveryStatus: item.deliveryStatus,
          goodsReceiptPostedAt: item.goodsReceiptPostedAt ? new Date(item.goodsReceiptPostedAt) : null,
          purchaseOrderGoodsReceiptQuantity: item.purchaseOrderGoodsReceiptQuantity,
        })),
      );
    const [summary] = await db()
      .select({ items: orders.itemCount, arrived: orders.arrivedItems, actionPoint: orders.actionPointItems })
      .from(orders)
      .where(eq(orders.id, 'ZZ-TWINS'));
    expect(summary).toEqual({ items: ITEMS.length, arrived: ITEMS.filter(isArrived).length, actionPoint: ITEMS.filter(isActionPoint).length });
    // An update through the delta trigger: every item delivered.
    await db().update(orderItems).set({ deliveryStatus: 'Delivered' }).where(eq(orderItems.orderId, 'ZZ-TWINS'));
    const [after] = await db().select({ arrived: orders.arrivedItems, actionPoint: orders.actionPointItems }).from(orders).where(eq(orders.id, 'ZZ-TWINS'));
    expect(after).toEqual({ arrived: ITEMS.length, actionPoint: 0 });
  });
});
