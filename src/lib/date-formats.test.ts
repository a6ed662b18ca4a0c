/** §9 / decision 0020: content dates YYYY-MM-DD in every locale; created and deadlines long and localized. */
import { afterAll, describe, expect, it } from 'vitest';
import { setDatesLocale } from './dates';
import { formatCreated, formatDate, formatDateTime, formatDayHeading, formatDeadline } from './date-formats';

afterAll(() => setDatesLocale('en-US'));

describe('date formats', () => {
  it.each(['en-US', 'de-DE', 'fi-FI', 'cs-CZ'] as const)('writes content dates as YYYY-MM-DD in %s', async (locale) => {
    await setDatesLocale(locale);
    expect(formatDate('2026-12-01')).toBe('2026-12-01');
    expect(formatDateTime('2026-12-01T14:05:00')).toBe('2026-12-01 14:05');
  });

  it('keeps the long, localized forms for created and deadlines', async () => {
    await setDatesLocale('en-US');
    expect(formatDeadline('2026-12-01')).toBe('December 1, 2026');
    expect(formatCreated('2026-12-01T14:05:00')).toBe('December 1, 2026 2:05 PM');
    await setDatesLocale('de-DE');
    expect(formatDeadline('2026-12-01')).toBe('1. Dezember 2026');
    expect(formatCreated('2026-12-01T14:05:00')).toBe('1. Dezember 2026 14:05');
    expect(formatDayHeading('2026-12-01')).toBe('Dienstag 2026-12-01');
  });
});
