/** §3 stock rules shared by the server and the browser. */

export const STOCK_TYPES = ['my_stock', 'my_team_stock', 'my_plant_stock'] as const;
export type StockType = (typeof STOCK_TYPES)[number];

/** A stock transfer request is requested, then done or declined once (decision 0061). */
export const TRANSFER_STATUSES = ['requested', 'done', 'declined'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export const TRANSFER_DECISIONS = ['done', 'declined'] as const;
export type TransferDecision = (typeof TRANSFER_DECISIONS)[number];

export interface StockCounts {
  unrestricted_count: number | null;
  quantity_inspection_count: number | null;
  blocked_count: number | null;
  restricted_count: number | null;
  transfer_count: number | null;
}

/**
 * §3: total quantity = the sum of the five counts, or null if any of them is not a number.
 * SQL twin: stock_total (migration 0015, docs/decisions/0022), held equal by tests/server/rule-twins.test.ts.
 */
export function totalQuantity(item: StockCounts): number | null {
  const parts = [item.unrestricted_count, item.quantity_inspection_count, item.blocked_count, item.restricted_count, item.transfer_count];
  if (parts.some((value) => typeof value !== 'number' || !Number.isFinite(value))) return null;
  return (parts as number[]).reduce((sum, value) => sum + value, 0);
}

/** A sum of quantities without binary noise: quantities have at most 3 decimals (§5), 1.1 + 2.2 is 3.3. */
export const toThousandths = (value: number): number => Math.round(value * 1000) / 1000;

/** The book quantity of a stock row: its §3 total, without binary noise (toThousandths). */
export function bookQuantityOf(item: StockCounts): number | null {
  const total = totalQuantity(item);
  return total === null ? null : toThousandths(total);
}

/**
 * A counted line whose book quantity moved after the count started needs the counter's choice.
 * No book at the start (no stock row in the storage location then) is a book of 0: a stock row
 * that appeared meanwhile (an ERP stock upload) with a quantity other than 0 moved it, or the
 * count would book the counted quantity against that new book unseen. An unknown book now
 * (no stock row, or a count of it missing) moves nothing.
 */
export function bookQuantityMoved(bookAtStart: number | null, bookNow: number | null): boolean {
  return bookNow !== null && (bookAtStart ?? 0) !== bookNow;
}

/**
 * "Keep the difference": the counted quantity moved by as much as the book moved, so the
 * difference found by the count survives a goods movement booked while counting. No book at the
 * start is a book of 0, as for bookQuantityMoved. Null when the book now is unknown.
 */
export function quantityKeepingDifference(counted: number, bookAtStart: number | null, bookNow: number | null): number | null {
  if (bookNow === null) return null;
  bookAtStart ??= 0;
  // Decimal quantities (§5 allows three decimals): round away binary noise.
  return toThousandths(counted + (bookNow - bookAtStart));
}

/** The allowed-plants parameter naming the plants that show zero stock in searches (§5). */
export const ZERO_STOCK_PARAMETER = 'show_zero_stock_material_plants';

/** Does `plant` show stock rows with a total of 0 in searches? SQL twin: is_zero_stock_plant. */
export function isZeroStockPlant(plant: string, zeroStockPlants: readonly string[]): boolean {
  return zeroStockPlants.includes(plant);
}

/**
 * §5: a search hides a stock row whose total is 0, except in a plant that shows zero stock; a row
 * whose total is unknown (a count missing) is shown. SQL twin: stock_row_shown.
 */
export function isShownInSearch(total: number | null, zeroStockPlant: boolean): boolean {
  return total === null || total !== 0 || zeroStockPlant;
}
