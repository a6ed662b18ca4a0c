/**
 * Counting by scanning and its undo, on fake-indexeddb (no browser): the undo never overwrites a
 * total typed after the scan, nor leaves an uncounted line counted 0; a scan never silently
 * overwrites another counter's value.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StockCountRow } from '../../../contract/stock';
import { offlineDb } from '../../../offline/db';
import { editOf, readCountSheet, setQuantity, sheetKey, writeCountSheet } from '../offline/count-sheet';
import '../offline/register';
import { testLine as row, TEST_COUNT_ID } from '../offline/test-rows';
import { countScan, undoScan, type ScanOutcome } from './use-scan-to-count';

const USER = 'mechanic@example.com';

const onDevice = async (id: number) => (await readCountSheet(sheetKey(USER, TEST_COUNT_ID)))!.material_counts.find((line) => line.id === id);

/** A scan counted on line 1 (4 → 5), as `useScanToCount` does it. */
async function scanOnce(): Promise<Extract<ScanOutcome, { kind: 'counted' }>> {
  await setQuantity(USER, row(1, 4), 5);
  const line = row(1);
  return { kind: 'counted', code: line.material_code, unit: line.unit, quantity: 5, before: 4, lineId: line.id };
}

beforeEach(async () => {
  await Promise.all([offlineDb.pages.clear(), offlineDb.chunks.clear(), offlineDb.slots.clear(), offlineDb.outbox.clear(), offlineDb.marks.clear()]);
  await writeCountSheet(USER, { stock_count: { id: TEST_COUNT_ID, status: 'in_progress' } as StockCountRow, material_counts: [row(1, 4), row(2)] });
});

describe('undo of a counted scan', () => {
  it('puts the line back to what it held before the scan', async () => {
    const counted = await scanOnce();
    expect(await undoScan(USER, TEST_COUNT_ID, counted)).toMatchObject({ kind: 'undone', quantity: 4 });
    expect((await onDevice(1))!.quantity).toBe(4);
  });

  it('does nothing when a total was typed after the scan (the Undo still showing)', async () => {
    const counted = await scanOnce();
    await setQuantity(USER, row(1, 5), 12);
    const queued = await offlineDb.outbox.toArray();
    expect(await undoScan(USER, TEST_COUNT_ID, counted)).toBeNull();
    expect((await onDevice(1))!.quantity).toBe(12);
    // Nothing written: the outbox is as the typed total left it.
    expect(await offlineDb.outbox.toArray()).toEqual(queued);
  });
});

describe('undo of the scan of an uncounted line', () => {
  it('withdraws the waiting change: the line is back to not counted, not counted 0', async () => {
    const counted = await countScan(USER, (await onDevice(2))!);
    expect(counted).toMatchObject({ quantity: 1, before: null });
    expect(await undoScan(USER, TEST_COUNT_ID, counted)).toMatchObject({ kind: 'undone', quantity: null });
    expect((await onDevice(2))!.quantity).toBeNull();
    // Nothing goes to the server: no quantity, not even 0.
    expect(await offlineDb.outbox.toArray()).toEqual([]);
  });

  it('does nothing once the change has been taken to be sent (the server may hold it)', async () => {
    const counted = await countScan(USER, (await onDevice(2))!);
    await offlineDb.outbox.toCollection().modify({ status: 'sending' });
    expect(await undoScan(USER, TEST_COUNT_ID, counted)).toBeNull();
    expect((await onDevice(2))!.quantity).toBe(1);
    expect(await offlineDb.outbox.count()).toBe(1);
  });
});

describe('a scan of a line in conflict', () => {
  it('is based on the version the device holds: the server raises the conflict again, the other count is not overwritten', async () => {
    await setQuantity(USER, row(1, 4), 5);
    // Another counter saved 7 meanwhile (version 1): my 5 came back in conflict.
    await offlineDb.outbox.toCollection().modify({ status: 'conflict', theirs: row(1, 7, 1) });
    await countScan(USER, (await onDevice(1))!);
    const [entry] = await offlineDb.outbox.toArray();
    expect(editOf(entry!)).toMatchObject({ quantity: 6, version: 0 });
  });
});
