/**
 * `npm run seed -- [--scale N] [--reset] [--now ISO-DATE]`
 *
 * Opens the database exactly like the server (DATABASE_URL → PostgreSQL, else PGlite in DATA_DIR),
 * applies the migrations and fills it with the deterministic demo seed. A non-empty database is
 * left alone (exit code 1) unless --reset truncates every table of the schema first.
 */
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { parseArgs } from 'node:util';
import { openDatabase, type Db } from './client';
import * as schema from './schema';
import { seedDatabase } from './seed';

const USAGE = 'Usage: npm run seed -- [--scale N] [--reset] [--now 2025-01-31T08:00:00Z]';

interface CliOptions {
  scale: number;
  reset: boolean;
  now: Date;
}

function parseOptions(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string', default: '1' },
      reset: { type: 'boolean', default: false },
      now: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const scale = Number(values.scale);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`--scale must be a positive number, got "${values.scale}". ${USAGE}`);
  const now = values.now ? new Date(values.now) : new Date();
  if (Number.isNaN(now.getTime())) throw new Error(`--now must be an ISO date, got "${values.now}". ${USAGE}`);
  return { scale, reset: values.reset, now };
}

/** Every table of the schema, so --reset stays right when tables are added. */
function schemaTableNames(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableName(table));
}

async function truncateAll(db: Db): Promise<void> {
  const tables = schemaTableNames().map((name) => sql.identifier(name));
  await db.execute(sql`truncate table ${sql.join(tables, sql`, `)} restart identity cascade`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL;
  const database = databaseUrl
    ? await openDatabase({ databaseUrl })
    : await openDatabase({ dataDir: process.env.DATA_DIR ?? './data' });
  try {
    await database.migrate();
    if (options.reset) {
      await truncateAll(database.db);
      console.log('Truncated every table of the schema (--reset).');
    }
    const started = performance.now();
    const counts = await seedDatabase(database.db, { scale: options.scale, now: options.now });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (counts === null) {
      console.error('The database already has users, so the seed did nothing. Run with --reset to empty it first (this deletes ALL data).');
      process.exitCode = 1;
      return;
    }
    const width = Math.max(...Object.keys(counts).map((name) => name.length));
    for (const [table, rows] of Object.entries(counts)) console.log(`${table.padEnd(width)}  ${rows.toLocaleString('en-US').padStart(9)}`);
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    console.log(`Seeded ${total.toLocaleString('en-US')} rows at scale ${options.scale} into ${database.engine} in ${seconds} s.`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
