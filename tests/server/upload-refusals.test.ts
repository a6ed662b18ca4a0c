/**
 * Bytes and values the database cannot take are refused with a 4xx naming the file or the line,
 * never a bare 400 from SQL or a file retried on every tick: NUL bytes in an ERP file (upload and
 * inbox), control characters in a priority CSV cell, and ERP numbers too large to read back.
 */
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { fileProcessing, stockItems } from '../../server/db/schema';
import { processPending, registerFile } from '../../server/ingestion/queue';
import { DEFAULT_SCHEDULE } from '../../server/ingestion/schedule';
import { createIngestionWorker } from '../../server/ingestion/worker';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

/** Dates far from the seed's 30 days and from ingestion.test.ts's. */
let fileCounter = 0;
const nameFor = (type: string) => `ERP_${type}_2031${String(1 + (fileCounter % 12)).padStart(2, '0')}${String(1 + (Math.floor(fileCounter++ / 12) % 28)).padStart(2, '0')}_MORNING.csv`;

/** A MATERIALS file whose second data line (line 3) holds a NUL byte, as a UTF-16 or binary export would. */
const withNul = (tag: string) => Buffer.concat([Buffer.from(`material_code;description_english;unit\nMAT-NUL-${tag};Door roller;PC\nMAT-NUL-2;Guide`), Buffer.from([0]), Buffer.from(' shoe;PC\n')]);

/** Older than the inbox's settling time. */
const SETTLED = new Date(Date.now() - 60_000);

describe.each(ENGINES)('refused bytes and values on %s', (engine) => {
  let product: TestProduct;
  const db = () => product.database.db;
  const fileCount = async () => (await db().select({ n: sql<number>`count(*)::int` }).from(fileProcessing))[0]!.n;

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => {
    await product?.close();
  });

  describe('NUL bytes in an ERP file', () => {
    it('refuses an upload with 422 naming the NUL bytes and their line; nothing is queued', async () => {
      const before = await fileCount();
      const res = await product.app.inject({
        method: 'POST',
        url: `/user_api/v1/dashboard/files?fileName=${nameFor('MATERIALS')}`,
        headers: { ...bearer(await product.token('manager@example.com')), 'content-type': 'text/csv' },
        payload: withNul('UP'),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(
        'The file contains NUL bytes (the first on line 3), which text cannot hold: a UTF-16 or binary export? Export it from the ERP system as UTF-8 text and send it again.',
      );
      expect(await fileCount()).toBe(before);
    });

    it('records an inbox file with NUL bytes as errored, with the reason, and moves it to failed/ once', async () => {
      const inboxDir = await mkdtemp(join(tmpdir(), 'partstrack-inbox-'));
      const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
      const worker = createIngestionWorker(db(), { inboxDir, schedule: DEFAULT_SCHEDULE, leaseSeconds: 60, pollSeconds: 3600 }, log);
      try {
        const name = nameFor('MATERIALS');
        await writeFile(join(inboxDir, name), withNul('INBOX'));
        await utimes(join(inboxDir, name), SETTLED, SETTLED);
        await worker.tick();
        expect(log.error).not.toHaveBeenCalled();
        const rows = await db().select().from(fileProcessing).where(eq(fileProcessing.fileName, name));
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ status: 'errored', source: 'inbox', fileType: 'MATERIALS', errors: [{ line: null, message: expect.stringContaining('contains NUL bytes (the first on line 3)') }] });
        expect(await readdir(inboxDir)).toEqual(['failed']);
        expect(await readdir(join(inboxDir, 'failed'))).toEqual([name]);
        // Out of the inbox: the next tick neither records nor logs it again.
        await worker.tick();
        expect(await db().select().from(fileProcessing).where(eq(fileProcessing.fileName, name))).toHaveLength(1);
        // The same bytes for another slot (the next day's export, as broken) are that slot's
        // refused file, which takes its "missing" row: not a duplicate of the first (decision 0073).
        const next = nameFor('MATERIALS');
        const [, y, m, d] = /_(\d{4})(\d{2})(\d{2})_/.exec(next)!;
        await db().execute(sql`insert into file_processing (id, file_type, file_name, business_date, file_part_of_day, status, errors, created_at)
          values (gen_random_uuid(), 'MATERIALS', ${next}, ${`${y}-${m}-${d}`}, 'morning', 'missing', '[]'::jsonb, now())`);
        await writeFile(join(inboxDir, next), withNul('INBOX'));
        await utimes(join(inboxDir, next), SETTLED, SETTLED);
        await worker.tick();
        const slot = await db().select().from(fileProcessing).where(and(eq(fileProcessing.fileType, 'MATERIALS'), eq(fileProcessing.businessDate, `${y}-${m}-${d}`), eq(fileProcessing.filePartOfDay, 'morning')));
        expect(slot.map((row) => [row.status, row.fileName])).toEqual([['errored', next]]);
        expect(log.error).not.toHaveBeenCalled();
      } finally {
        await worker.stop();
        await rm(inboxDir, { recursive: true, force: true });
      }
    });
  });

  it('records an inbox file above the size limit as errored, saying so, and moves it to failed/ without reading it', async () => {
    const inboxDir = await mkdtemp(join(tmpdir(), 'partstrack-inbox-'));
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const worker = createIngestionWorker(db(), { inboxDir, schedule: DEFAULT_SCHEDULE, leaseSeconds: 60, pollSeconds: 3600, inboxMaxBytes: 2 * 1024 * 1024 }, log);
    try {
      const name = nameFor('MATERIALS');
      const line = 'MAT-BIG;A part of a file too large;PC\n';
      await writeFile(join(inboxDir, name), `material_code;description_english;unit\n${line.repeat(Math.ceil((3 * 1024 * 1024) / line.length))}`);
      await utimes(join(inboxDir, name), SETTLED, SETTLED);
      await worker.tick();
      expect(log.error).not.toHaveBeenCalled();
      expect(await db().select({ status: fileProcessing.status, errors: fileProcessing.errors }).from(fileProcessing).where(eq(fileProcessing.fileName, name))).toEqual([
        { status: 'errored', errors: [{ line: null, message: 'The file is larger than 2 MB; split it into smaller files and send them again.', code: 'erpInboxTooLarge', params: { mb: 2 } }] },
      ]);
      expect(await readdir(join(inboxDir, 'failed'))).toEqual([name]);
    } finally {
      await worker.stop();
      await rm(inboxDir, { recursive: true, force: true });
    }
  });

  describe('ERP numbers', () => {
    it('refuses a STOCK quantity too large to read back, naming the line and column; the file changes nothing', async () => {
      const [stock] = await db().select().from(stockItems).where(eq(stockItems.plant, 'FI01')).limit(1);
      const key = `${stock!.plant};${stock!.storageLocation};${stock!.materialCode}`;
      const huge = `1${'0'.repeat(400)}`;
      const content = `plant;storage_location;material_code;unrestricted_count\n${key};${huge}\n`;
      const { file } = await registerFile(db(), { fileName: nameFor('STOCK'), content, source: 'inbox' });
      const done = (await processPending(db(), { workerId: 'test-worker', leaseSeconds: 60 })).find((f) => f.id === file.id);
      expect(done).toMatchObject({
        status: 'errored',
        errors: [{ line: 2, message: `unrestricted_count "${'1'.padEnd(40, '0')}…" is out of range (at most 15 digits before the . and 6 after it)` }],
      });
      const [after] = await db()
        .select()
        .from(stockItems)
        .where(and(eq(stockItems.plant, stock!.plant), eq(stockItems.storageLocation, stock!.storageLocation), eq(stockItems.materialCode, stock!.materialCode)));
      expect(after!.unrestrictedCount).toBe(stock!.unrestrictedCount);
    });

    it('applies the largest number the bound allows', async () => {
      const [stock] = await db().select().from(stockItems).where(eq(stockItems.plant, 'FI01')).limit(1);
      const content = `plant;storage_location;material_code;unrestricted_count\n${stock!.plant};${stock!.storageLocation};${stock!.materialCode};999999999999999.999999\n`;
      const { file } = await registerFile(db(), { fileName: nameFor('STOCK'), content, source: 'inbox' });
      const done = (await processPending(db(), { workerId: 'test-worker', leaseSeconds: 60 })).find((f) => f.id === file.id);
      expect(done).toMatchObject({ status: 'processed', errors: [] });
    });
  });

  describe('control characters in a priority CSV cell', () => {
    const upload = async (payload: string, dryRun: boolean) =>
      product.app.inject({
        method: 'POST',
        url: `/user_api/v1/uap_priority/uploads/add${dryRun ? '?dryRun=true' : ''}`,
        headers: { ...bearer(await product.token('pm.writer@example.com')), 'content-type': 'text/csv; charset=utf-8' },
        payload,
      });
    const invalid = (line: number, column: string, value: string) => ({
      line,
      column,
      value,
      code: 'invalidValue',
      params: { column },
      message: `${column} is not a valid value (too long, or contains a line break or another control character)`,
    });

    it('names the line and column of a NUL or other control character, with and without dryRun', async () => {
      const body = 'shipToPartyCode;accessPointId;priority\n0050010001;FI-AP-10231;7\n0050010\u0000001;FI-AP-10231;3\n0050010001;FI-AP\u0007-1;2\n';
      const dry = await upload(body, true);
      expect(dry.statusCode).toBe(200);
      expect(dry.json().errors).toEqual([invalid(3, 'shipToPartyCode', '0050010\u0000001'), invalid(4, 'accessPointId', 'FI-AP\u0007-1')]);
      const applied = await upload(body, false);
      expect(applied.statusCode).toBe(422);
      expect(applied.json()).toMatchObject({ code: 'uploadRowsHaveErrors', params: { count: 2 } });
      expect(applied.json().errors).toEqual([invalid(3, 'shipToPartyCode', '0050010\u0000001'), invalid(4, 'accessPointId', 'FI-AP\u0007-1')]);
    });
  });
});
