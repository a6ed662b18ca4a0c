import { describe, expect, it } from 'vitest';
import { parseSearch } from '../../../domain/search-language';
import { SEARCH_EXAMPLES } from './search-help';

describe('search help examples', () => {
  it.each(SEARCH_EXAMPLES)('%s is a valid search', (example) => {
    const parsed = parseSearch(example);
    expect(parsed.errors).toEqual([]);
    expect(parsed.terms.length).toBeGreaterThan(0);
  });
});
