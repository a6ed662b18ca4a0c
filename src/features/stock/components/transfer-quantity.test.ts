/**
 * A transfer's quantity is read as the app reads typed quantities (parseQuantityInput), not by
 * Number(): "1e3" was 1000, "0x10" 16, and English "1,000" 1. More than three decimals is refused.
 */
import { describe, expect, it } from 'vitest';
import { parseTransferQuantity } from './transfer-quantity';

const value = (text: string, language = 'en-US') => parseTransferQuantity(text, language);

describe('a transfer request’s quantity', () => {
  it('reads whole numbers and one comma or point as the decimal separator', () => {
    expect(value('12')).toEqual({ ok: true, value: 12 });
    expect(value(' 2.5 ')).toEqual({ ok: true, value: 2.5 });
    expect(value('2,5')).toEqual({ ok: true, value: 2.5 });
    expect(value('2,5', 'de-DE')).toEqual({ ok: true, value: 2.5 });
    expect(value('0,250')).toEqual({ ok: true, value: 0.25 });
    expect(value('1.125')).toEqual({ ok: true, value: 1.125 });
    expect(value('1000')).toEqual({ ok: true, value: 1000 });
  });

  it('refuses what Number() took for a number: exponents, hexadecimal, signs, spaces inside', () => {
    for (const text of ['1e3', '0x10', '+5', '-5', '1 000', 'Infinity', '', '   ', '0', '0,000', 'abc', '1,2,3']) {
      expect(value(text), text).toEqual({ ok: false, problem: 'invalid' });
    }
  });

  it('refuses a number written with the language’s thousands separator, which would be read as 1', () => {
    expect(value('1,000')).toEqual({ ok: false, problem: 'grouped' });
    expect(value('12,500,000')).toEqual({ ok: false, problem: 'grouped' });
    expect(value('1.000', 'de-DE')).toEqual({ ok: false, problem: 'grouped' });
    // A point in English and a comma in German are decimal separators there.
    expect(value('1.000')).toEqual({ ok: true, value: 1 });
    expect(value('1,000', 'de-DE')).toEqual({ ok: true, value: 1 });
    // French groups with a space: "1 000" is no quantity, "1,000" a decimal one.
    expect(value('1,000', 'fr-FR')).toEqual({ ok: true, value: 1 });
  });

  it('refuses more than three decimals, and more than the contract takes', () => {
    expect(value('1.2345')).toEqual({ ok: false, problem: 'decimals' });
    expect(value('0,0001', 'fi-FI')).toEqual({ ok: false, problem: 'decimals' });
    expect(value('1.2500')).toEqual({ ok: true, value: 1.25 });
    expect(value('1000000000')).toEqual({ ok: true, value: 1_000_000_000 });
    expect(value('1000000001')).toEqual({ ok: false, problem: 'tooLarge' });
  });
});

describe('a refused transfer quantity, in words', () => {
  it('says what to type instead, with the language’s decimal separator', async () => {
    const { default: i18next } = await import('i18next');
    const { transferQuantityError } = await import('./transfer-dialog');
    const words = i18next.createInstance();
    await words.init({
      lng: 'en-US',
      resources: {
        'en-US': {
          translation: {
            stock: {
              transferQuantityInvalid: 'Quantity should be greater than 0',
              transferQuantityDecimals: 'Quantity can have at most 3 decimals.',
              transferQuantityGrouped: 'Type the quantity without a thousands separator, for example {{example}}.',
            },
            feedback: { errors: { quantityTooLarge: 'Quantity must be {{max, number}} or less' } },
          },
        },
      },
      interpolation: { escapeValue: false },
    });
    expect(transferQuantityError('decimals', words.t, 'en-US')).toBe('Quantity can have at most 3 decimals.');
    expect(transferQuantityError('grouped', words.t, 'en-US')).toBe('Type the quantity without a thousands separator, for example 1500.5.');
    expect(transferQuantityError('grouped', words.t, 'de-DE')).toBe('Type the quantity without a thousands separator, for example 1500,5.');
    expect(transferQuantityError('tooLarge', words.t, 'en-US')).toBe('Quantity must be 1,000,000,000 or less');
    expect(transferQuantityError('invalid', words.t, 'en-US')).toBe('Quantity should be greater than 0');
  });
});
