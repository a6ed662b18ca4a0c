/** The country filter takes two-letter codes; anything else is said at the field, not dropped. */
import { describe, expect, it } from 'vitest';
import { countryOf } from './country-filter';

describe('the country filter’s input', () => {
  it('reads a two-letter code in any case, spaces around', () => {
    expect(countryOf(' fi ')).toBe('FI');
    expect(countryOf('De')).toBe('DE');
  });

  it('refuses what is not two letters (the field then shows why)', () => {
    for (const typed of ['', ' ', 'F', 'FIN', 'F1', 'Ä1']) expect(countryOf(typed)).toBeNull();
  });
});
