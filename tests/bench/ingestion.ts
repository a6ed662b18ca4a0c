/**
 * ERP ingestion throughput (#9): lines per second for a 100,000-line ORDERS file (25,000 new
 * service orders × 4 items, every document column filled), from registerFile to the committed
 * file_processing row, on PGlite (in memory) and on PostgreSQL when BENCH_DATABASE_URL or
 * DATABASE_URL names a server (a scratch database is created and dropped). Also the same file's
 * state re-sent under another name (every line compared, nothing changed).
 * Run alone with `npx tsx tests/bench/ingestion.ts`, or as part of `npm run bench`.
 */
import { pathToFileURL } from 'node:url';
import { openDatabase, type Database } from '../../server/db/client';
import { seedDatabase } from '../../server/db/seed';
import { processPending, registerFile } from '../../server/ingestion/queue';
import { readErpCsv } from '../../server/ingestion/csv';
import { createScratchDatabase } from '../server/harness';

export const BENCH_LINES = 100_000;

const FIELDS = [
  'service_order', 'line_number', 'plant', 'material_code', 'material_description', 'unit', 'equipment_code', 'equipment_description',
  'destination', 'work_center', 'planner_group', 'ship_to_party', 'user_email', 'delivery_date', 'eta', 'delivery_type', 'delivery_address',
  'storage_location', 'address_code', 'reservation_doc_number', 'reservation_quantity', 'pending', 'purchase_order_doc_number', 'purchase_order',
  'purchase_order_quantity', 'purchase_order_confirmation_category', 'purchase_order_confirmation_quantity', 'sales_order_doc_number',
  'sales_order_quantity', 'sales_order_schedule_line_quantity', 'delivery_order_doc_number', 'delivery_quantity',
];

export function orderFile(lines: number, variant = ''): string {
  const out = [FIELDS.join(';')];
  for (let i = 0; i < lines; i += 1) {
    const order = 7_000_000_000 + Math.floor(i / 4);
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
  return { seconds: (performance.now() - started) / 1000, status: done?.status ?? 'none' };
}

export interface IngestionFigures {
  engine: string;
  newLinesPerSecond: number;
  unchangedLinesPerSecond: number;
  parseLinesPerSecond: number;
}

async function benchOn(database: Database, engine: string): Promise<IngestionFigures> {
  await database.migrate();
  await seedDatabase(database.db, { now: new Date() });
  const content = orderFile(BENCH_LINES);
  const parseStart = performance.now();
  readErpCsv(content, 'ORDERS');
  const parseSeconds = (performance.now() - parseStart) / 1000;
  const fresh = await measure(database, content, 'ERP_ORDERS_20300101_MORNING.csv');
  if (fresh.status !== 'processed') throw new Error(`bench file was ${fresh.status}`);
  const same = await measure(database, `${content}\n`, 'ERP_ORDERS_20300101_MIDDAY.csv');
  return {
    engine,
    newLinesPerSecond: BENCH_LINES / fresh.seconds,
    unchangedLinesPerSecond: BENCH_LINES / same.seconds,
    parseLinesPerSecond: BENCH_LINES / parseSeconds,
  };
}

export async function ingestionBench(): Promise<IngestionFigures[]> {
  const figures: IngestionFigures[] = [];
  const pglite = await openDatabase({ memory: true });
  try {
    figures.push(await benchOn(pglite, 'PGlite'));
  } finally {
    await pglite.close();
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'pt_bench_ingest');
    const postgres = await openDatabase({ databaseUrl: scratch.url });
    try {
      figures.push(await benchOn(postgres, 'PostgreSQL'));
    } finally {
      await postgres.close();
      await scratch.drop();
    }
  }
  return figures;
}

export function printIngestionFigures(figures: readonly IngestionFigures[]): void {
  const rate = (value: number) => `${Math.round(value).toLocaleString('en-US')} lines/s`;
  for (const f of figures) {
    console.log(
      `ERP ingestion of a ${BENCH_LINES.toLocaleString('en-US')}-line ORDERS file on ${f.engine}: ${rate(f.newLinesPerSecond)} (new orders and items); ` +
        `${rate(f.unchangedLinesPerSecond)} (same state re-sent); parsing and checking alone ${rate(f.parseLinesPerSecond)}`,
    );
  }
  if (!figures.some((f) => f.engine === 'PostgreSQL')) console.log('ERP ingestion on PostgreSQL: skipped (set BENCH_DATABASE_URL or DATABASE_URL)');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printIngestionFigures(await ingestionBench());
}
