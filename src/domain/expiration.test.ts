import { describe, expect, it } from 'vitest';
import { dayIn, expiryDay, isPastLastDay } from './expiration';

describe('account expiry (§4)', () => {
  it('is judged by the day of the user’s plants, whatever the device’s time zone', () => {
    // 01:00 on 1 December in Helsinki: the last day 30 November is past there, not yet in UTC.
    const helsinkiAfterMidnight = new Date('2026-12-01T01:00:00+02:00');
    expect(expiryDay(helsinkiAfterMidnight, ['Europe/Helsinki'])).toBe('2026-12-01');
    expect(isPastLastDay('2026-11-30', helsinkiAfterMidnight, ['Europe/Helsinki'])).toBe(true);
    // 23:30 on 30 November in Helsinki: still the last day there, though the device may be anywhere.
    expect(isPastLastDay('2026-11-30', new Date('2026-11-30T21:30:00Z'), ['Europe/Helsinki'])).toBe(false);
    // Summer time: UTC+3.
    expect(dayIn('Europe/Helsinki', new Date('2026-07-01T21:30:00Z'))).toBe('2026-07-02');
  });

  it('ends when the day has ended in every plant of the user; without a plant, by the UTC day', () => {
    const afterHelsinkiMidnight = new Date('2026-11-30T22:30:00Z'); // 00:30 in Helsinki, 23:30 in Paris
    expect(expiryDay(afterHelsinkiMidnight, ['Europe/Helsinki', 'Europe/Paris'])).toBe('2026-11-30');
    expect(isPastLastDay('2026-11-30', afterHelsinkiMidnight, ['Europe/Helsinki', 'Europe/Paris'])).toBe(false);
    expect(isPastLastDay('2026-11-30', afterHelsinkiMidnight, ['Europe/Helsinki'])).toBe(true);
    expect(isPastLastDay('2026-11-30', afterHelsinkiMidnight)).toBe(false);
    expect(isPastLastDay('2026-11-30', new Date('2026-12-01T00:00:00Z'))).toBe(true);
    // A zone this runtime does not know counts as UTC rather than failing the sign-in check.
    expect(dayIn('Mars/Olympus_Mons', afterHelsinkiMidnight)).toBe('2026-11-30');
  });

  it('an account without a last day never expires; the last day itself is valid', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    expect(isPastLastDay(null, now)).toBe(false);
    expect(isPastLastDay(undefined, now)).toBe(false);
    expect(isPastLastDay('2026-11-30', now)).toBe(false);
    expect(isPastLastDay('2026-11-29', now)).toBe(true);
  });
});
