/**
 * #22: a change to one line of a count reads and writes what that line needs, whatever the size
 * of the count. Device database v5: the sheet's page holds no list of ids; a line's slot says
 * which slice holds it, and an edit reads that slot and that slice.
 */
import 'fake-indexeddb/auto';
import type { DBCore, DBCoreTable } from 'dexie';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StockCountRow } from '../../../contract/stock';
import { CHUNK_SIZE, offlineDb } from '../../../offline/db';
import { addLine, readCountSheet, removeLine, setQuantity, sheetKey, writeCountSheet, type CountSheet } from './count-sheet';
import './register';
import { TEST_COUNT_ID, testLine } from './test-rows';

const USER = 'mechanic@example.com';
const key = sheetKey(USER, TEST_COUNT_ID);
const sheetOf = (size: number): CountSheet => ({
  stock_count: { id: TEST_COUNT_ID, status: 'in_progress' } as StockCountRow,
  material_counts: Array.from({ length: size }, (_, i) => testLine(i + 1)),
});

/** Every record the device database hands back, per table, while `counting` is on. */
let counting = false;
const read: Record<string, number> = {};
const tally = (table: string, records: number) => {
  if (counting) read[table] = (read[table] ?? 0) + records;
};
const countingTable = (table: DBCoreTable): DBCoreTable => ({
  ...table,
  // Dexie's own promises (.then), not async functions: a native promise between a request and the
  // next would let the transaction commit while an edit still has requests to make.
  get: (request) =>
    table.get(request).then((value) => {
      tally(table.name, value === undefined ? 0 : 1);
      return value;
    }),
  getMany: (request) =>
    table.getMany(request).then((values) => {
      tally(table.name, values.filter((value) => value !== undefined).length);
      return values;
    }),
  query: (request) =>
    table.query(request).then((result) => {
      tally(table.name, request.values ? result.result.length : 0);
      return result;
    }),
  openCursor: (request) => table.openCursor(request).then((cursor) => {
    if (!cursor || !request.values) return cursor;
    // Each record a cursor that reads values steps onto is one record handed back.
    return new Proxy(cursor, {
      get(target, prop) {
        if (prop === 'start') return (onNext: () => void) => target.start(() => (tally(table.name, 1), onNext()));
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }),
});

beforeAll(async () => {
  offlineDb.close();
  offlineDb.use({ stack: 'dbcore', name: 'count-reads', create: (down: DBCore): DBCore => ({ ...down, table: (name) => countingTable(down.table(name)) }) });
  await offlineDb.open();
});
afterAll(() => {
  offlineDb.close();
  offlineDb.unuse({ stack: 'dbcore', name: 'count-reads' });
});

beforeEach(async () => {
  await Promise.all([offlineDb.pages.clear(), offlineDb.chunks.clear(), offlineDb.outbox.clear(), offlineDb.marks.clear()]);
});

async function readsOfOneEdit(size: number) {
  await offlineDb.outbox.clear();
  await writeCountSheet(USER, sheetOf(size));
  for (const table of Object.keys(read)) delete read[table];
  counting = true;
  try {
    await setQuantity(USER, testLine(size - 3), 9);
  } finally {
    counting = false;
  }
  const page = await offlineDb.pages.get(key);
  return { reads: { ...read }, pageBytes: JSON.stringify(page).length };
}

describe('a change on a big count', () => {
  it('reads the same records on a count of 100 lines as on one of 10,000, and one slice of lines', async () => {
    const small = await readsOfOneEdit(100);
    const big = await readsOfOneEdit(10_000);
    expect(big.reads).toEqual(small.reads);
    expect(big.reads.chunks).toBe(1);
    // The page holds the count, not its list: no bigger for 10,000 lines than for 100.
    expect(big.pageBytes).toBe(small.pageBytes);
    expect((await readCountSheet(key))!.material_counts.find((line) => line.id === 9_997)!.quantity).toBe(9);
  });

  it('keeps every line’s slot right through adds, removals and a refresh', async () => {
    await writeCountSheet(USER, sheetOf(CHUNK_SIZE * 2));
    await addLine(USER, TEST_COUNT_ID, { material_code: 'NEW-1', material_description_english: 'New', unit: 'PC' });
    await removeLine(USER, testLine(3));
    const sheet = (await readCountSheet(key))!;
    const added = sheet.material_counts.find((line) => line.material_code === 'NEW-1')!;
    expect(sheet.material_counts).toHaveLength(CHUNK_SIZE * 2);
    expect(sheet.material_counts.at(-1)).toEqual(added);
    expect(sheet.material_counts.some((line) => line.id === 3)).toBe(false);
    // A full last slice: the added line opened a third one.
    const slices = await offlineDb.chunks.where('page').equals(key).sortBy('chunk');
    expect(slices.map((slice) => slice.rows.length)).toEqual([CHUNK_SIZE - 1, CHUNK_SIZE, 1]);
    const slots = async () => new Map((await offlineDb.slots.where('page').equals(key).toArray()).map((slot) => [slot.id, slot.chunk]));
    const expected = () => new Map(slices.flatMap((slice) => slice.rows.map((row) => [(row as { id: number }).id, slice.chunk] as const)));
    expect(await slots()).toEqual(expected());
    // An edit of the added line finds it (by its provisional id) in the new slice.
    await setQuantity(USER, added, 4);
    expect((await readCountSheet(key))!.material_counts.at(-1)!.quantity).toBe(4);
    // A read of the server that drops a line and moves the others: the slots follow.
    await writeCountSheet(USER, { ...sheetOf(0), material_counts: sheetOf(CHUNK_SIZE * 2).material_counts.filter((line) => line.id !== 1 && line.id !== 3) });
    const after = await offlineDb.chunks.where('page').equals(key).sortBy('chunk');
    const placed = new Map(after.flatMap((slice) => slice.rows.map((row) => [(row as { id: number }).id, slice.chunk] as const)));
    expect(await slots()).toEqual(placed);
    expect(placed.has(1)).toBe(false);
  });
});
