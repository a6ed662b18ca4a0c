/** Today's lists keep up with the server (slots turn missing, files arrive); other days are not re-read. */
import { describe, expect, it } from 'vitest';
import type { FileRow } from '../../contract/dashboard';
import { BUSY_FOLLOW_MS, TODAY_FOLLOW_MS, followInterval, hasFileAtWork } from './follow-interval';

const TODAY = '2026-12-02';

function file(id: string | null, status: FileRow['status']): FileRow {
  return { id, file_type: 'STOCK', start_date: null, end_date: null, file_name: 'ERP_STOCK_20261202_MORNING.csv', file_part_of_day: 'morning', status, errors: [], line_count: null, source: null };
}

describe('hasFileAtWork', () => {
  it('is a stored file that waits or is processed, not an expected slot still ahead', () => {
    expect(hasFileAtWork([file('a', 'in_progress')])).toBe(true);
    expect(hasFileAtWork([file('a', 'processed'), file('b', 'not_processed')])).toBe(true);
    expect(hasFileAtWork([file(null, 'not_processed'), file('a', 'processed'), file('b', 'errored')])).toBe(false);
    expect(hasFileAtWork([])).toBe(false);
    expect(hasFileAtWork(undefined)).toBe(false);
  });
});

describe('followInterval', () => {
  it('reads the business day again when nothing is processing, faster while a file is', () => {
    expect(followInterval(TODAY, TODAY, false, true)).toBe(TODAY_FOLLOW_MS);
    expect(followInterval(TODAY, TODAY, true, true)).toBe(BUSY_FOLLOW_MS);
    expect(BUSY_FOLLOW_MS).toBeLessThan(TODAY_FOLLOW_MS);
  });

  it('does not read a past or coming day again, busy or not', () => {
    expect(followInterval('2026-12-01', TODAY, true, true)).toBeUndefined();
    expect(followInterval('2026-12-03', TODAY, false, true)).toBeUndefined();
  });

  it('asks nothing offline', () => {
    expect(followInterval(TODAY, TODAY, true, false)).toBeUndefined();
    expect(followInterval(TODAY, TODAY, false, false)).toBeUndefined();
  });
});
