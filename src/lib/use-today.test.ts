import { describe, expect, it } from 'vitest';
import { msToNextMidnight } from './use-today';

describe('the next local midnight', () => {
  it('is the start of the next local day, never less than a second away', () => {
    const evening = new Date(2026, 11, 1, 23, 59, 0);
    expect(msToNextMidnight(evening)).toBe(60_000);
    const noon = new Date(2026, 11, 1, 12, 0, 0);
    expect(msToNextMidnight(noon)).toBe(new Date(2026, 11, 2).getTime() - noon.getTime());
    expect(msToNextMidnight(new Date(2026, 11, 1, 23, 59, 59, 900))).toBe(1000);
  });
});
