/**
 * Offline figures in headless Chromium: mirror write of 10,000 material-count rows, a page read
 * from the mirror, one outbox enqueue, and the drain of 1,000 queued edits against the local
 * server (PGlite). Targets: ≤ 300 ms, ≤ 10 ms, ≤ 5 ms, ≤ 15 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { chromium } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../server/config';
import { startProduct } from '../../server/start';
import { stockCounts } from '../../server/db/schema';

export async function offlineBench(): Promise<Record<string, number>> {
  const outDir = mkdtempSync(join(tmpdir(), 'partstrack-bench-web-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-bench-data-'));
  await build({ root: 'tests/bench/offline', configFile: false, logLevel: 'error', build: { outDir, emptyOutDir: true, target: 'es2022' } });
  const port = Number(process.env.BENCH_OFFLINE_PORT ?? 8197);
  const product = await startProduct(
    loadConfig({ ...process.env, NODE_ENV: 'test', PORT: String(port), DATA_DIR: dataDir, PUBLIC_DIR: outDir, LOG_LEVEL: 'warn', DATABASE_URL: '', RATE_LIMIT_PER_MINUTE: '100000' }),
    { logger: false },
  );
  // A count with 1,000 lines for the mechanic: its van's stock plus catalogue materials.
  const [created] = await product.database.db
    .insert(stockCounts)
    .values({ createdBy: 'bench@example.com', plant: 'FI01', type: 'wall_to_wall', status: 'initiated', storageLocation: 'V001', conductedBy: 'mechanic@example.com' })
    .returning({ id: stockCounts.id });
  const stockCountId = created!.id;
  await product.database.db.execute(sql`
    insert into material_counts (stock_count_id, material_code, material_description_english, unit)
    select ${stockCountId}, code, description_english, unit from materials order by code limit 1000`);
  await product.app.listen({ port, host: 'localhost' });

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://localhost:${port}/`);
    await page.getByText('ready').waitFor();
    type Bench = {
      mirrorFigures(): Promise<Record<string, number>>;
      enqueueScaling(sizes: number[]): Promise<Record<string, number>>;
      drainFigures(email: string, id: number): Promise<Record<string, number>>;
    };
    const mirror = await page.evaluate(() => (globalThis as unknown as { bench: Bench }).bench.mirrorFigures());
    // #22: the enqueue on counts of 100, 1,000 and 10,000 lines at 4× CPU slowdown (a mid-range phone).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const scaling = await page.evaluate(() => (globalThis as unknown as { bench: Bench }).bench.enqueueScaling([100, 1000, 10_000]));
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const drain = await page.evaluate(
      ({ id }) => (globalThis as unknown as { bench: Bench }).bench.drainFigures('mechanic@example.com', id),
      { id: stockCountId },
    );
    return { ...mirror, ...scaling, ...drain };
  } finally {
    await browser.close();
    await product.close();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
