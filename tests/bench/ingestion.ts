/**
 * ERP ingestion (#9, #16):
 *  1. Throughput: lines per second for a 100,000-line ORDERS file (25,000 new service orders × 4
 *     items, every document column filled), from receiving the file to the committed
 *     file_processing row, on PGlite (in memory) and on PostgreSQL when BENCH_DATABASE_URL or
 *     DATABASE_URL names a server (a scratch database is created and dropped). Also the same
 *     file's state re-sent under another name (every line compared, nothing changed).
 *  2. The API while a large file is uploaded and ingested (PostgreSQL only): the product runs in
 *     this process listening on HTTP (as `npm run serve` does, ingestion worker on), a super
 *     manager uploads a ~30 MB ORDERS file over HTTP while another client calls
 *     GET /user_api/v1/user/profile one call after another; p50 / p99 / max of those calls until
 *     the file is processed, against the same calls on an idle server.
 * Run alone with `npx tsx tests/bench/ingestion.ts`, or as part of `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { fileProcessing } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { processPending, registerFile } from '../../server/ingestion/queue';
import { startProduct } from '../../server/start';
import { createScratchDatabase } from '../server/harness';
import { percentile } from './scaled';

export const BENCH_LINES = 100_000;
/** Lines of the upload of part 2: ~30 MB (the figure). */
export const UPLOAD_LINES = 92_000;
const PORT = Number(process.env.BENCH_INGESTION_PORT ?? 8197);

const FIELDS = [
  'service_order', 'line_number', 'plant', 'material_code', 'material_description', 'unit', 'equipment_code', 'equipment_description',
  'destination', 'work_center', 'planner_group', 'ship_to_party', 'user_email', 'delivery_date', 'eta', 'delivery_type', 'delivery_address',
  'storage_location', 'address_code', 'reservation_doc_number', 'reservation_quantity', 'pending', 'purchase_order_doc_number', 'purchase_order',
  'purchase_order_quantity', 'purchase_order_confirmation_category', 'purchase_order_confirmation_quantity', 'sales_order_doc_number',
  'sales_order_quantity', 'sales_order_schedule_line_quantity', 'delivery_order_doc_number', 'delivery_quantity',
];

export function orderFile(lines: number, variant = '', firstOrder = 7_000_000_000): string {
  const out = [FIELDS.join(';')];
  for (let i = 0; i < lines; i += 1) {
    const order = firstOrder + Math.floor(i / 4);
    const line = ((i % 4) + 1) * 10;
    out.push(
      [
        order, line, 'FI01', `KM${String(100000 + (i % 2000))}`, `Bench part ${i % 2000}${variant}`, 'PC', 41_000_000 + Math.floor(i / 4), 'Traction elevator, office building',
        'Mannerheimintie 12, 00100 Helsinki', 'FI01M001', 'F10', '0050010001', 'mechanic@example.com', '2030-01-15', '2030-01-12', 'Warehouse',
        '"Depot Pasila, Ratapihantie 11, 00520 Helsinki"', 'V001', '0050010001', 2_100_000 + i, '2', '0', 4_500_100_000 + i, `${4_500_100_000 + i}/00010`,
        '2', 'AB', '2', 1_200_300_000 + i, '2', '2', 8_000_400_000 + i, '2',
      ].join(';'),
    );
  }
  return `${out.join('\n')}\n`;
}

async function measure(database: Database, content: string, name: string): Promise<{ seconds: number; status: string }> {
  const started = performance.now();
  await registerFile(database.db, { fileName: name, content, source: 'inbox' });
  const [done] = await processPending(database.db, { workerId: 'bench', leaseSeconds: 3600 });
  if (done?.status !== 'processed') console.warn(JSON.stringify(done?.errors).slice(0, 500));
  return { seconds: (performance.now() - started) / 1000, status: done?.status ?? 'none' };
}

export interface IngestionFigures {
  engine: string;
  newLinesPerSecond: number;
  unchangedLinesPerSecond: number;
}

async function benchOn(database: Database, engine: string): Promise<IngestionFigures> {
  await database.migrate();
  await seedDatabase(database.db, { now: new Date() });
  // The seed leaves today's last two files queued, one of them claimed by a worker that "died"
  // minutes ago: its lease would hold every claim of the measured files (the bench found nothing
  // to process within an hour of the seed's last slot). They are applied first, unmeasured.
  await processPending(database.db, { workerId: 'bench-drain', leaseSeconds: 0 });
  const content = orderFile(BENCH_LINES);
  const fresh = await measure(database, content, 'ERP_ORDERS_20300101_MORNING.csv');
  if (fresh.status !== 'processed') throw new Error(`bench file was ${fresh.status}`);
  const same = await measure(database, `${content}\n`, 'ERP_ORDERS_20300101_MIDDAY.csv');
  return { engine, newLinesPerSecond: BENCH_LINES / fresh.seconds, unchangedLinesPerSecond: BENCH_LINES / same.seconds };
}

export interface UploadLagFigures {
  megabytes: number;
  idle: { p50: number; p99: number; max: number; calls: number };
  during: { p50: number; p99: number; max: number; calls: number };
  /** From the first byte sent to the file's row being processed. */
  seconds: number;
  status: string;
}

/** Part 2: profile calls during a large upload, through real HTTP, on a scratch PostgreSQL database. */
async function uploadLagOn(databaseUrl: string): Promise<UploadLagFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-bench-upload-'));
  const product = await startProduct(
    loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', INGESTION_POLL_SECONDS: '1', AUTH_LOCAL_ENABLED: 'true', SEED_ON_START: 'true' }),
    { logger: false },
  );
  try {
    await product.app.listen({ port: PORT, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${PORT}`;
    const tokenOf = async (email: string) =>
      ((await (await fetch(`${base}/auth/local/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })).json()) as { idToken: string }).idToken;
    const managerToken = await tokenOf('manager@example.com');
    const mechanicToken = await tokenOf('mechanic@example.com');
    const profile = async () => {
      const started = performance.now();
      const res = await fetch(`${base}/user_api/v1/user/profile`, { headers: { authorization: `Bearer ${mechanicToken}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`profile answered ${res.status}`);
      return performance.now() - started;
    };
    const summary = (times: number[]) => ({ p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times), calls: times.length });
    // Let start-up work in the background settle, then the idle figure.
    await new Promise((resolve) => setTimeout(resolve, 8000));
    for (let i = 0; i < 20; i += 1) await profile();
    const idle: number[] = [];
    for (let i = 0; i < 300; i += 1) idle.push(await profile());

    const content = orderFile(UPLOAD_LINES, '', 7_100_000_000);
    const fileName = 'ERP_ORDERS_20300102_MORNING.csv';
    const during: number[] = [];
    let finished = false;
    const started = performance.now();
    const upload = (async () => {
      const res = await fetch(`${base}/user_api/v1/dashboard/files?fileName=${fileName}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${managerToken}`, 'content-type': 'text/csv' },
        body: content,
      });
      if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      const { file } = (await res.json()) as { file: { id: string } };
      for (;;) {
        const [row] = await product.database.db.select({ status: fileProcessing.status }).from(fileProcessing).where(eq(fileProcessing.id, file.id));
        if (row && row.status !== 'not_processed' && row.status !== 'in_progress') return row.status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })().finally(() => {
      finished = true;
    });
    while (!finished) during.push(await profile());
    const status = await upload;
    const seconds = (performance.now() - started) / 1000;
    return { megabytes: Buffer.byteLength(content) / 1024 / 1024, idle: summary(idle), during: summary(during), seconds, status };
  } finally {
    await product.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface IngestionBench {
  throughput: IngestionFigures[];
  uploadLag: UploadLagFigures | null;
}

export async function ingestionBench(): Promise<IngestionBench> {
  const throughput: IngestionFigures[] = [];
  if (process.env.BENCH_INGESTION_PGLITE !== 'off') {
    const pglite = await openDatabase({ memory: true });
    try {
      throughput.push(await benchOn(pglite, 'PGlite'));
    } finally {
      await pglite.close();
    }
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  let uploadLag: UploadLagFigures | null = null;
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'pt_bench_ingest');
    const postgres = await openDatabase({ databaseUrl: scratch.url });
    try {
      throughput.push(await benchOn(postgres, 'PostgreSQL'));
    } finally {
      await postgres.close();
      await scratch.drop();
    }
    const lagScratch = await createScratchDatabase(adminUrl, 'pt_bench_upload');
    try {
      uploadLag = await uploadLagOn(lagScratch.url);
    } finally {
      await lagScratch.drop();
    }
  }
  return { throughput, uploadLag };
}

export function printIngestionFigures({ throughput, uploadLag }: IngestionBench): void {
  // The machine's load beside the figures: on a shared machine they say little without it.
  console.log(`load average ${loadavg().map((n) => n.toFixed(2)).join(', ')} (${cpus().length} cores)`);
  const rate = (value: number) => `${Math.round(value).toLocaleString('en-US')} lines/s`;
  for (const f of throughput) {
    console.log(
      `ERP ingestion of a ${BENCH_LINES.toLocaleString('en-US')}-line ORDERS file on ${f.engine}: ${rate(f.newLinesPerSecond)} (new orders and items); ` +
        `${rate(f.unchangedLinesPerSecond)} (same state re-sent)`,
    );
  }
  if (uploadLag) {
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const { idle, during } = uploadLag;
    console.log(
      `GET /user_api/v1/user/profile while a ${uploadLag.megabytes.toFixed(1)} MB ORDERS file is uploaded and ingested on PostgreSQL (${uploadLag.seconds.toFixed(1)} s, ${uploadLag.status}): ` +
        `p50 ${ms(during.p50)}, p99 ${ms(during.p99)}, max ${ms(during.max)} over ${during.calls} calls; idle p50 ${ms(idle.p50)}, p99 ${ms(idle.p99)}`,
    );
  }
  if (!throughput.some((f) => f.engine === 'PostgreSQL')) console.log('ERP ingestion on PostgreSQL: skipped (set BENCH_DATABASE_URL or DATABASE_URL)');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printIngestionFigures(await ingestionBench());
}
