/** Undo of a counted scan, on fake-indexeddb (no browser): it never overwrites a total typed after the scan. */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StockCountRow } from '../../../contract/stock';
import { offlineDb } from '../../../offline/db';
import { readCountSheet, setQuantity, sheetKey, writeCountSheet } from '../offline/count-sheet';
import '../offline/register';
import { testLine as row, TEST_COUNT_ID } from '../offline/test-rows';
import { undoScan, type ScanOutcome } from './use-scan-to-count';

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
