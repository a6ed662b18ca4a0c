/**
 * Files waiting in the inbox together are applied in the order the business needs (day, part of
 * the day, type), not alphabetically; an errored file still lying in the inbox (its move to
 * failed/ did not happen) is not queued again at every tick, while the same bytes sent again are.
 */
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { fileProcessing, materials } from '../../server/db/schema';
import { DEFAULT_SCHEDULE } from '../../server/ingestion/schedule';
import { createIngestionWorker, inboxOrder } from '../../server/ingestion/worker';
import { createTestProduct, ENGINES, type TestProduct } from './harness';

/** Older than the inbox's settling time. */
const SETTLED = new Date(Date.now() - 60_000);

describe('inboxOrder', () => {
  it('orders a batch by business day, part of the day, then type (materials, stock, orders, deliveries); a bad name last', () => {
    const names = [
      'ERP_DELIVERIES_20320102_MORNING.csv',
      'ERP_ORDERS_20320102_EVENING.csv',
      'ERP_ORDERS_20320102_MORNING.csv',
      'notes.csv',
      'ERP_STOCK_20320102_MORNING.csv',
      'ERP_ORDERS_20320101_EVENING.csv',
      'ERP_MATERIALS_20320102_MORNING.csv',
      'ERP_ORDERS_20320102_MIDDAY.csv',
    ];
    expect(inboxOrder(names)).toEqual([
      'ERP_ORDERS_20320101_EVENING.csv',
      'ERP_MATERIALS_20320102_MORNING.csv',
      'ERP_STOCK_20320102_MORNING.csv',
      'ERP_ORDERS_20320102_MORNING.csv',
      'ERP_DELIVERIES_20320102_MORNING.csv',
      'ERP_ORDERS_20320102_MIDDAY.csv',
      'ERP_ORDERS_20320102_EVENING.csv',
      'notes.csv',
    ]);
  });
});

describe.each(ENGINES)('the ERP inbox on %s', (engine) => {
  let product: TestProduct;
  const db = () => product.database.db;
  let inboxDir: string;

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => {
    await product?.close();
  });

  const put = async (name: string, text: string) => {
    await writeFile(join(inboxDir, name), text);
    await utimes(join(inboxDir, name), SETTLED, SETTLED);
  };
  const withWorker = async (run: (worker: ReturnType<typeof createIngestionWorker>, log: { info: ReturnType<typeof vi.fn>; warn: ReturnType<typeof vi.fn>; error: ReturnType<typeof vi.fn> }) => Promise<void>) => {
    inboxDir = await mkdtemp(join(tmpdir(), 'partstrack-inbox-'));
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const worker = createIngestionWorker(db(), { inboxDir, schedule: DEFAULT_SCHEDULE, leaseSeconds: 60, pollSeconds: 3600 }, log);
    try {
      await run(worker, log);
    } finally {
      await worker.stop();
      await rm(inboxDir, { recursive: true, force: true });
    }
  };

  it('applies a day’s files that wait together morning first, evening last: the evening’s values stand', async () => {
    await withWorker(async (worker, log) => {
      const code = `MAT-ORDER-${engine}`;
      // Alphabetically EVENING < MIDDAY < MORNING: the morning's description would have stood.
      await put('ERP_MATERIALS_20320305_EVENING.csv', `material_code;description_english;unit\n${code};Evening text;PC\n`);
      await put('ERP_MATERIALS_20320305_MORNING.csv', `material_code;description_english;unit\n${code};Morning text;PC\n`);
      await put('ERP_MATERIALS_20320305_MIDDAY.csv', `material_code;description_english;unit\n${code};Midday text;PC\n`);
      await worker.tick();
      expect(log.error).not.toHaveBeenCalled();
      const [material] = await db().select().from(materials).where(eq(materials.code, code));
      expect(material?.descriptionEnglish).toBe('Evening text');
      const rows = await db().select().from(fileProcessing).where(eq(fileProcessing.businessDate, '2032-03-05'));
      const applied = rows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime()).map((row) => [row.filePartOfDay, row.status]);
      expect(applied).toEqual([
        ['morning', 'processed'],
        ['midday', 'processed'],
        ['evening', 'processed'],
      ]);
      expect((await readdir(join(inboxDir, 'done'))).sort()).toHaveLength(3);
    });
  });

  it('queues an errored file still in the inbox once, however many ticks pass before it is moved; the same bytes sent again are queued again', async () => {
    await withWorker(async (worker, log) => {
      const name = 'ERP_STOCK_20320306_MORNING.csv';
      const stock = `plant;storage_location;material_code;unrestricted_count\nFI01;0001;MAT-INBOX-LATE-${engine};3\n`;
      const rowsOf = () => db().select().from(fileProcessing).where(eq(fileProcessing.fileName, name));
      // failed/ cannot be made (a file of that name is in the way): the errored file stays in the inbox.
      await writeFile(join(inboxDir, 'failed'), 'in the way');
      await put(name, stock);
      await worker.tick();
      expect(await rowsOf()).toMatchObject([{ status: 'errored' }]);
      expect(log.error).toHaveBeenCalled();
      await worker.tick();
      await worker.tick();
      // Not queued again: one row, and the file is still there to be moved.
      expect(await rowsOf()).toHaveLength(1);
      expect(await readdir(inboxDir)).toContain(name);
      await rm(join(inboxDir, 'failed'));
      await worker.tick();
      expect(await rowsOf()).toHaveLength(1);
      expect(await readdir(join(inboxDir, 'failed'))).toEqual([name]);

      // The material exists now, and the ERP sends the same bytes again: a new sending, applied.
      await put(`ERP_MATERIALS_20320306_MORNING.csv`, `material_code;description_english;unit\nMAT-INBOX-LATE-${engine};Late part;PC\n`);
      await worker.tick();
      await put(name, stock);
      await worker.tick();
      const rows = await rowsOf();
      expect(rows.map((row) => row.status).sort()).toEqual(['errored', 'processed']);
      expect(await readdir(join(inboxDir, 'done'))).toContain(name);
    });
  });
});
