/**
 * §7 file-processing dashboard calls on PGlite and PostgreSQL: who may read them (§6), date
 * validation (impossible dates are 400 with a message), and counts that match the file rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { processPending, registerFile } from '../../server/ingestion/queue';
import type { CompactRow, FileRow } from '../../src/contract/dashboard';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { DEFAULT_SCHEDULE } from '../../server/ingestion/schedule';
import { dayIn } from '../../src/domain/expiration';

describe.each(ENGINES)('file dashboard on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['manager', 'viewer', 'stock.admin', 'mechanic', 'supervisor']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => {
    await product?.close();
  });

  const get = (who: string, url: string) => product.app.inject({ method: 'GET', url: `/user_api/v1/dashboard/${url}`, headers: bearer(tokens[who]!) });
  const detailed = async (date: string): Promise<FileRow[]> => (await get('manager', `detailed_view?date=${date}`)).json();
  const compact = async (start: string, end: string): Promise<CompactRow[]> => (await get('manager', `compact_view?start_date=${start}&end_date=${end}`)).json();

  it('is readable by both kinds of super manager only (§6)', async () => {
    for (const who of ['manager', 'viewer']) {
      expect((await get(who, 'detailed_view?date=2026-11-19')).statusCode, who).toBe(200);
      expect((await get(who, 'compact_view?start_date=2026-11-01&end_date=2026-11-19')).statusCode, who).toBe(200);
    }
    for (const who of ['stock.admin', 'mechanic', 'supervisor']) {
      expect((await get(who, 'detailed_view?date=2026-11-19')).statusCode, who).toBe(403);
      expect((await get(who, 'compact_view?start_date=2026-11-01&end_date=2026-11-19')).statusCode, who).toBe(403);
    }
  });

  it('says today as the ERP schedule counts it, to anyone signed in who opens the file screens', async () => {
    // UTC+14: the schedule's day is not UTC's for ten hours of every day, nor the device's.
    const far = await createTestProduct(engine, { INGESTION_SCHEDULE: JSON.stringify({ ...DEFAULT_SCHEDULE, timezone: 'Pacific/Kiritimati' }) });
    try {
      for (const who of ['manager', 'stock.admin']) {
        const before = dayIn('Pacific/Kiritimati');
        const res = await far.app.inject({ method: 'GET', url: '/user_api/v1/dashboard/business_day', headers: bearer(await far.token(`${who}@example.com`)) });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().timezone).toBe('Pacific/Kiritimati');
        expect([before, dayIn('Pacific/Kiritimati')]).toContain(res.json().today);
      }
      expect((await get('manager', 'business_day')).json().timezone).toBe(DEFAULT_SCHEDULE.timezone);
    } finally {
      await far.close();
    }
  });

  it('answers a range that ends on the last calendar day, one row a day', async () => {
    const res = await get('manager', 'compact_view?start_date=9999-12-30&end_date=9999-12-31');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((row: CompactRow) => row.date)).toEqual(['9999-12-30', '9999-12-31']);
  });

  it('refuses impossible and malformed dates with a message (400)', async () => {
    const cases: Array<[string, string]> = [
      ['detailed_view?date=2026-02-30', 'date is not a calendar day'],
      ['detailed_view?date=20261119', 'date must be a date as YYYY-MM-DD'],
      ['detailed_view', 'date'],
      ['compact_view?start_date=2026-13-01&end_date=2026-11-19', 'start_date is not a calendar day'],
      ['compact_view?start_date=2026-11-19&end_date=2026-11-01', 'start_date must not be after end_date'],
      ['compact_view?start_date=2020-01-01&end_date=2026-11-19', 'at most 366 days'],
    ];
    for (const [url, message] of cases) {
      const res = await get('manager', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toContain(message);
    }
  });

  it('lists the file rows of a day with their errors and line numbers', async () => {
    const compactRows = await compact('2026-10-22', '2026-11-20');
    const erroredDay = compactRows.find((r) => r.number_of_errored_files > 0);
    expect(erroredDay).toBeDefined();
    const rows = await detailed(erroredDay!.date);
    const errored = rows.filter((r) => r.status === 'errored');
    expect(errored.length).toBe(erroredDay!.number_of_errored_files);
    for (const row of errored) {
      expect(row.file_name).toMatch(/^ERP_(ORDERS|DELIVERIES|STOCK|MATERIALS)_\d{8}_(MORNING|MIDDAY|EVENING)\.csv$/);
      expect(row.errors.length).toBeGreaterThan(0);
      expect(row.errors[0]!.line).toBeGreaterThan(1);
      expect(row.start_date).not.toBeNull();
      expect(row.end_date).not.toBeNull();
    }
    // Rows come in part-of-day order.
    const parts = rows.map((r) => ['morning', 'midday', 'evening'].indexOf(r.file_part_of_day));
    expect(parts).toEqual([...parts].sort((a, b) => a - b));
  });

  it('counts per day match the detailed rows, every day of the range', async () => {
    const rows = await compact('2026-10-20', '2026-11-20');
    expect(rows.map((r) => r.date)).toHaveLength(32);
    expect(rows[0]).toMatchObject({ date: '2026-10-20', number_of_files: 0 }); // before the first file: no invented history
    for (const row of rows) {
      const files = await detailed(row.date);
      const by = (status: string) => files.filter((f) => f.status === status).length;
      expect(row, row.date).toEqual({
        date: row.date,
        number_of_files: files.length,
        number_of_processed_files: by('processed'),
        number_of_errored_files: by('errored'),
        number_of_missing_files: by('missing'),
        number_of_in_progress_files: by('in_progress'),
        number_of_not_processed_files: by('not_processed'),
      });
      if (row.date >= '2026-10-22' && row.date < '2026-11-20') expect(row.number_of_files, row.date).toBeGreaterThanOrEqual(8);
    }
    const total = rows.reduce((sum, r) => sum + r.number_of_missing_files, 0);
    expect(total).toBeGreaterThan(0);
  });

  it('shows a new file at once and its outcome after processing', async () => {
    const day = '2026-11-19';
    const before = (await compact(day, day))[0]!;
    const content = `${Papa.unparse({ fields: ['material_code', 'description_english', 'unit'], data: [['', 'No code', 'PC']] }, { newline: '\n' })}\n`;
    await registerFile(product.database.db, { fileName: 'ERP_MATERIALS_20261119_EVENING_resend.csv', content, source: 'upload' });
    const queued = (await compact(day, day))[0]!;
    expect(queued.number_of_files).toBe(before.number_of_files + 1);
    expect(queued.number_of_not_processed_files).toBe(before.number_of_not_processed_files + 1);
    await processPending(product.database.db, { workerId: 'test', leaseSeconds: 60 });
    const after = (await compact(day, day))[0]!;
    expect(after.number_of_errored_files).toBe(before.number_of_errored_files + 1);
    const row = (await detailed(day)).find((r) => r.file_name === 'ERP_MATERIALS_20261119_EVENING_resend.csv');
    expect(row).toMatchObject({ status: 'errored', file_part_of_day: 'evening', errors: [{ line: 2, message: 'material_code is empty' }] });
  });
});
