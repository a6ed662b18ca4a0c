/**
 * One deterministic regression test per loss of issue #15, on fake-indexeddb, against a small
 * in-memory server with the real one's rules (versions, 409 on a stale differing edit, adds,
 * deletes, Idempotency-Key replay). A request can be held in flight to interleave changes with it.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MaterialCountRow, StockCountRow } from '../../../contract/stock';
import { offlineDb, readMark, type OutboxEntry } from '../../../offline/db';
import { retryEntry } from '../../../offline/outbox';
import { POISONED_AFTER, runRound, verifyScopes, type Answer, type SyncDeps } from '../../../offline/sync';
import {
  addLine,
  fetchCountSheet,
  mergeSheet,
  readCountSheet,
  removeLine,
  replayQuantity,
  setQuantity,
  setSheetReader,
  sheetKey,
  submitCount,
  typingFrom,
  keepMine,
  takeTheirs,
  discardEntry,
  sheetScope,
  writeCountSheet,
  type CountSheet,
} from './count-sheet';
import './register';
import { testLine as row } from './test-rows';

const USER = 'mechanic@example.com';
const COUNT_ID = 27;
const key = sheetKey(USER, COUNT_ID);


/** The server's rules in memory; `hold()` keeps the next request in flight until released. */
function fakeServer(initial: MaterialCountRow[]) {
  const lines = new Map(initial.map((line) => [line.id, { ...line }]));
  const replies = new Map<string, Answer>();
  const received: Array<{ key: string; method: string; json: unknown }> = [];
  let nextId = 1000;
  let gate: { entered: () => void; release: Promise<void> } | null = null;
  /** Quantities the server refuses (a 4xx: the change fails and waits for the user). */
  const refuse = new Set<number>();
  /** Quantities the server fails on, every time (a 500: its defect, not an outage). */
  const crash = new Set<number>();
  const handle = (entry: OutboxEntry): Answer => {
    const { method, json, searchParams } = entry.request;
    if (method === 'PUT') {
      const edits = (json as { modifiedMaterials: Array<{ id: number; quantity: number; version?: number }> }).modifiedMaterials;
      if (edits.some((edit) => refuse.has(edit.quantity))) return { status: 422, body: { message: 'Too many' }, message: 'Too many' };
      if (edits.some((edit) => crash.has(edit.quantity))) return { status: 500, body: { message: 'Internal Server Error' }, message: 'Internal Server Error' };
      const conflicts = edits
        .map((edit) => ({ edit, line: lines.get(edit.id)! }))
        .filter(({ edit, line }) => edit.version !== undefined && edit.version !== line.version && line.quantity !== edit.quantity);
      if (conflicts.length > 0) return { status: 409, body: { message: 'Changed', conflicts: conflicts.map(({ line }) => ({ ...line })) }, message: 'Changed' };
      const updated = edits.map((edit) => {
        const line = lines.get(edit.id)!;
        Object.assign(line, { quantity: edit.quantity, version: line.version + 1, updated_by: USER });
        return { ...line };
      });
      return { status: 200, body: { material_counts: updated, stock_counts: [{ id: COUNT_ID, status: 'in_progress' }] }, message: '' };
    }
    if (method === 'POST') {
      const created = row(nextId++, null, 0, (json as { materialCode: string }).materialCode);
      lines.set(created.id, { ...created, updated_by: USER });
      return { status: 201, body: { ...created, updated_by: USER }, message: '' };
    }
    if (method === 'DELETE') {
      const id = Number(searchParams!.materialCountId);
      if (refuse.has(-id)) return { status: 403, body: { message: 'Only a planner' }, message: 'Only a planner' };
      const line = lines.get(id);
      if (!line) return { status: 404, body: { message: 'not found' }, message: 'not found' };
      lines.delete(id);
      return { status: 200, body: line, message: '' };
    }
    return { status: 200, body: { id: COUNT_ID, status: 'completed' }, message: '' };
  };
  const deps: SyncDeps = {
    async send(entry) {
      received.push({ key: entry.id, method: entry.request.method, json: structuredClone(entry.request.json) });
      if (gate) {
        const current = gate;
        gate = null;
        current.entered();
        await current.release;
      }
      const replay = replies.get(entry.id);
      if (replay) return replay;
      const answer = handle(entry);
      replies.set(entry.id, answer);
      return answer;
    },
    sleep: async () => undefined,
  };
  return {
    lines,
    received,
    refuse,
    crash,
    deps,
    /** Holds the next request in flight: resolves `entered` when it arrives; `release()` lets it through. */
    hold() {
      let release!: () => void;
      let entered!: () => void;
      const arrived = new Promise<void>((resolve) => (entered = resolve));
      gate = { entered, release: new Promise<void>((resolve) => (release = resolve)) };
      return { arrived, release: () => release() };
    },
    sheet(): CountSheet {
      return {
        stock_count: { id: COUNT_ID, status: 'in_progress' } as StockCountRow,
        material_counts: [...lines.values()].sort((a, b) => a.id - b.id).map((line) => ({ ...line })),
      };
    },
  };
}

const device = async () => (await readCountSheet(key))!.material_counts;
const onDevice = async (id: number) => (await device()).find((line) => line.id === id);

let server: ReturnType<typeof fakeServer>;

beforeEach(async () => {
  await Promise.all([offlineDb.pages.clear(), offlineDb.chunks.clear(), offlineDb.slots.clear(), offlineDb.outbox.clear(), offlineDb.marks.clear()]);
  server = fakeServer([row(1), row(2), row(3)]);
  setSheetReader(async (path) => (path === 'my_stock_count' ? { stock_counts: [server.sheet().stock_count] } : { ...server.sheet(), has_next: false }));
  await writeCountSheet(USER, server.sheet());
});

describe('issue #15, case by case', () => {
  it('1: a correction typed while the first value travels is sent after it, not lost', async () => {
    await setQuantity(USER, row(1), 7);
    const held = server.hold();
    const round = runRound(USER, server.deps);
    await held.arrived;
    await setQuantity(USER, row(1), 8); // typed while 7 is on the wire
    held.release();
    await round;
    await runRound(USER, server.deps);
    expect(server.received.map((r) => (r.json as { modifiedMaterials: Array<{ quantity: number }> }).modifiedMaterials[0]!.quantity)).toEqual([7, 8]);
    expect(server.lines.get(1)!.quantity).toBe(8);
    expect((await onDevice(1))!.quantity).toBe(8);
    expect(await offlineDb.outbox.count()).toBe(0);
  });

  it('2: a read of the server that a confirmation overtook does not write old values over synced lines', async () => {
    const readFrom = await readMark(USER, sheetScope(COUNT_ID));
    const before = await fetchCountSheet(COUNT_ID); // the refresh leaves before the sync...
    await setQuantity(USER, row(1), 20);
    await setQuantity(USER, row(2), 11);
    await runRound(USER, server.deps); // ...and answers after it
    expect(await writeCountSheet(USER, before, readFrom)).toBeNull();
    expect((await device()).map((line) => line.quantity)).toEqual([20, 11, null]);
    // Even merged anyway (no mark), versions only grow: the newer copy stays.
    await writeCountSheet(USER, before);
    expect((await device()).map((line) => line.quantity)).toEqual([20, 11, null]);
  });

  it('3: an edit made from a screen one render behind carries the version the device holds: no self-conflict', async () => {
    await setQuantity(USER, row(1), 192);
    await runRound(USER, server.deps);
    expect((await onDevice(1))!.version).toBe(1);
    await setQuantity(USER, row(1, null, 0), 193); // props still say version 0
    await runRound(USER, server.deps);
    expect(await offlineDb.outbox.count()).toBe(0);
    expect(server.lines.get(1)).toMatchObject({ quantity: 193, version: 2 });
  });

  it('4: a later edit supersedes a conflict (based on the value shown), and the conflict goes away', async () => {
    server.lines.get(1)!.quantity = 11; // someone else, meanwhile
    server.lines.get(1)!.version = 1;
    await setQuantity(USER, row(1), 20);
    await runRound(USER, server.deps);
    const [conflict] = await offlineDb.outbox.toArray();
    expect(conflict).toMatchObject({ status: 'conflict', theirs: { quantity: 11, version: 1 } });
    await setQuantity(USER, row(1), 25);
    const [superseding] = await offlineDb.outbox.toArray();
    expect(superseding).toMatchObject({ status: 'pending', seq: conflict!.seq });
    expect(superseding!.id).not.toBe(conflict!.id);
    await runRound(USER, server.deps);
    expect(await offlineDb.outbox.count()).toBe(0);
    expect(server.lines.get(1)!.quantity).toBe(25);
    expect((await onDevice(1))!.quantity).toBe(25);
  });

  it('4b: a conflict that a newer queued edit already supersedes is dropped; the newer one carries it', async () => {
    server.lines.get(1)!.quantity = 11;
    server.lines.get(1)!.version = 1;
    await setQuantity(USER, row(1), 20);
    const held = server.hold();
    const round = runRound(USER, server.deps);
    await held.arrived;
    await setQuantity(USER, row(1), 30);
    held.release();
    await round;
    const left = await offlineDb.outbox.toArray();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ status: 'conflict', theirs: { quantity: 11 } });
    expect((left[0]!.request.json as { modifiedMaterials: Array<{ quantity: number }> }).modifiedMaterials[0]!.quantity).toBe(30);
  });

  it('5: a read lists every line once, in the order the device shows, whatever order the server answers in', async () => {
    const local = [row(3), row(1), row(2)];
    const merged = mergeSheet(local, [row(2, 4, 1), row(1), row(2, 4, 1), row(4), row(3)], []);
    expect(merged.map((line) => line.id)).toEqual([3, 1, 2, 4]);
    expect(merged.find((line) => line.id === 2)!.quantity).toBe(4);
  });

  it('6: a line added offline and removed while its add travels is removed on the server too', async () => {
    await addLine(USER, COUNT_ID, { material_code: 'NEW001', material_description_english: 'New', unit: 'PC' });
    const provisional = (await device()).find((line) => line.material_code === 'NEW001')!;
    const held = server.hold();
    const round = runRound(USER, server.deps);
    await held.arrived;
    await removeLine(USER, provisional);
    expect((await device()).some((line) => line.material_code === 'NEW001')).toBe(false);
    held.release();
    await round;
    await runRound(USER, server.deps);
    expect([...server.lines.values()].some((line) => line.material_code === 'NEW001')).toBe(false);
    expect(await offlineDb.outbox.count()).toBe(0);
    expect((await device()).some((line) => line.material_code === 'NEW001')).toBe(false);
  });

  it('9: two lines added a moment apart never share an id: removing one keeps the other and its add', async () => {
    // The former id, -(Date.now() + random 0–999), was the same for these two adds 1 ms apart.
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_800_000_000_000);
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      await addLine(USER, COUNT_ID, { material_code: 'NEW001', material_description_english: 'New', unit: 'PC' });
      now.mockReturnValue(1_800_000_000_001);
      random.mockReturnValue(0.499);
      await addLine(USER, COUNT_ID, { material_code: 'NEW002', material_description_english: 'New', unit: 'PC' });
    } finally {
      now.mockRestore();
      random.mockRestore();
    }
    const added = (await device()).filter((line) => line.material_code.startsWith('NEW'));
    expect(added).toHaveLength(2);
    expect(new Set(added.map((line) => line.id)).size).toBe(2);
    await removeLine(USER, added[0]!);
    expect((await device()).map((line) => line.material_code)).toContain('NEW002');
    await runRound(USER, server.deps);
    expect([...server.lines.values()].map((line) => line.material_code)).toContain('NEW002');
    expect([...server.lines.values()].map((line) => line.material_code)).not.toContain('NEW001');
  });

  it('8: an edit from a screen still showing a removed line lands on the line its material was added again as', async () => {
    // CI seed 1219257482: the stale screen named the removed line's id, and the server answered 404.
    await addLine(USER, COUNT_ID, { material_code: 'NEW001', material_description_english: 'New', unit: 'PC' });
    await runRound(USER, server.deps);
    const removed = (await device()).find((line) => line.material_code === 'NEW001')!;
    await removeLine(USER, removed);
    await runRound(USER, server.deps);
    await addLine(USER, COUNT_ID, { material_code: 'NEW001', material_description_english: 'New', unit: 'PC' });
    await setQuantity(USER, removed, 12); // the screen is a render behind: it still shows `removed`
    await runRound(USER, server.deps);
    await runRound(USER, server.deps);
    expect(await offlineDb.outbox.count()).toBe(0);
    const onServer = [...server.lines.values()].filter((line) => line.material_code === 'NEW001');
    expect(onServer).toEqual([expect.objectContaining({ quantity: 12 })]);
    expect(onServer[0]!.id).not.toBe(removed.id);
    expect((await device()).filter((line) => line.material_code === 'NEW001')).toEqual([expect.objectContaining({ id: onServer[0]!.id, quantity: 12 })]);
  });

  it('8b: an edit of a removed line whose material is not on the sheet again is queued as shown, for the server to refuse in sight', async () => {
    const removed = (await device())[0]!;
    await removeLine(USER, removed);
    await runRound(USER, server.deps);
    await setQuantity(USER, removed, 4);
    const left = await offlineDb.outbox.toArray();
    expect(left).toEqual([expect.objectContaining({ target: `line:${removed.id}`, status: 'pending' })]);
    expect((await device()).some((line) => line.material_code === removed.material_code)).toBe(false);
  });

  it('7b: a count the server no longer shows the user (handed to someone else) is not left "checking with the server" for ever', async () => {
    await setQuantity(USER, row(1), 5);
    await runRound(USER, server.deps);
    expect((await offlineDb.marks.toArray()).map((mark) => mark.unverified)).toEqual([true]);
    let reads = 0;
    setSheetReader(async (path) => {
      reads += 1;
      return path === 'my_stock_count' ? { stock_counts: [] } : { ...server.sheet(), has_next: false };
    });
    // Signed out meanwhile: nothing is read with the next user's token, the mark waits.
    await verifyScopes(USER, () => false);
    expect(reads).toBe(0);
    expect((await offlineDb.marks.toArray()).map((mark) => mark.unverified)).toEqual([true]);
    await verifyScopes(USER);
    expect((await offlineDb.marks.toArray()).map((mark) => mark.unverified)).toEqual([false]);
    // A read that fails for want of a connection leaves it to check later.
    await setQuantity(USER, row(2), 6);
    await runRound(USER, server.deps);
    setSheetReader(async () => {
      throw new TypeError('Failed to fetch');
    });
    await verifyScopes(USER);
    expect((await offlineDb.marks.toArray()).map((mark) => mark.unverified)).toEqual([true]);
  });

  it('10: typing over a value another counter changed meanwhile is a conflict, not a silent overwrite', async () => {
    await setQuantity(USER, row(1), 5);
    await runRound(USER, server.deps);
    const seen = (await onDevice(1))!; // 5, version 1: the field shows it, the mechanic starts typing
    const from = { version: seen.version, quantity: seen.quantity };
    Object.assign(server.lines.get(1)!, { quantity: 7, version: 2, updated_by: 'other@example.com' });
    await writeCountSheet(USER, server.sheet()); // a read of the server while the field holds the typing
    expect((await onDevice(1))!).toMatchObject({ quantity: 7, version: 2 });
    await setQuantity(USER, (await onDevice(1))!, 9, undefined, from); // Enter: 9, typed over the 5 seen
    await runRound(USER, server.deps);
    const [entry] = await offlineDb.outbox.toArray();
    expect(entry).toMatchObject({ status: 'conflict', theirs: { quantity: 7, version: 2 } });
    expect(server.lines.get(1)!.quantity).toBe(7);

    // Its own confirmation while the mechanic types is no change under the typing: no conflict.
    await offlineDb.outbox.clear();
    await writeCountSheet(USER, server.sheet());
    await setQuantity(USER, (await onDevice(1))!, 8);
    const typing = { version: 2, quantity: 8 }; // the field showed 8 (queued, version 2) when typing began
    await runRound(USER, server.deps); // 8 confirmed: version 3
    await setQuantity(USER, (await onDevice(1))!, 12, undefined, typing);
    await runRound(USER, server.deps);
    expect(await offlineDb.outbox.count()).toBe(0);
    expect(server.lines.get(1)).toMatchObject({ quantity: 12, version: 4 });
  });

  it('11: a journaled edit replayed after a closed page does not overwrite what came after it', async () => {
    // Queued before the page died (the journal was not settled yet): nothing is queued twice.
    await setQuantity(USER, row(1), 5);
    expect(await replayQuantity({ userEmail: USER, shown: row(1), quantity: 5 })).toBeUndefined();
    expect(await offlineDb.outbox.count()).toBe(1);

    // Edited again since (another tab of this device): the later value stays.
    await setQuantity(USER, { ...row(1), quantity: 5 }, 6);
    expect(await replayQuantity({ userEmail: USER, shown: row(1), quantity: 5 })).toBeUndefined();
    expect((await onDevice(1))!.quantity).toBe(6);
    await runRound(USER, server.deps);
    expect(server.lines.get(1)!.quantity).toBe(6);

    // Not queued before the page died, and another counter changed the line since: the server
    // decides on the version the mechanic saw (a conflict, both values shown).
    Object.assign(server.lines.get(2)!, { quantity: 4, version: 1 });
    await writeCountSheet(USER, server.sheet());
    await replayQuantity({ userEmail: USER, shown: row(2), quantity: 3 });
    await runRound(USER, server.deps);
    expect((await offlineDb.outbox.toArray())[0]).toMatchObject({ status: 'conflict', theirs: { quantity: 4 } });

    // Not queued, nothing changed since: queued now and sent.
    await replayQuantity({ userEmail: USER, shown: row(3), quantity: 2 });
    await runRound(USER, server.deps);
    expect(server.lines.get(3)!.quantity).toBe(2);
  });

  it('10b: a conflict that arrives while the mechanic types is not resolved by the typing: it is asked again', async () => {
    await setQuantity(USER, row(1), 5); // queued; the field shows 5 (version 0)
    const from = { version: 0, quantity: 5 }; // the mechanic starts typing over it
    Object.assign(server.lines.get(1)!, { quantity: 7, version: 1, updated_by: 'other@example.com' });
    await runRound(USER, server.deps); // 5 is refused: 7 on the server, a conflict the field does not show
    expect((await offlineDb.outbox.toArray())[0]).toMatchObject({ status: 'conflict', theirs: { quantity: 7 } });
    await setQuantity(USER, (await onDevice(1))!, 9, undefined, from);
    await runRound(USER, server.deps);
    expect(server.lines.get(1)!.quantity).toBe(7);
    expect((await offlineDb.outbox.toArray())[0]).toMatchObject({ status: 'conflict', theirs: { quantity: 7 } });
    // Typed with the conflict in front of them: it replaces the conflict.
    await setQuantity(USER, (await onDevice(1))!, 10, undefined, { version: 0, quantity: 9, theirs: 1 });
    await runRound(USER, server.deps);
    expect(server.lines.get(1)!.quantity).toBe(10);
    expect(await offlineDb.outbox.count()).toBe(0);
  });

  it('12: a replay keeps a later edit waiting on this device, and an accepted book quantity it carried', async () => {
    // Line 2: 5 confirmed; the journaled 7 did not reach the outbox; another tab then typed 8, and a
    // read of the server brought another counter's version (8 stays on top, waiting).
    await setQuantity(USER, row(2), 5);
    await runRound(USER, server.deps);
    const shown = (await onDevice(2))!;
    await setQuantity(USER, shown, 8);
    Object.assign(server.lines.get(2)!, { quantity: 4, version: 2 });
    await writeCountSheet(USER, server.sheet());
    expect(await onDevice(2)).toMatchObject({ quantity: 8, version: 2 });
    expect(await replayQuantity({ userEmail: USER, shown, quantity: 7 })).toBeUndefined();
    const [waiting] = await offlineDb.outbox.toArray();
    expect((waiting!.request.json as { modifiedMaterials: Array<{ quantity: number }> }).modifiedMaterials[0]!.quantity).toBe(8);

    // Line 3: "keep the counted 5" after the book moved to 9; the page died before it was queued.
    Object.assign(server.lines.get(3)!, { quantity: 5, version: 1, book_quantity_now: 9 });
    await writeCountSheet(USER, server.sheet());
    const moved = (await onDevice(3))!;
    await replayQuantity({ userEmail: USER, shown: moved, quantity: 5, acceptBook: { bookQuantity: 9 } });
    expect(await onDevice(3)).toMatchObject({ quantity: 5, book_quantity: 9 });
    const accepted = (await offlineDb.outbox.toArray()).find((entry) => entry.target === 'line:3')!;
    expect(accepted.request.json).toEqual({ modifiedMaterials: [{ id: 3, quantity: 5, version: 1, acceptBookQuantity: 9 }] });
  });

  it('13: a quick correction typed before the screen showed the first value builds on that value, also when replayed after a closed page', async () => {
    // Browser chaos, CHAOS_SEED=1457065507: 166 Enter, 167 Enter at once, reload; the server kept 166.
    // Line 1: 166 is confirmed before 167 is queued; the screen's line still reads as before (a
    // render behind), the field shows the 166 it saved.
    await setQuantity(USER, row(1), 166);
    await runRound(USER, server.deps);
    await setQuantity(USER, row(1), 167, undefined, typingFrom(row(1), '166'));
    await runRound(USER, server.deps);
    expect(await offlineDb.outbox.count()).toBe(0); // no conflict with one's own 166
    expect(server.lines.get(1)).toMatchObject({ quantity: 167, version: 2 });

    // Line 2: 166 waits; the page died before 167 reached the outbox; the next start replays it.
    await setQuantity(USER, row(2), 166);
    expect(await replayQuantity({ userEmail: USER, shown: row(2), quantity: 167, from: typingFrom(row(2), '166'), at: Date.now() })).toBeDefined();
    // Line 3: the same from a journal that took what the field showed from the line (as releases
    // before this one did): the waiting 166 is older than the journaled 167, which is not dropped.
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 2));
    await setQuantity(USER, row(3), 166);
    // A journaled 165 older than the waiting 166: the later 166 stays.
    expect(await replayQuantity({ userEmail: USER, shown: row(3), quantity: 165, from: typingFrom(row(3), ''), at: before })).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(await replayQuantity({ userEmail: USER, shown: row(3), quantity: 167, from: { version: 0, quantity: null }, at: Date.now() })).toBeDefined();
    await runRound(USER, server.deps);
    expect(await offlineDb.outbox.count()).toBe(0);
    expect(server.lines.get(2)!.quantity).toBe(167);
    expect(server.lines.get(3)!.quantity).toBe(167);
    expect((await device()).map((line) => line.quantity)).toEqual([167, 167, 167]);
  });

  it('14: submitting waits behind a refused value of the count until the user resolves it', async () => {
    server.refuse.add(9999);
    await setQuantity(USER, row(1), 9999); // refused: the mechanic has to decide on it
    await submitCount(USER, COUNT_ID);
    await runRound(USER, server.deps);
    expect(server.received.map((r) => r.method)).toEqual(['PUT']); // the submit did not go
    const [failed, submit] = await offlineDb.outbox.orderBy('seq').toArray();
    expect(failed).toMatchObject({ status: 'failed' });
    expect(submit).toMatchObject({ kind: 'stock-count.submit', status: 'pending' });
    // Typed again: the new value goes, then the submit.
    await setQuantity(USER, (await onDevice(1))!, 12);
    await runRound(USER, server.deps);
    expect(server.received.map((r) => r.method)).toEqual(['PUT', 'PUT', 'GET']);
    expect(server.lines.get(1)!.quantity).toBe(12);
    expect(await offlineDb.outbox.count()).toBe(0);
  });

  it('14b: a submit the server refused, retried or asked again after the count was put right, goes after the corrections', async () => {
    // The server refuses the first submit (a line is not counted); the mechanic counts it, offline, then taps Retry.
    let refusals = 1;
    const refusing: SyncDeps = {
      ...server.deps,
      async send(entry) {
        if (entry.request.method === 'GET' && refusals-- > 0) return { status: 422, body: { message: 'Line 1 is not counted' }, message: 'Line 1 is not counted' };
        return server.deps.send(entry);
      },
    };
    await submitCount(USER, COUNT_ID);
    await runRound(USER, refusing);
    const [refused] = await offlineDb.outbox.toArray();
    expect(refused).toMatchObject({ kind: 'stock-count.submit', status: 'failed' });
    await setQuantity(USER, row(1), 4); // waits: no connection
    await retryEntry(refused!.seq!);
    const queued = await offlineDb.outbox.orderBy('seq').toArray();
    expect(queued.map((entry) => entry.kind)).toEqual(['material-count.quantity', 'stock-count.submit']);
    expect(queued[1]).toMatchObject({ status: 'pending' });
    expect(queued[1]!.id).not.toBe(refused!.id); // a new key: the old one holds the refusal
    await runRound(USER, refusing);
    expect(server.received.map((r) => r.method)).toEqual(['PUT', 'GET']); // the refused submit answered before the server's rules
    expect(await offlineDb.outbox.count()).toBe(0);

    // The same when Submit is tapped again instead of Retry.
    refusals = 1;
    server.received.length = 0;
    await submitCount(USER, COUNT_ID);
    await runRound(USER, refusing);
    await setQuantity(USER, (await onDevice(1))!, 5);
    await submitCount(USER, COUNT_ID);
    expect((await offlineDb.outbox.orderBy('seq').toArray()).map((entry) => [entry.kind, entry.status])).toEqual([
      ['material-count.quantity', 'pending'],
      ['stock-count.submit', 'pending'],
    ]);
    await runRound(USER, refusing);
    expect(server.received.map((r) => r.method)).toEqual(['PUT', 'GET']);
    expect(server.lines.get(1)!.quantity).toBe(5);
  });

  it('15: a later edit confirmed drops an older refused edit of the line: its value does not come back', async () => {
    server.refuse.add(2.5);
    await setQuantity(USER, row(1), 2.5);
    const held = server.hold();
    const round = runRound(USER, server.deps);
    await held.arrived;
    await setQuantity(USER, row(1), 3); // corrected while 2.5 travels (refused)
    held.release();
    await round;
    await runRound(USER, server.deps);
    expect(server.lines.get(1)!.quantity).toBe(3);
    expect((await onDevice(1))!.quantity).toBe(3);
    expect(await offlineDb.outbox.count()).toBe(0);
  });

  it('16: Keep mine, Take theirs, Discard and Retry act only on the entry as the screen showed it', async () => {
    await setQuantity(USER, row(1), 5);
    Object.assign(server.lines.get(1)!, { quantity: 7, version: 1, updated_by: 'other@example.com' });
    await runRound(USER, server.deps);
    const shown = (await offlineDb.outbox.toArray())[0]!;
    expect(shown).toMatchObject({ status: 'conflict' });
    // The field's blur commits 6 as the button is tapped: it supersedes the conflict (new key).
    await setQuantity(USER, (await onDevice(1))!, 6, undefined, { version: 1, quantity: 5, theirs: 1 });
    await keepMine(shown);
    await takeTheirs(shown);
    await discardEntry(shown);
    const [now] = await offlineDb.outbox.toArray();
    expect((now!.request.json as { modifiedMaterials: Array<{ quantity: number }> }).modifiedMaterials[0]!.quantity).toBe(6);
    expect((await onDevice(1))!.quantity).toBe(6);
    // Retry of an entry already on its way (a second tap): nothing changes, its key stays.
    await offlineDb.outbox.update(now!.seq!, { status: 'sending' });
    await retryEntry(now!.seq!);
    expect(await offlineDb.outbox.get(now!.seq!)).toMatchObject({ status: 'sending', id: now!.id });
  });

  it('17: a change the server fails on every time (500) stops holding the others: split from its batch, then left to the user', async () => {
    server.crash.add(666);
    await setQuantity(USER, row(1), 666);
    await setQuantity(USER, row(2), 4);
    await setQuantity(USER, row(3), 5);
    for (let round = 1; round < POISONED_AFTER; round += 1) {
      await runRound(USER, server.deps);
      expect(server.lines.get(2)!.quantity, `round ${round}`).toBeNull(); // one batch: waits, as in an outage
    }
    await runRound(USER, server.deps); // split: 666 alone, the others pass behind it
    for (let round = 0; round < POISONED_AFTER; round += 1) await runRound(USER, server.deps);
    expect(server.lines.get(2)!.quantity).toBe(4);
    expect(server.lines.get(3)!.quantity).toBe(5);
    const left = await offlineDb.outbox.toArray();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ status: 'failed', lastError: 'Internal Server Error' });
    expect((await onDevice(1))!.quantity).toBe(666); // kept on the phone, for Retry or Discard
    // Retry keeps its key: the server may have applied it and failed only in answering.
    await retryEntry(left[0]!.seq!);
    expect(await offlineDb.outbox.get(left[0]!.seq!)).toMatchObject({ status: 'pending', id: left[0]!.id });
  });

  it('17b: an outage between the 500s (no connection, 503) starts the tally again: the change is not set aside', async () => {
    server.crash.add(666);
    await setQuantity(USER, row(1), 666);
    const offline: SyncDeps = { ...server.deps, send: async () => ({ status: 503, body: { message: 'Unavailable' }, message: 'Unavailable' }) };
    for (let round = 1; round < POISONED_AFTER; round += 1) await runRound(USER, server.deps);
    await runRound(USER, offline);
    for (let round = 1; round < POISONED_AFTER; round += 1) await runRound(USER, server.deps);
    expect((await offlineDb.outbox.toArray())[0]).toMatchObject({ status: 'sending' });
    await runRound(USER, server.deps); // the fifth 500 in a row
    expect((await offlineDb.outbox.toArray())[0]).toMatchObject({ status: 'failed' });
  });

  it('18: a refused removal discarded brings the line back as the server holds it, not with the values dropped by the removal', async () => {
    server.refuse.add(-1); // the server refuses to remove line 1
    await setQuantity(USER, row(1), 7);
    await removeLine(USER, { ...row(1), quantity: 7 }); // drops the unsent 7, queues the removal
    await runRound(USER, server.deps);
    const [refused] = await offlineDb.outbox.toArray();
    expect(refused).toMatchObject({ kind: 'material-count.delete', status: 'failed' });
    await discardEntry(refused!);
    await runRound(USER, server.deps);
    await verifyScopes(USER);
    expect(await onDevice(1)).toMatchObject({ quantity: null }); // the server's, not the 7 it never got
    expect((await offlineDb.marks.toArray()).every((mark) => !mark.unverified)).toBe(true);
  });

  it('7: after the outbox drains the server is read again ("all saved" only then), and what differs is repaired', async () => {
    await setQuantity(USER, row(1), 5);
    await runRound(USER, server.deps);
    expect((await offlineDb.marks.toArray()).map((mark) => mark.unverified)).toEqual([true]);
    server.lines.get(3)!.quantity = 9; // changed on the server by someone else
    server.lines.get(3)!.version = 1;
    await verifyScopes(USER);
    expect((await offlineDb.marks.toArray()).map((mark) => mark.unverified)).toEqual([false]);
    expect((await device()).map((line) => line.quantity)).toEqual([5, null, 9]);
  });
});
