import { describe, expect, it } from 'vitest';
import { expiryDay, isPastLastDay } from './expiration';

describe('account expiry (§4)', () => {
  it('is judged by the UTC date, whatever the device’s time zone', () => {
    // 01:00 on 1 December in Helsinki is still 30 November in UTC: the last day is not past yet.
    const helsinkiAfterMidnight = new Date('2026-12-01T01:00:00+02:00');
    expect(expiryDay(helsinkiAfterMidnight)).toBe('2026-11-30');
    expect(isPastLastDay('2026-11-30', helsinkiAfterMidnight)).toBe(false);
    expect(isPastLastDay('2026-11-30', new Date('2026-12-01T00:00:00Z'))).toBe(true);
  });

  it('an account without a last day never expires; the last day itself is valid', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    expect(isPastLastDay(null, now)).toBe(false);
    expect(isPastLastDay(undefined, now)).toBe(false);
    expect(isPastLastDay('2026-11-30', now)).toBe(false);
    expect(isPastLastDay('2026-11-29', now)).toBe(true);
  });
});
