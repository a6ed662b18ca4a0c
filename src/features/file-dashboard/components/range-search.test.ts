/** The overview's range goes to a day and back ("All days" showed the last 14 days again). */
import { describe, expect, it } from 'vitest';
import { rangeSearch } from './range-search';

describe('rangeSearch', () => {
  it('carries a valid range and nothing else', () => {
    expect(rangeSearch(new URLSearchParams('from=2026-01-01&to=2026-01-31&x=1'))).toBe('?from=2026-01-01&to=2026-01-31');
  });

  it('is empty without a range or with a broken one', () => {
    expect(rangeSearch(new URLSearchParams())).toBe('');
    expect(rangeSearch(new URLSearchParams('from=2026-02-30&to=2026-03-01'))).toBe('');
    expect(rangeSearch(new URLSearchParams('from=2026-03-02&to=2026-03-01'))).toBe('');
  });
});
