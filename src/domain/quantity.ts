/**
 * §5 quantity rule for counted materials. A counted quantity may be 0 (an empty bin is a result),
 * never negative, at most three decimals (metres and kilograms), and below a sanity limit.
 */
export const QUANTITY_MESSAGE = 'Quantity should be greater than or equal to 0';
export const MAX_COUNTED_QUANTITY = 1_000_000_000;

export function isValidCountedQuantity(value: number): boolean {
  if (!Number.isFinite(value) || value < 0 || value >= MAX_COUNTED_QUANTITY) return false;
  const thousandths = value * 1000;
  return Math.abs(Math.round(thousandths) - thousandths) < 1e-6;
}

/** Reads what a person typed ("12", "12,5", " 3.25 "); null for empty, NaN for junk. */
export function parseQuantityInput(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return Number.NaN;
  return Number(trimmed);
}
