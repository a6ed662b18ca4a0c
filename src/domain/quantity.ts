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

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: string, grouping: boolean): Intl.NumberFormat {
  const key = `${language}|${grouping}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.NumberFormatOptions = { maximumFractionDigits: 3, useGrouping: grouping };
    try {
      format = new Intl.NumberFormat(language, options);
    } catch {
      // A tag Intl refuses (i18next's "cimode", a garbled stored locale): English rather than a crash.
      format = new Intl.NumberFormat('en-US', options);
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * A quantity as a number of the user's language: "1,5" in German, Finnish or French, "1.5" in
 * English, at most three decimals (the rule above). `inField`: the text of a quantity field, so
 * without grouping ("1234,5", never "1.234,5" or "1 234,5"): it reads back through
 * parseQuantityInput to the same number in every language, and the field's text is what an edit
 * builds on (decision 0064).
 */
export function formatQuantity(value: number, language: string, { inField = false }: { inField?: boolean } = {}): string {
  // -0 is shown "-0" by Intl: a quantity is 0.
  return numberFormat(language, !inField).format(value === 0 ? 0 : value);
}
