/** Writing the built rows: JSON batches, or COPY for large tables on PostgreSQL. */
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { copyLines, isPostgresTx } from '../../ingestion/staging';
import type { Tx } from '../client';
import type { Insert } from './model';

/**
 * Rows go in as ONE JSON text parameter per batch, unpacked by json_populate_recordset: PGlite
 * spends most of its time binding parameters, and an insert of 1,000 order items would otherwise
 * bind 42,000 of them. This is ~3× faster on PGlite and works the same on PostgreSQL.
 */
const ROWS_PER_INSERT = 500;

/** One row as JSON keyed by SQL column name; Dates as ISO text, which Postgres parses back. */
function toJsonRow(row: Record<string, unknown>, columns: ReadonlyArray<readonly [string, PgColumn]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = row[key];
    if (value === undefined && column.notNull && column.hasDefault) {
      // json_populate_recordset would write NULL, not the default: the builder must set it.
      throw new Error(`seed: ${key} of a ${column.name} row must be set explicitly`);
    }
    out[column.name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return out;
}

/** A value in COPY's text format (null → \N; arrays as text[] literals; JSON as text; dates as ISO). */
function copyValue(value: unknown, column: PgColumn): string {
  if (value === null || value === undefined) return '\\N';
  let text: string;
  if (value instanceof Date) text = value.toISOString();
  else if (column.columnType === 'PgArray' && Array.isArray(value)) text = `{${value.map((v) => `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  else if (typeof value === 'object' || column.columnType === 'PgJsonb' || column.columnType === 'PgJson') text = JSON.stringify(value);
  else if (typeof value === 'boolean') text = value ? 't' : 'f';
  else text = String(value as string | number);
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : text;
}

/** Tables this large go in by COPY on PostgreSQL (#16: the scale-500 seed in minutes). */
const COPY_FROM_ROWS = 5000;

type Columns = ReadonlyArray<readonly [string, PgColumn]>;

function tally(counts: Record<string, number>, table: PgTable, rows: number): void {
  const name = getTableName(table);
  counts[name] = (counts[name] ?? 0) + rows;
}

/** ONE COPY of `rows` (drawn as they are written, in 256 KB pieces); answers how many went in. */
async function copyRows(tx: Tx, table: PgTable, columns: Columns, rows: Iterable<Record<string, unknown>>): Promise<number> {
  let written = 0;
  const lines = function* () {
    for (const row of rows) {
      // The builders' rows share one shape: the first one's check stands for all.
      if (written === 0) toJsonRow(row, columns);
      written += 1;
      yield `${columns.map(([key, column]) => copyValue(row[key], column)).join('\t')}\n`;
    }
  };
  await copyLines(tx, getTableName(table), columns.map(([, column]) => column.name), lines());
  return written;
}

export async function insertAll<T extends PgTable>(tx: Tx, table: T, rows: readonly Insert<T>[], counts: Record<string, number>): Promise<void> {
  const records = rows as readonly Record<string, unknown>[];
  // Only columns some row sets; the others (serial ids) keep their database defaults.
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(([key]) => records.some((r) => r[key] !== undefined));
  if (records.length >= COPY_FROM_ROWS && isPostgresTx(tx)) {
    tally(counts, table, await copyRows(tx, table, columns, records));
    return;
  }
  const names = sql.join(columns.map(([, column]) => sql.identifier(column.name)), sql`, `);
  for (let i = 0; i < records.length; i += ROWS_PER_INSERT) {
    const json = JSON.stringify(records.slice(i, i + ROWS_PER_INSERT).map((row) => toJsonRow(row, columns)));
    await tx.execute(sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${json}::json)`);
  }
  tally(counts, table, rows.length);
}

/** Explicit ids were written; move the sequence past them so the app's next insert does not collide. */
export async function syncSequence(tx: Tx, table: string, maxId: number): Promise<void> {
  if (maxId < 1) return;
  await tx.execute(sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${maxId})`);
}

/**
 * A table too large to hold (the scaled stock): `rows` are drawn as they are written. On
 * PostgreSQL, from COPY_FROM_ROWS rows on, ONE COPY takes them in 256 KB pieces, so memory holds a
 * piece, not the table; otherwise (PGlite, the demo's sizes) they are collected and written by
 * insertAll as before. Every row must set the same columns (the first row's stand for all).
 */
export async function insertStream<T extends PgTable>(tx: Tx, table: T, rowCount: number, rows: () => Iterable<Insert<T>>, counts: Record<string, number>): Promise<void> {
  if (rowCount < COPY_FROM_ROWS || !isPostgresTx(tx)) {
    await insertAll(tx, table, [...rows()], counts);
    return;
  }
  // The columns are those the first row sets: peek at it, then draw the rows again from the start.
  const first = rows()[Symbol.iterator]().next();
  if (first.done) return;
  const firstRow = first.value as Record<string, unknown>;
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(([key]) => firstRow[key] !== undefined);
  const written = await copyRows(tx, table, columns, rows() as Iterable<Record<string, unknown>>);
  if (written !== rowCount) throw new Error(`seed: ${getTableName(table)} drew ${written} rows, expected ${rowCount}`);
  tally(counts, table, written);
}
