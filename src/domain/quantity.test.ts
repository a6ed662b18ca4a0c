/**
 * Quantities in the user's language (§5): what formatQuantity writes into a quantity field reads
 * back through parseQuantityInput to the same number in each of the app's 9 languages.
 */
import { describe, expect, it } from 'vitest';
import { formatQuantity, isGroupedQuantityInput, parseQuantityInput } from './quantity';

const LANGUAGES = ['cs-CZ', 'de-DE', 'en-US', 'es-ES', 'fi-FI', 'fr-FR', 'it-IT', 'pt-PT', 'sv-SE'] as const;
const COMMA = ['cs-CZ', 'de-DE', 'es-ES', 'fi-FI', 'fr-FR', 'it-IT', 'pt-PT', 'sv-SE'];
const QUANTITIES = [0, 1, 1.5, 0.001, 12.25, 1234.5, 10_000, 999_999_999.999];

describe('formatQuantity', () => {
  it.each(LANGUAGES)('writes a field text that parseQuantityInput reads back unchanged in %s', (language) => {
    for (const quantity of QUANTITIES) {
      const text = formatQuantity(quantity, language, { inField: true });
      // No grouping, no minus, no space of any kind (fr, fi, sv, cs group with narrow or no-break spaces).
      expect(text, `${language} ${quantity}`).toMatch(/^\d+([.,]\d+)?$/);
      expect(parseQuantityInput(text), `${language} ${text}`).toBe(quantity);
    }
  });

  it('uses the decimal separator of the user’s language', () => {
    for (const language of LANGUAGES) expect(formatQuantity(1.5, language)).toBe(COMMA.includes(language) ? '1,5' : '1.5');
    expect(formatQuantity(1.5, 'de-DE', { inField: true })).toBe('1,5');
  });

  it('groups thousands in texts, never in a field', () => {
    expect(formatQuantity(1234.5, 'en-US')).toBe('1,234.5');
    expect(formatQuantity(1234.5, 'de-DE')).toBe('1.234,5');
    expect(formatQuantity(1234.5, 'fr-FR')).toBe('1\u202f234,5');
    expect(formatQuantity(1234.5, 'fi-FI')).toBe('1\u00a0234,5');
    expect(formatQuantity(1234.5, 'fi-FI', { inField: true })).toBe('1234,5');
  });

  it('shows a negative difference with the language’s minus sign, and never "-0"', () => {
    expect(formatQuantity(-2.5, 'fi-FI')).toBe('\u22122,5');
    expect(formatQuantity(-2.5, 'sv-SE')).toBe('\u22122,5');
    expect(formatQuantity(-2.5, 'fr-FR')).toBe('-2,5');
    expect(formatQuantity(-0, 'en-US', { inField: true })).toBe('0');
  });

  it('keeps at most three decimals, as a counted quantity has', () => {
    expect(formatQuantity(0.1 + 0.2, 'en-US')).toBe('0.3');
    expect(formatQuantity(2.0004, 'de-DE', { inField: true })).toBe('2');
  });

  it('falls back to English for a language tag Intl refuses', () => {
    expect(formatQuantity(1.5, '')).toBe('1.5');
    expect(formatQuantity(1.5, 'x')).toBe('1.5');
  });
});

describe('isGroupedQuantityInput', () => {
  it('finds a number written with the language’s thousands separator, which parseQuantityInput would read as a decimal', () => {
    // German (and Spanish, Italian) group with a point: "1.250" is a thousand two hundred and fifty there.
    for (const language of ['de-DE', 'es-ES', 'it-IT']) {
      for (const text of ['1.250', '12.500', '999.999.999', ' 1.000 ']) expect(isGroupedQuantityInput(text, language), `${language} ${text}`).toBe(true);
    }
    // English groups with a comma.
    for (const text of ['1,250', '12,500,000']) expect(isGroupedQuantityInput(text, 'en-US'), text).toBe(true);
  });

  it('leaves the decimals a mechanic types alone: "1,5" in German, "1.5" in English, either separator elsewhere', () => {
    for (const text of ['1,5', '1,250', '0,250', '1.5', '1.25', '1.2500', '0.250', '12', '1000', '', 'abc']) expect(isGroupedQuantityInput(text, 'de-DE'), text).toBe(false);
    for (const text of ['1.5', '1.250', '0,250', '1,5', '1,25', '1000']) expect(isGroupedQuantityInput(text, 'en-US'), text).toBe(false);
    // French, Finnish, Swedish, Czech and Portuguese group with a space: a point or a comma is a decimal there.
    for (const language of ['fr-FR', 'fi-FI', 'sv-SE', 'cs-CZ', 'pt-PT']) {
      expect(isGroupedQuantityInput('1.250', language), language).toBe(false);
      expect(isGroupedQuantityInput('1,250', language), language).toBe(false);
    }
    // A tag Intl refuses is read as English.
    expect(isGroupedQuantityInput('1,250', 'x')).toBe(true);
    expect(isGroupedQuantityInput('1.250', 'x')).toBe(false);
  });

  it.each(LANGUAGES)('never refuses what a quantity field shows in %s', (language) => {
    for (const quantity of [...QUANTITIES, 1.25, 1250, 0.25]) expect(isGroupedQuantityInput(formatQuantity(quantity, language, { inField: true }), language), `${language} ${quantity}`).toBe(false);
  });
});
