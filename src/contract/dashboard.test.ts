import { describe, expect, it } from 'vitest';
import { isCalendarDay } from './dashboard';

describe('isCalendarDay', () => {
  it.each(['2025-02-28', '2024-02-29', '2000-02-29', '0099-12-31', '0001-01-01', '9999-12-31'])('takes %s', (text) => {
    expect(isCalendarDay(text)).toBe(true);
  });
  it.each(['2025-02-29', '1900-02-29', '2025-02-30', '2025-13-01', '2025-00-10', '2025-04-31', '0099-02-29', '25-01-01', '2025-1-01', ''])('refuses %s', (text) => {
    expect(isCalendarDay(text)).toBe(false);
  });
});
