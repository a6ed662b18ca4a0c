/** §5 mobile numbers: the strict check where a number is entered, the looser one where it is looked for. */
import { describe, expect, it } from 'vitest';
import { isLooseMobileNumber, isSameMobileNumber, isValidMobileNumber } from './notifications';

describe('mobile numbers (§5)', () => {
  it('enters numbers with the country code: + and at least 3 digits', () => {
    expect(isValidMobileNumber('+358 40 123 4567')).toBe(true);
    expect(isValidMobileNumber('358401234567')).toBe(false);
    expect(isValidMobileNumber('+35')).toBe(false);
  });

  it('looks numbers up with the looser check: an optional + and at least 3 digits', () => {
    for (const value of ['+358', '358', '040 123 4567', '(040) 123-4567', ' +358 40 ']) expect(isLooseMobileNumber(value)).toBe(true);
    for (const value of ['35', '+', 'abc123', '358a', '', '12 34 x']) expect(isLooseMobileNumber(value)).toBe(false);
  });

  it('compares numbers by their digits only', () => {
    expect(isSameMobileNumber('+358 40 123 4567', '358-40-1234567')).toBe(true);
    expect(isSameMobileNumber('+358401234567', '+358401234568')).toBe(false);
    expect(isSameMobileNumber('', '')).toBe(false);
    expect(isSameMobileNumber(null, '+358')).toBe(false);
  });
});
