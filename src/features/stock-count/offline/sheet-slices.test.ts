/**
 * #22: a change to one line of a count reads and writes what that line needs, whatever the size
 * of the count. Device database v5: the sheet's page holds no list of ids; a line's slot says
 * which slice holds it, and an edit reads that slot and that slice. v6: the edited line rides on
 * its slot, so an edit writes no slice, and a second edit of the line reads none. An edit asks for
 * the slice this tab last saw the line in together with its slot (one round trip).
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StockCountRow } from '../../../contract/stock';
import { CHUNK_SIZE, offlineDb } from '../../../offline/db';
import { addLine, FOLD_AT, foldChangedLines, readCountSheet, removeLine, setQuantity, sheetKey, writeCountSheet, type CountSheet } from './count-sheet';
import './register';
import { TEST_COUNT_ID, testLine } from './test-rows';
import { setSession } from '../../../lib/auth/session';

const USER = 'mechanic@example.com';
const key = sheetKey(USER, TEST_COUNT_ID);
const sheetOf = (size: number): CountSheet => ({
  stock_count: { id: TEST_COUNT_ID, status: 'in_progress' } as StockCountRow,
  material_counts: Array.from({ length: size }, (_, i) => testLine(i + 1)),
});

/**
 * Every record the device database hands back, and every one it is given to write, per table,
 * while `counting` is on: counted where IndexedDB is asked (its object stores and indexes), so an
 * edit written through Dexie and one written on the database directly (native.ts) count alike.
 */
let counting = false;
const read: Record<string, number> = {};
const written: Record<string, number> = {};
const tally = (table: string, records: number, into = read) => {
  if (counting) into[table] = (into[table] ?? 0) + records;
};
/** The reads in the order they are asked and answered, while `counting` is on. */
const steps: string[] = [];
const step = (what: string) => {
  if (counting) steps.push(what);
};
type Method = (this: IDBObjectStore | IDBIndex, ...args: unknown[]) => IDBRequest;
const originals: Array<() => void> = [];
function countReads(proto: IDBObjectStore | IDBIndex, method: 'get' | 'getAll' | 'openCursor', tableOf: (target: IDBObjectStore | IDBIndex) => string) {
  const original = (proto as unknown as Record<string, Method>)[method]!;
  (proto as unknown as Record<string, Method>)[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
    const request = original.apply(this, args);
    const table = tableOf(this);
    step(`ask ${table}`);
    request.addEventListener('success', () => {
      const result = request.result as unknown;
      // A cursor answers once per record it steps onto, and null at the end.
      if (method !== 'openCursor') step(`got ${table}`);
      tally(table, Array.isArray(result) ? result.length : result == null ? 0 : 1);
    });
    return request;
  };
  originals.push(() => ((proto as unknown as Record<string, Method>)[method] = original));
}
function countWrites(proto: IDBObjectStore, method: 'put' | 'add') {
  const original = (proto as unknown as Record<string, Method>)[method]!;
  (proto as unknown as Record<string, Method>)[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
    tally((this as IDBObjectStore).name, 1, written);
    return original.apply(this, args);
  };
  originals.push(() => ((proto as unknown as Record<string, Method>)[method] = original));
}

beforeAll(() => {
  const stores = IDBObjectStore.prototype;
  const indexes = IDBIndex.prototype;
  for (const method of ['get', 'getAll', 'openCursor'] as const) {
    countReads(stores, method, (target) => (target as IDBObjectStore).name);
    countReads(indexes, method, (target) => (target as IDBIndex).objectStore.name);
  }
  countWrites(stores, 'put');
  countWrites(stores, 'add');
});
afterAll(() => originals.forEach((restore) => restore()));

beforeEach(async () => {
  await Promise.all([offlineDb.pages.clear(), offlineDb.chunks.clear(), offlineDb.slots.clear(), offlineDb.outbox.clear(), offlineDb.marks.clear()]);
});

async function oneEdit(line: number, quantity: number) {
  for (const table of [...Object.keys(read), ...Object.keys(written)]) {
    delete read[table];
    delete written[table];
  }
  steps.length = 0;
  counting = true;
  try {
    await setQuantity(USER, testLine(line), quantity);
  } finally {
    counting = false;
  }
  return { reads: { ...read }, writes: { ...written } };
}

async function readsOfOneEdit(size: number) {
  await offlineDb.outbox.clear();
  await writeCountSheet(USER, sheetOf(size));
  const { reads, writes } = await oneEdit(size - 3, 9);
  const page = await offlineDb.pages.get(key);
  return { reads, writes, pageBytes: JSON.stringify(page).length };
}

describe('a change on a big count', () => {
  it('reads the same records on a count of 100 lines as on one of 10,000, and no slice of lines', async () => {
    const small = await readsOfOneEdit(100);
    const big = await readsOfOneEdit(10_000);
    expect(big.reads).toEqual(small.reads);
    // The sheet's page and the line's slot: the line itself comes from the slices this tab wrote.
    expect(big.reads).toEqual({ pages: 1, slots: 1, outbox: 0 });
    // It writes the line on its slot and the outbox entry: no slice of lines.
    expect(big.writes).toEqual(small.writes);
    expect(big.writes).toEqual({ slots: 1, outbox: 1 });
    // The page holds the count, not its list: no bigger for 10,000 lines than for 100.
    expect(big.pageBytes).toBe(small.pageBytes);
    expect((await readCountSheet(key))!.material_counts.find((line) => line.id === 9_997)!.quantity).toBe(9);
    // The line's next edit reads it from its slot, and merges into the waiting entry.
    const again = await oneEdit(9_997, 10);
    expect(again.reads).toEqual({ pages: 1, slots: 1, outbox: 1 });
    expect(again.writes).toEqual({ slots: 1, outbox: 1 });
    const sheet = (await readCountSheet(key))!;
    expect(sheet.material_counts).toHaveLength(10_000);
    expect(sheet.material_counts.find((line) => line.id === 9_997)!.quantity).toBe(10);
    expect(await offlineDb.outbox.count()).toBe(1);
  });

  it('asks for the line’s slice with its slot when this tab holds no copy of the slices, and finds a line moved since', async () => {
    await offlineDb.outbox.clear();
    await writeCountSheet(USER, sheetOf(CHUNK_SIZE * 3));
    const first = await oneEdit(CHUNK_SIZE + 7, 11);
    expect(first.reads.chunks ?? 0).toBe(0);
    // Another tab moved line 5 from the first slice to the last since this tab saw the sheet (and
    // stamped the page anew, as every write of slices does): this tab's copy is not taken, the
    // slot names the slice, and the edit lands there.
    const [head, , tail] = await offlineDb.chunks.where('page').equals(key).sortBy('chunk');
    const moved = (head!.rows as Array<{ id: number }>).find((row) => row.id === 5)!;
    await offlineDb.chunks.bulkPut([
      { ...head!, rows: head!.rows.filter((row) => row !== moved) },
      { ...tail!, rows: [...tail!.rows, moved] },
    ]);
    await offlineDb.slots.put({ page: key, id: 5, chunk: tail!.chunk });
    await offlineDb.pages.update(key, { slices: 'written by another tab' });
    const second = await oneEdit(5, 12);
    expect(second.reads.chunks).toBe(1);
    const lines = (await readCountSheet(key))!.material_counts;
    expect(lines.find((line) => line.id === 5)!.quantity).toBe(12);
    expect(lines.find((line) => line.id === CHUNK_SIZE + 7)!.quantity).toBe(11);
    expect(lines).toHaveLength(CHUNK_SIZE * 3);
    // A sign-out forgets the sheets this tab saw: the next edit reads its slice, asked for after the slot.
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
    try {
      setSession(null);
    } finally {
      vi.unstubAllGlobals();
    }
    const third = await oneEdit(CHUNK_SIZE * 2 + 3, 13);
    expect(third.reads.chunks).toBe(1);
    expect(steps.indexOf('ask chunks')).toBeGreaterThan(steps.indexOf('got slots'));
    // A sheet saved before its page carried a stamp, read by this tab: no copy to take, so the
    // edit asks for the slice where this tab saw the line, with its slot (one round trip).
    await offlineDb.pages.update(key, { slices: undefined });
    await readCountSheet(key);
    const unstamped = await oneEdit(CHUNK_SIZE * 2 + 5, 15);
    expect(unstamped.reads.chunks).toBe(1);
    expect(steps.indexOf('ask chunks')).toBeGreaterThan(-1);
    expect(steps.indexOf('ask chunks')).toBeLessThan(steps.indexOf('got slots'));
    await writeCountSheet(USER, sheetOf(CHUNK_SIZE * 3));
    // Read again, the sheet's slices are this tab's copy: the next first edit reads none.
    await readCountSheet(key);
    expect((await oneEdit(CHUNK_SIZE * 2 + 4, 14)).reads.chunks ?? 0).toBe(0);
  });

  it('takes a line from its copy of the slices only while no slice was written since, by another tab or a fold', async () => {
    await offlineDb.outbox.clear();
    const sheet = sheetOf(CHUNK_SIZE * 2);
    await writeCountSheet(USER, sheet);
    // Another tab (a module of its own, its own memory) writes a read of the server in which
    // line 8 moved on: version 7, counted 3 elsewhere.
    vi.resetModules();
    const otherTab = await import('./count-sheet');
    const moved = { ...testLine(8), version: 7, quantity: 3 };
    await otherTab.writeCountSheet(USER, { ...sheet, material_counts: sheet.material_counts.map((line) => (line.id === 8 ? moved : line)) });
    // This tab's edit of line 8 builds on the line as the device holds it now.
    await setQuantity(USER, testLine(8), 5);
    const [edit] = await offlineDb.outbox.toArray();
    expect((edit!.request.json as { modifiedMaterials: Array<{ version: number }> }).modifiedMaterials[0]!.version).toBe(7);
    expect((await readCountSheet(key))!.material_counts.find((line) => line.id === 8)).toMatchObject({ version: 7, quantity: 5 });

    // A confirmation of line 9 on its slot (another tab's sync), folded into its slice by this tab
    // (it does not read the slices again): the fold stamps the page, and the copy is not taken.
    await offlineDb.outbox.clear();
    await readCountSheet(key);
    const slot = (await offlineDb.slots.get([key, 9]))!;
    await offlineDb.slots.put({ ...slot, row: { ...testLine(9), version: 4, quantity: 6 }, edited: key });
    await foldChangedLines(key);
    expect((await offlineDb.slots.get([key, 9]))!.row).toBeUndefined();
    await setQuantity(USER, testLine(9), 2);
    const [next] = await offlineDb.outbox.toArray();
    expect((next!.request.json as { modifiedMaterials: Array<{ version: number }> }).modifiedMaterials[0]!.version).toBe(4);
  });

  it('folds the lines changed on their slots into the slices when the sheet is written again', async () => {
    await offlineDb.outbox.clear();
    await writeCountSheet(USER, sheetOf(CHUNK_SIZE + 10));
    await setQuantity(USER, testLine(2), 41);
    await setQuantity(USER, testLine(CHUNK_SIZE + 5), 42);
    expect(await offlineDb.slots.where('edited').equals(key).count()).toBe(2);
    // The slices still hold the lines as written; the sheet read takes the slots' copies over them.
    const slices = await offlineDb.chunks.where('page').equals(key).sortBy('chunk');
    expect((slices[0]!.rows as Array<{ id: number; quantity: number | null }>).find((row) => row.id === 2)!.quantity).toBe(testLine(2).quantity);
    const before = (await readCountSheet(key))!.material_counts;
    expect(before.find((line) => line.id === 2)!.quantity).toBe(41);
    expect(before.find((line) => line.id === CHUNK_SIZE + 5)!.quantity).toBe(42);
    // A read of the server while both edits wait: the sheet is written with them, in its slices.
    await writeCountSheet(USER, sheetOf(CHUNK_SIZE + 10));
    expect(await offlineDb.slots.where('edited').equals(key).count()).toBe(0);
    const after = await offlineDb.chunks.where('page').equals(key).sortBy('chunk');
    const rows = after.flatMap((slice) => slice.rows as Array<{ id: number; quantity: number | null }>);
    expect(rows.find((row) => row.id === 2)!.quantity).toBe(41);
    expect(rows.find((row) => row.id === CHUNK_SIZE + 5)!.quantity).toBe(42);
    expect((await readCountSheet(key))!.material_counts).toEqual(before);
    // A removal of an edited line takes it from its slice and its slot with it.
    await removeLine(USER, { ...testLine(3) });
    await setQuantity(USER, testLine(4), 43);
    await removeLine(USER, testLine(4));
    const left = (await readCountSheet(key))!.material_counts;
    expect(left.some((line) => line.id === 4 || line.id === 3)).toBe(false);
    expect(await offlineDb.slots.get([key, 4])).toBeUndefined();
  });

  it('folds them when a read finds many (a whole count typed in without signal), and reads the same after', async () => {
    await offlineDb.outbox.clear();
    const size = FOLD_AT + 300;
    await writeCountSheet(USER, sheetOf(size));
    await setQuantity(USER, testLine(7), 70);
    // One edit: the sheet is read as before, and a fold writes it into its slice.
    const oneChanged = (await readCountSheet(key))!.material_counts;
    await foldChangedLines(key);
    expect(await offlineDb.slots.where('edited').equals(key).count()).toBe(0);
    expect((await readCountSheet(key))!.material_counts).toEqual(oneChanged);
    // FOLD_AT lines changed on their slots (written as edits leave them): a read folds them soon after.
    const slots = await offlineDb.slots.where('page').equals(key).toArray();
    await offlineDb.slots.bulkPut(slots.slice(0, FOLD_AT).map((slot) => ({ ...slot, row: testLine(slot.id, slot.id % 9), edited: key })));
    const read = (await readCountSheet(key))!.material_counts;
    expect(read.filter((line) => line.quantity !== null)).toHaveLength(FOLD_AT);
    await vi.waitFor(async () => expect(await offlineDb.slots.where('edited').equals(key).count()).toBe(0), { timeout: 15_000 });
    expect((await readCountSheet(key))!.material_counts).toEqual(read);
    const rows = (await offlineDb.chunks.where('page').equals(key).toArray()).flatMap((slice) => slice.rows as Array<{ id: number; quantity: number | null }>);
    expect(rows.filter((row) => row.quantity !== null)).toHaveLength(FOLD_AT);
    expect(await offlineDb.slots.where('page').equals(key).count()).toBe(size);
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
