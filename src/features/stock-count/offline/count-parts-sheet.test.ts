/** #18: a counter's sheet of a split count on a real IndexedDB implementation (fake-indexeddb). */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StockCountRow } from '../../../contract/stock';
import type { StockCountPartRow } from '../../../contract/stock-count-parts';
import { offlineDb, type OutboxEntry } from '../../../offline/db';
import { runRound, type Answer, type SyncDeps } from '../../../offline/sync';
import { discardEntry, editOf, KIND, keepMine, partLineAsRow, readCountSheet, setPartStatus, setQuantity, sheetKey, writeCountSheet } from './count-sheet';
import './register';
import { readScan, type ScanReading } from '../../../domain/scan-codes';
import { elsewhereOf } from '../hooks/use-scan-to-count';
import { testLine as line, TEST_COUNT_ID } from './test-rows';

const USER = 'mechanic@example.com';
const key = sheetKey(USER, TEST_COUNT_ID);
const part: StockCountPartRow = {
  id: 7,
  stock_count_id: TEST_COUNT_ID,
  counter: USER,
  counter_name: 'Matti Laine',
  label: 'Shelf A',
  status: 'open',
  done_at: null,
  total_lines: 2,
  counted_lines: 0,
  control_lines: 0,
  is_mine: true,
};
const other: StockCountPartRow = { ...part, id: 8, counter: 'mikko.virtanen@lift.example', counter_name: 'Mikko Virtanen', label: null, is_mine: false };
const entries = () => offlineDb.outbox.orderBy('seq').toArray();
const mirrored = async () => (await readCountSheet(key))!;

function server(answers: Array<(entry: OutboxEntry) => Answer>) {
  const sent: OutboxEntry[] = [];
  const deps: SyncDeps = {
    async send(entry) {
      sent.push(structuredClone(entry));
      const next = answers.shift();
      if (!next) throw new TypeError('Failed to fetch');
      return next(entry);
    },
    sleep: async () => undefined,
  };
  return { deps, sent };
}

beforeEach(async () => {
  await Promise.all([offlineDb.pages.clear(), offlineDb.chunks.clear(), offlineDb.slots.clear(), offlineDb.outbox.clear(), offlineDb.marks.clear()]);
  await writeCountSheet(USER, {
    stock_count: { id: TEST_COUNT_ID, status: 'initiated', part_count: 2 } as StockCountRow,
    material_counts: [line(1), line(2)],
    part,
    parts: [part, other],
  });
});

describe("a counter's part on the device", () => {
  it('keeps the part and every part’s progress with the lines', async () => {
    const sheet = await mirrored();
    expect(sheet.part).toEqual(part);
    expect(sheet.parts?.map((row) => row.counter_name)).toEqual(['Matti Laine', 'Mikko Virtanen']);
  });

  it('knows whose part holds a scanned code of the count that is not in this part, and offers no add for it', async () => {
    const elsewhere = [
      { material_code: 'KM000003', part_id: other.id },
      { material_code: 'KM000004', part_id: null },
    ];
    await writeCountSheet(USER, { stock_count: { id: TEST_COUNT_ID, status: 'initiated', part_count: 2 } as StockCountRow, material_counts: [line(1), line(2)], part, parts: [part, other], elsewhere });
    const sheet = await mirrored();
    expect(sheet.elsewhere).toEqual(elsewhere);
    const scanned = (raw: string) => elsewhereOf(readScan(raw) as Extract<ScanReading, { kind: 'material' }>, sheet);
    expect(scanned('KM000003')).toEqual({ kind: 'elsewhere', code: 'KM000003', counter: 'Mikko Virtanen' });
    // As the scanner reads it: lower case, with the scanner's suffix.
    expect(scanned('km000003 ')).toEqual({ kind: 'elsewhere', code: 'KM000003', counter: 'Mikko Virtanen' });
    expect(scanned('KM000004')).toEqual({ kind: 'elsewhere', code: 'KM000004', counter: null });
    // Not on the count at all: the scan may offer to add it.
    expect(scanned('KM000009')).toBeNull();
  });

  it('queues edits to the part, batched in its shape, and takes the part’s answer back as rows', async () => {
    await setQuantity(USER, line(1), 4);
    await setQuantity(USER, line(2), 6);
    const queued = await entries();
    expect(queued[0]!.request).toMatchObject({ method: 'PUT', path: 'my_stock_count/part/quantities', json: { stockCountId: TEST_COUNT_ID, quantities: [{ materialCountId: 1, quantity: 4, version: 0 }] } });
    expect(editOf(queued[1]!)).toEqual({ id: 2, quantity: 6, version: 0 });
    const wire = server([
      (entry) => {
        const quantities = (entry.request.json as { quantities: Array<{ materialCountId: number; quantity: number }> }).quantities;
        return {
          status: 200,
          message: '',
          body: {
            part: { ...part, counted_lines: 2 },
            lines: quantities.map((q) => ({ material_count_id: q.materialCountId, material_code: `KM00000${q.materialCountId}`, material_description_english: 'x', unit: 'PC', bin: 'A-01', quantity: q.quantity, counted_by: USER, counted_at: '2026-11-25T01:00:00.000Z', version: 1, book_quantity: null, book_quantity_at: null, book_quantity_now: null, is_control: false })),
            stock_count: { id: TEST_COUNT_ID, status: 'in_progress' },
          },
        };
      },
    ]);
    expect(await runRound(USER, wire.deps)).toEqual({ sent: 2, stoppedBy: 'empty' });
    expect(wire.sent).toHaveLength(1);
    expect((wire.sent[0]!.request.json as { quantities: unknown[] }).quantities).toEqual([
      { materialCountId: 1, quantity: 4, version: 0 },
      { materialCountId: 2, quantity: 6, version: 0 },
    ]);
    const sheet = await mirrored();
    expect(sheet.material_counts.map((row) => [row.quantity, row.version, row.bin])).toEqual([
      [4, 1, 'A-01'],
      [6, 1, 'A-01'],
    ]);
    expect(sheet.part?.counted_lines).toBe(2);
    expect(sheet.stock_count.status).toBe('in_progress');
  });

  it('a correction after "my part is done" shows the part open again, as the server reopened it; a "done" still waiting stays shown', async () => {
    const answer = (status: StockCountPartRow['status']) => (entry: OutboxEntry): Answer => {
      const [q] = (entry.request.json as { quantities: Array<{ materialCountId: number; quantity: number }> }).quantities;
      return {
        status: 200,
        message: '',
        body: {
          part: { ...part, status, done_at: status === 'done' ? '2026-11-25T01:00:00.000Z' : null },
          lines: [{ material_count_id: q!.materialCountId, material_code: 'KM000001', material_description_english: 'x', unit: 'PC', bin: null, quantity: q!.quantity, counted_by: USER, counted_at: null, version: 2, book_quantity: null, book_quantity_at: null, book_quantity_now: null, is_control: false }],
          stock_count: { id: TEST_COUNT_ID, status: 'in_progress' },
        },
      };
    };
    await writeCountSheet(USER, { stock_count: { id: TEST_COUNT_ID, status: 'initiated', part_count: 2 } as StockCountRow, material_counts: [line(1, 4), line(2, 6)], part: { ...part, status: 'done' }, parts: [part, other] });
    await setQuantity(USER, line(1, 4), 5);
    await runRound(USER, server([answer('open')]).deps);
    expect((await mirrored()).part?.status).toBe('open');

    // "Done" again, queued behind a correction: the correction's answer (open) does not undo what the counter set.
    await setQuantity(USER, line(1, 5), 6);
    await setPartStatus(USER, TEST_COUNT_ID, 'done');
    await runRound(USER, server([answer('open')]).deps);
    expect((await mirrored()).part?.status).toBe('done');
  });

  it('a conflict on the part is the counter’s own line; keep mine goes to the part again on its version', async () => {
    await setQuantity(USER, line(1), 4);
    const theirs = { material_count_id: 1, material_code: 'KM000001', material_description_english: 'x', unit: 'PC', bin: null, quantity: 9, counted_by: USER, counted_at: null, version: 3, book_quantity: 5, book_quantity_at: null, book_quantity_now: 5, is_control: false };
    const wire = server([() => ({ status: 409, message: 'Changed since you edited it', body: { message: 'Changed', conflicts: [theirs] } })]);
    await runRound(USER, wire.deps);
    const [conflict] = await entries();
    expect(conflict).toMatchObject({ status: 'conflict', theirs: partLineAsRow(TEST_COUNT_ID, theirs) });
    await keepMine(conflict!);
    expect((await entries())[0]!.request.json).toEqual({ stockCountId: TEST_COUNT_ID, quantities: [{ materialCountId: 1, quantity: 4, version: 3 }] });
  });

  it('"my part is done" shows at once, goes behind the counts, and a refused one is undone by Discard', async () => {
    await setQuantity(USER, line(1), 4);
    await setPartStatus(USER, TEST_COUNT_ID, 'done');
    expect((await mirrored()).part?.status).toBe('done');
    expect((await entries()).map((entry) => entry.kind)).toEqual([KIND.quantity, KIND.partStatus]);
    // A read of the server meanwhile keeps the counter's "done" while it travels.
    await writeCountSheet(USER, { stock_count: { id: TEST_COUNT_ID, status: 'initiated', part_count: 2 } as StockCountRow, material_counts: [line(1), line(2)], part, parts: [part, other] });
    expect((await mirrored()).part?.status).toBe('done');
    expect((await mirrored()).parts?.[0]?.status).toBe('done');
    const status = (await entries())[1]!;
    await discardEntry(status);
    expect((await mirrored()).part?.status).toBe('open');
  });
});
