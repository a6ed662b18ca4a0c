/**
 * §5 quantity rule for counted materials. A counted quantity may be 0 (an empty bin is a result),
 * never negative, at most three decimals (metres and kilograms), and below a sanity limit.
 */
export const QUANTITY_MESSAGE = 'Quantity should be greater than or equal to 0';
export const MAX_COUNTED_QUANTITY = 1_000_000_000;
/** Why a quantity that is not negative is refused all the same (a caller sending 0.0001 was told "≥ 0"). */
export const QUANTITY_MAX_MESSAGE = 'Quantity must be less than 1,000,000,000';
export const QUANTITY_DECIMALS_MESSAGE = 'Quantity may have at most 3 decimals';

export function isValidCountedQuantity(value: number): boolean {
  if (!Number.isFinite(value) || value < 0 || value >= MAX_COUNTED_QUANTITY) return false;
  const thousandths = value * 1000;
  return Math.abs(Math.round(thousandths) - thousandths) < 1e-6;
}

/**
 * Reads what a person typed ("12", "12,5", " 3.25 "); null for empty, NaN for junk. Its one comma
 * or point is the decimal mark whatever the language: check isGroupedQuantityInput first where a
 * person types (a German "1.250" means 1250, not 1.25).
 */
export function parseQuantityInput(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return Number.NaN;
  return Number(trimmed);
}

/** The thousands separator of a language: "," in English, "." in German and Spanish, a space in French or Finnish. */
function groupingSeparator(language: string): string {
  // The formatter formatQuantity shows numbers with: one home for a language's number format.
  return numberFormat(language, true).formatToParts(10_000).find((part) => part.type === 'group')?.value ?? '';
}

/**
 * Whether what a person typed is a number written with their language's thousands separator
 * ("1,250" in English, "1.250" in German): parseQuantityInput would read its one separator as the
 * decimal mark (1.25), so which was meant is not known and the text is refused, not guessed. Groups
 * of three after a leading 1–999 (not 0: "0,250" is a quarter in every language). A language that
 * groups with a space (French, Finnish, Swedish, Czech, Portuguese) leaves "1.250" and "1,250" decimal:
 * "1 250" is no quantity there anyway.
 */
export function isGroupedQuantityInput(text: string, language: string): boolean {
  const group = groupingSeparator(language);
  if (group !== ',' && group !== '.') return false;
  return new RegExp(`^[1-9]\\d{0,2}(\\${group}\\d{3})+$`).test(text.trim());
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
