/**
 * Runs inside headless Chromium (tests/bench/offline.ts drives it): the real offline modules on
 * the browser's real IndexedDB, against the real local server on the same origin.
 */
import type { CountSheet } from '../../../src/features/stock-count/offline/count-sheet';
import type { MaterialCountRow, StockCountRow } from '../../../src/contract/stock';
import { offlineDb } from '../../../src/offline/db';
import { mirrorKey, readMirror, writeMirror } from '../../../src/offline/mirror';
import { fetchCountSheet, readCountSheet, setQuantity, sheetKey, writeCountSheet } from '../../../src/features/stock-count/offline/count-sheet';
import '../../../src/features/stock-count/offline/register';
import { runRound } from '../../../src/offline/sync';
import { setSession } from '../../../src/lib/auth/session';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function syntheticSheet(lines: number): CountSheet {
  const row = (i: number): MaterialCountRow => ({
    id: 1_000_000 + i,
    stock_count_id: 999_999,
    material_code: `KM${String(i).padStart(6, '0')}`,
    material_description_english: `Synthetic spare part number ${i}, door operator`,
    quantity: i % 3 === 0 ? null : i % 17,
    unit: 'PC',
    book_quantity: i % 11,
    book_quantity_at: '2026-11-20T09:00:00.000Z',
    book_quantity_now: i % 11,
    version: 0,
    updated_by: null,
    updated_at: '2026-11-20T09:00:00.000Z',
  });
  return { stock_count: { id: 999_999, status: 'in_progress' } as StockCountRow, material_counts: Array.from({ length: lines }, (_, i) => row(i)) };
}

/** Every sheet, slice, line slot (v6: an edited line rides on its slot) and queued change gone. */
async function clearSheets() {
  await Promise.all([offlineDb.pages.clear(), offlineDb.chunks.clear(), offlineDb.slots.clear(), offlineDb.outbox.clear()]);
}

async function mirrorFigures() {
  await clearSheets();
  const sheet = syntheticSheet(10_000);
  const key = sheetKey('bench@example.com', 999_999);
  const writes: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const t0 = performance.now();
    await writeCountSheet('bench@example.com', sheet);
    writes.push(performance.now() - t0);
  }
  // A list page of 20 rows, as tracking and stock pages are mirrored.
  const pageKey = mirrorKey('bench@example.com', ['stock-page', 1]);
  await writeMirror({ key: pageKey, scope: 'stock' }, sheet.material_counts.slice(0, 20));
  const pageReads: number[] = [];
  const sheetReads: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    let t0 = performance.now();
    await readMirror(pageKey);
    pageReads.push(performance.now() - t0);
    t0 = performance.now();
    await readCountSheet(key);
    sheetReads.push(performance.now() - t0);
  }
  const enqueues: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const line = sheet.material_counts[i * 7]!;
    const t0 = performance.now();
    await setQuantity('bench@example.com', line, i + 1);
    enqueues.push(performance.now() - t0);
  }
  await offlineDb.outbox.clear();
  return {
    mirrorWrite10k: median(writes),
    pageRead20: median(pageReads),
    sheetRead10k: median(sheetReads),
    enqueueOn10kSheet: median(enqueues),
  };
}

/**
 * #22: one enqueue (quantity edit through the outbox) must not grow with the size of the count.
 * The same 20 edits on counts of each size; tests/bench/offline.ts runs this at 4× CPU slowdown.
 */
async function enqueueScaling(sizes: number[]) {
  const figures: Record<string, number> = {};
  for (const size of sizes) {
    await clearSheets();
    const sheet = syntheticSheet(size);
    await writeCountSheet('bench@example.com', sheet);
    const times: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const line = sheet.material_counts[(i * 37) % size]!;
      const t0 = performance.now();
      await setQuantity('bench@example.com', line, i + 1);
      times.push(performance.now() - t0);
    }
    figures[`enqueue4xOn${size}`] = median(times);
  }
  await offlineDb.outbox.clear();
  figures.strictPut4x = await strictPutFloor();
  return figures;
}

/**
 * The platform's floor under one enqueue: a bare IndexedDB transaction putting one small record
 * with strict durability (what every change's transaction is, src/offline/db.ts), no Dexie, in a
 * database of its own. The median of 20; measured in the same 4× window as the enqueues.
 */
async function strictPutFloor(): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('bench-floor', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('records');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const times: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('records', 'readwrite', { durability: 'strict' });
      tx.objectStore('records').put({ id: i, quantity: i, note: 'one counted line' }, i);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('the floor transaction was aborted'));
    });
    times.push(performance.now() - t0);
  }
  db.close();
  indexedDB.deleteDatabase('bench-floor');
  return median(times);
}

async function drainFigures(email: string, stockCountId: number) {
  const { idToken, expiresIn } = await (
    await fetch('/auth/local/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
  ).json();
  setSession({ provider: 'local', email, idToken, expiresAt: Date.now() + expiresIn * 1000 });
  const sheet = await fetchCountSheet(stockCountId);
  await writeCountSheet(email, sheet);
  const lines = sheet.material_counts.slice(0, 1000);
  for (const [i, line] of lines.entries()) await setQuantity(email, line, (i % 50) + 1);
  const queued = await offlineDb.outbox.count();
  const t0 = performance.now();
  const round = await runRound(email);
  return { queued, sent: round.sent, drainMs: performance.now() - t0, left: await offlineDb.outbox.count() };
}

Object.assign(window, { bench: { mirrorFigures, enqueueScaling, drainFigures } });
document.getElementById('state')!.textContent = 'ready';
