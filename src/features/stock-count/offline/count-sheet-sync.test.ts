/** The outbox and sync engine on a real IndexedDB implementation (fake-indexeddb), no browser. */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MaterialCountRow, StockCountRow } from '../../../contract/stock';
import { offlineDb, type OutboxEntry } from '../../../offline/db';
import {
  addLine,
  chooseBookAgain,
  discardEntry,
  keepMine,
  KIND,
  PLANNING_SCOPE,
  readCountSheet,
  removeLine,
  setQuantity,
  sheetKey,
  takeTheirs,
  writeCountSheet,
  type CountSheet,
} from './count-sheet';
import { networkFirst, writeMirror } from '../../../offline/mirror';
import { MemoryStorage } from '../../../../tests/setup/memory-storage';
import { unitLearned, unitScope } from './unit-notices';
import {
  DEFAULT_RATE_LIMIT_WAIT_MS,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  runRound,
  startOutboxSync,
  whileCurrent,
  type Answer,
  type SyncDeps,
} from '../../../offline/sync';
import './register';
import { testLine as line } from './test-rows';

const USER = 'mechanic@example.com';
const COUNT_ID = 27;


const sheet = (lines: MaterialCountRow[]): CountSheet => ({
  stock_count: { id: COUNT_ID, status: 'initiated' } as StockCountRow,
  material_counts: lines,
});

const key = sheetKey(USER, COUNT_ID);
const mirrored = async () => (await readCountSheet(key))!;
const entries = () => offlineDb.outbox.orderBy('seq').toArray();

/** A scripted server: answers in order; records what was sent and every wait. */
function scripted(answers: Array<Answer | 'unreachable' | ((entry: OutboxEntry) => Answer)>) {
  const sent: OutboxEntry[] = [];
  /** When each was sent (Date.now()), for waits measured where they happen rather than by polling. */
  const sentAt: number[] = [];
  const waits: number[] = [];
  const deps: SyncDeps = {
    async send(entry) {
      sent.push(structuredClone(entry));
      sentAt.push(Date.now());
      const next = answers.shift();
      if (next === undefined || next === 'unreachable') throw new TypeError('Failed to fetch');
      return typeof next === 'function' ? next(entry) : next;
    },
    async sleep(ms) {
      waits.push(ms);
    },
  };
  return { deps, sent, sentAt, waits };
}

const ok = (body: unknown): Answer => ({ status: 200, body, message: '' });
const edits = (entry: OutboxEntry) =>
  (entry.request.json as { modifiedMaterials: Array<{ id: number; quantity: number; version?: number }> }).modifiedMaterials;
const echoQuantity = (entry: OutboxEntry): Answer =>
  ok({
    material_counts: edits(entry).map((edit) => line(edit.id, edit.quantity, (edit.version ?? 0) + 1)),
    stock_counts: [{ id: COUNT_ID, status: 'in_progress' }],
  });

/** A browser tab for the sync loop: localStorage shared with "other tabs" (the map), online, visible. */
function stubBrowserTab(): Map<string, string> {
  const stored = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
    key: (i: number) => [...stored.keys()][i] ?? null,
    get length() {
      return stored.size;
    },
  });
  vi.stubGlobal('navigator', { onLine: true });
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  return stored;
}

beforeEach(async () => {
  await offlineDb.pages.clear();
  await offlineDb.chunks.clear();
  await offlineDb.slots.clear();
  await offlineDb.outbox.clear();
  await offlineDb.marks.clear();
  await writeCountSheet(USER, sheet([line(1), line(2), line(3)]));
});

describe('outbox', () => {
  it('updates the mirror and appends the entry in one go, with a UUID key', async () => {
    await setQuantity(USER, line(1), 4);
    expect((await mirrored()).material_counts[0]!.quantity).toBe(4);
    const [entry] = await entries();
    expect(entry).toMatchObject({ kind: KIND.quantity, status: 'pending', target: 'line:1' });
    expect(entry!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('merges repeated edits of one waiting line, keeping the version of the first edit', async () => {
    await writeCountSheet(USER, sheet([line(1, null, 3), line(2), line(3)]));
    await setQuantity(USER, line(1, null, 3), 4);
    await setQuantity(USER, { ...line(1, 4, 3) }, 6);
    const all = await entries();
    expect(all).toHaveLength(1);
    expect(all[0]!.request.json).toEqual({ modifiedMaterials: [{ id: 1, quantity: 6, version: 3 }] });
  });

  it('an accepted book quantity travels with the edit, survives merging and shows in the mirror', async () => {
    await writeCountSheet(USER, sheet([line(1, 3, 2), line(2), line(3)]));
    await setQuantity(USER, { ...line(1, 3, 2), book_quantity_now: 7 }, 3, { bookQuantity: 7 });
    expect((await mirrored()).material_counts[0]).toMatchObject({ quantity: 3, book_quantity: 7 });
    await setQuantity(USER, { ...line(1, 3, 2), book_quantity: 7 }, 4);
    const all = await entries();
    expect(all).toHaveLength(1);
    expect(all[0]!.request.json).toEqual({ modifiedMaterials: [{ id: 1, quantity: 4, version: 2, acceptBookQuantity: 7 }] });
    const fresh = await writeCountSheet(USER, sheet([line(1, 3, 2), line(2), line(3)]));
    expect(fresh!.data.material_counts[0]).toMatchObject({ quantity: 4, book_quantity: 7 });
  });

  it('keeps queued edits on top of fresh server data', async () => {
    await setQuantity(USER, line(2), 9);
    const fresh = await writeCountSheet(USER, sheet([line(1), line(2), line(3)]));
    expect(fresh!.data.material_counts[1]!.quantity).toBe(9);
    expect((await mirrored()).material_counts[1]!.quantity).toBe(9);
  });

  it('answers from the mirror, with its saved time, when the network fails', async () => {
    await writeMirror({ key: 'page-1', scope: 'stock' }, [{ id: 1 }]);
    const result = await networkFirst({
      key: 'page-1',
      scope: 'stock',
      fetcher: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    expect(result.data).toEqual([{ id: 1 }]);
    expect(result.source).toBe('mirror');
    expect(result.savedAt).toBeGreaterThan(0);
    await expect(
      networkFirst({ key: 'never-saved', scope: 'x', fetcher: () => Promise.reject(new TypeError('Failed to fetch')) }),
    ).rejects.toThrow(/not been saved/);
  });
});

describe('sync rounds', () => {
  it('sends quantity edits together, in the order they were made, under one batch key', async () => {
    await setQuantity(USER, line(1), 1);
    await setQuantity(USER, line(2), 2);
    await setQuantity(USER, line(3), 3);
    const server = scripted([echoQuantity]);
    expect(await runRound(USER, server.deps)).toEqual({ sent: 3, stoppedBy: 'empty' });
    expect(server.sent).toHaveLength(1);
    expect(edits(server.sent[0]!).map((e) => [e.id, e.quantity])).toEqual([[1, 1], [2, 2], [3, 3]]);
    expect(await entries()).toEqual([]);
    expect((await mirrored()).material_counts.map((l) => l.version)).toEqual([1, 1, 1]);
  });

  it('keeps other kinds of change in order: an add goes alone, between the edits around it', async () => {
    await setQuantity(USER, line(1), 1);
    await addLine(USER, COUNT_ID, { material_code: 'KM777777', material_description_english: 'Roller', unit: 'PC' });
    await setQuantity(USER, line(2), 2);
    const added = (): Answer => ({ status: 201, body: { ...line(900), material_code: 'KM777777' }, message: '' });
    const server = scripted([echoQuantity, added, echoQuantity]);
    await runRound(USER, server.deps);
    expect(server.sent.map((e) => e.kind)).toEqual([KIND.quantity, KIND.add, KIND.quantity]);
  });

  it('keeps the changes queued when the server says "not now" (429, 408): none is marked failed, the same request goes again', async () => {
    for (const status of [429, 408]) {
      await offlineDb.outbox.clear();
      await setQuantity(USER, line(1), 1);
      await setQuantity(USER, line(2), 2);
      const busy = scripted([{ status, body: { message: 'Too many requests' }, message: 'Too many requests' }]);
      // A 429 without Retry-After waits the default; a 408 goes again at the next trigger.
      expect(await runRound(USER, busy.deps)).toEqual({ sent: 0, stoppedBy: 'network', ...(status === 429 ? { retryAfterMs: DEFAULT_RATE_LIMIT_WAIT_MS } : {}) });
      expect(busy.sent).toHaveLength(1);
      const waiting = await entries();
      expect(waiting.map((entry) => entry.status)).toEqual(['sending', 'sending']);
      const again = scripted([echoQuantity]);
      expect(await runRound(USER, again.deps)).toEqual({ sent: 2, stoppedBy: 'empty' });
      expect(again.sent[0]!.id).toBe(busy.sent[0]!.id);
    }
  });

  it('a server that says how long to wait is not asked again at once: the round ends with its wait, even on a 503', async () => {
    await setQuantity(USER, line(1), 1);
    const busy = scripted([{ status: 503, body: { message: 'Busy, send it again' }, message: 'Busy, send it again', retryAfterMs: 2000 }]);
    expect(await runRound(USER, busy.deps)).toEqual({ sent: 0, stoppedBy: 'network', retryAfterMs: 2000 });
    expect(busy.sent).toHaveLength(1);
    expect(busy.waits).toEqual([]);
    expect((await entries()).map((entry) => entry.status)).toEqual(['sending']);
  });

  it('reads Retry-After as seconds or an HTTP date, capped at ten minutes', () => {
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 29 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    // Never less than a second: "0" or a date gone by would resend in a tight loop.
    expect(parseRetryAfter('Sun, 29 Nov 2026 09:00:00 GMT', now)).toBe(1000);
    expect(parseRetryAfter('0', now)).toBe(1000);
    expect(parseRetryAfter('86400', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('leaves the server alone as long as it asked: changes queued meanwhile wait, then go when the time is up', async () => {
    vi.stubGlobal('navigator', { onLine: true });
    vi.stubGlobal('window', new EventTarget());
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
    const server = scripted([{ status: 429, body: { message: 'Rate limit exceeded' }, message: 'Rate limit exceeded', retryAfterMs: 1000 }, echoQuantity, echoQuantity]);
    const stop = startOutboxSync(USER, server.deps);
    try {
      await setQuantity(USER, line(1), 4); // queued: a round starts, the server says wait 1 s
      await vi.waitFor(() => expect(server.sent).toHaveLength(1));
      await setQuantity(USER, line(2), 5); // each change queued meanwhile would start a round
      await vi.waitFor(() => expect(server.sent).toHaveLength(3), { timeout: 15_000 });
      // Nothing went before the second was up, counted from the refused send (the pause starts
      // when its round ends, a little later): the change queued meanwhile waited too.
      expect(server.sentAt[1]! - server.sentAt[0]!).toBeGreaterThanOrEqual(950);
      expect(server.sentAt[2]! - server.sentAt[0]!).toBeGreaterThanOrEqual(950);
      // The refused batch again under its key, then the change queued meanwhile.
      expect(server.sent[1]!.id).toBe(server.sent[0]!.id);
      expect(server.sent.slice(1).map((entry) => edits(entry).map((edit) => edit.id))).toEqual([[1], [2]]);
      await vi.waitFor(async () => expect(await entries()).toEqual([]));
    } finally {
      stop();
      vi.unstubAllGlobals();
    }
  });

  it('a wait another tab of the app was given holds this tab too (the round lock passes between tabs)', async () => {
    const stored = stubBrowserTab();
    // Another tab was told to wait a minute: this tab waits too (ended by hand below, not by sleeping).
    stored.set('partstrack.sync.pausedUntil', String(Date.now() + 60_000));
    const server = scripted([echoQuantity]);
    const stop = startOutboxSync(USER, server.deps);
    try {
      await setQuantity(USER, line(1), 4);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.sent).toHaveLength(0);
      stored.set('partstrack.sync.pausedUntil', String(Date.now() - 1)); // the wait is over
      await setQuantity(USER, line(1), 5); // the next trigger after the wait sends
      await vi.waitFor(() => expect(server.sent).toHaveLength(1));
      expect(edits(server.sent[0]!)).toEqual([expect.objectContaining({ id: 1, quantity: 5 })]);
    } finally {
      stop();
      vi.unstubAllGlobals();
    }
  });

  it('drops a shared wait further ahead than any server asks (a clock set back), instead of waiting out the jump', async () => {
    const stored = stubBrowserTab();
    // Written before the clock went back a day: no server asks for more than MAX_RETRY_AFTER_MS.
    stored.set('partstrack.sync.pausedUntil', String(Date.now() + MAX_RETRY_AFTER_MS + 24 * 3600_000));
    const server = scripted([echoQuantity]);
    const stop = startOutboxSync(USER, server.deps);
    try {
      await setQuantity(USER, line(1), 4);
      await vi.waitFor(() => expect(server.sent).toHaveLength(1));
      expect(stored.has('partstrack.sync.pausedUntil')).toBe(false);
    } finally {
      stop();
      vi.unstubAllGlobals();
    }
  });

  it('sends nothing more once its user is signed out: a round waiting out a retry leaves the changes for that user', async () => {
    await setQuantity(USER, line(1), 1);
    let signedIn = true;
    const server = scripted(['unreachable', echoQuantity]);
    // The user signs out (and another may sign in) while the round waits to try again.
    const deps = whileCurrent(() => signedIn, { ...server.deps, sleep: async () => void (signedIn = false) });
    expect(await runRound(USER, deps)).toEqual({ sent: 0, stoppedBy: 'auth' });
    expect(server.sent).toHaveLength(1);
    expect((await entries()).map((entry) => entry.status)).toEqual(['sending']);
    // Back for that user: the same request goes, once.
    signedIn = true;
    expect(await runRound(USER, whileCurrent(() => signedIn, server.deps))).toEqual({ sent: 1, stoppedBy: 'empty' });
    expect(server.sent.map((entry) => entry.id)).toEqual([server.sent[0]!.id, server.sent[0]!.id]);
  });

  it('retries a lost answer with waits of 20, 400 and 8000 ms, then keeps it queued and stops the round', async () => {
    await setQuantity(USER, line(1), 1);
    await setQuantity(USER, line(2), 2);
    const server = scripted(['unreachable', 'unreachable', 'unreachable', 'unreachable']);
    expect(await runRound(USER, server.deps)).toEqual({ sent: 0, stoppedBy: 'network' });
    expect(server.waits).toEqual([20, 400, 8000]);
    expect(new Set(server.sent.map((e) => e.id)).size).toBe(1);
    const [first, second] = await entries();
    expect(first).toMatchObject({ status: 'sending', attempts: 1 });
    expect(second!.batchId).toBe(first!.batchId);
  });

  it('resends a batch whose answer was lost exactly as it was, even when more edits arrived', async () => {
    await setQuantity(USER, line(1), 1);
    await setQuantity(USER, line(2), 2);
    await runRound(USER, scripted(['unreachable', 'unreachable', 'unreachable', 'unreachable']).deps);
    await setQuantity(USER, line(3), 3);
    const server = scripted([echoQuantity, echoQuantity]);
    await runRound(USER, server.deps);
    expect(edits(server.sent[0]!).map((e) => e.id)).toEqual([1, 2]);
    expect(edits(server.sent[1]!).map((e) => e.id)).toEqual([3]);
    expect(await entries()).toEqual([]);
  });

  it('sends the same key again after a lost answer (the server replays, nothing doubles)', async () => {
    await setQuantity(USER, line(1), 1);
    const server = scripted(['unreachable', echoQuantity]);
    await runRound(USER, server.deps);
    expect(server.sent[0]!.id).toBe(server.sent[1]!.id);
  });

  it('keeps 5xx queued like a lost answer', async () => {
    await setQuantity(USER, line(1), 1);
    const busy = { status: 503, body: { message: 'busy' }, message: 'busy' };
    const server = scripted([busy, busy, busy, busy]);
    expect((await runRound(USER, server.deps)).stoppedBy).toBe('network');
    expect((await entries())[0]).toMatchObject({ status: 'sending', lastError: 'busy' });
  });

  it('marks other 4xx failed with the server’s message and goes on with the next', async () => {
    await setQuantity(USER, line(1), 1);
    await setQuantity(USER, line(2), 2);
    const refused = { status: 409, body: { message: 'Stock count 27 is completed and can no longer be changed' }, message: 'Stock count 27 is completed and can no longer be changed' };
    // The batch is refused whole; sent one by one, only the first is at fault.
    const server = scripted([refused, refused, echoQuantity]);
    expect(await runRound(USER, server.deps)).toEqual({ sent: 1, stoppedBy: 'empty' });
    const [failed] = await entries();
    expect(failed).toMatchObject({ status: 'failed', lastError: 'Stock count 27 is completed and can no longer be changed' });
    await discardEntry(failed!);
    expect((await mirrored()).material_counts[0]!.quantity).toBeNull();
    expect(await entries()).toEqual([]);
  });

  it('a new edit of a failed line supersedes it: one entry, pending under a new key, the failure forgotten', async () => {
    await setQuantity(USER, line(1), 1);
    const refused = { status: 409, body: { message: 'Stock count 27 is completed and can no longer be changed' }, message: 'Stock count 27 is completed and can no longer be changed' };
    await runRound(USER, scripted([refused]).deps);
    const [failed] = await entries();
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });

    await setQuantity(USER, line(1), 5);
    const all = await entries();
    expect(all).toHaveLength(1);
    const [superseding] = all;
    expect(superseding).toMatchObject({ seq: failed!.seq, status: 'pending', attempts: 0, createdAt: failed!.createdAt });
    expect(superseding!.id).not.toBe(failed!.id);
    expect(superseding!.request.json).toEqual({ modifiedMaterials: [{ id: 1, quantity: 5, version: 0 }] });
    // Cleared, not kept as undefined: the entry reads as one never tried.
    expect(Object.keys(superseding!)).not.toEqual(expect.arrayContaining(['lastError']));
    expect('theirs' in superseding! || 'batchId' in superseding!).toBe(false);
    expect((await mirrored()).material_counts[0]!.quantity).toBe(5);
  });

  it('stops the round on 401 and keeps the entry for after sign-in', async () => {
    await setQuantity(USER, line(1), 1);
    const server = scripted([{ status: 401, body: { message: 'Id token expired' }, message: 'Id token expired' }]);
    expect((await runRound(USER, server.deps)).stoppedBy).toBe('auth');
    expect((await entries())[0]!.status).toBe('sending');
  });

  it('keeps both values of a conflict; keep mine resends on the server’s version under a new key', async () => {
    await setQuantity(USER, line(1, null, 0), 12);
    const theirs = line(1, 11, 1);
    const server = scripted([{ status: 409, body: { message: 'Changed by someone else', conflicts: [theirs] }, message: 'Changed by someone else' }]);
    await runRound(USER, server.deps);
    const [conflict] = await entries();
    expect(conflict).toMatchObject({ status: 'conflict', theirs });
    expect((await mirrored()).material_counts[0]!.quantity).toBe(12);

    await keepMine(conflict!);
    const [resend] = await entries();
    expect(resend!.id).not.toBe(conflict!.id);
    expect(resend!.request.json).toEqual({ modifiedMaterials: [{ id: 1, quantity: 12, version: 1 }] });
  });

  it('in a batch, only the conflicting line waits for the user; the others go again', async () => {
    await setQuantity(USER, line(1), 5);
    await setQuantity(USER, line(2), 6);
    const theirs = line(1, 11, 1);
    const server = scripted([{ status: 409, body: { message: 'x', conflicts: [theirs] }, message: 'x' }, echoQuantity]);
    await runRound(USER, server.deps);
    expect(edits(server.sent[1]!).map((e) => e.id)).toEqual([2]);
    const left = await entries();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ target: 'line:1', status: 'conflict', theirs });
  });

  it('an accepted book quantity refused because the book moved again is not sent again: typing drops it, "choose again" keeps my count', async () => {
    await writeCountSheet(USER, sheet([line(1, 3, 2), line(2), line(3)]));
    await setQuantity(USER, { ...line(1, 3, 2), book_quantity_now: 7 }, 3, { bookQuantity: 7 });
    const theirs = { ...line(1, 3, 2), book_quantity_now: 9 };
    await runRound(USER, scripted([{ status: 409, body: { message: 'moved again', conflicts: [theirs] }, message: 'moved again' }]).deps);
    const [conflict] = await entries();
    expect(conflict).toMatchObject({ status: 'conflict', theirs: { book_quantity_now: 9 } });

    // A new value typed over it goes without the refused acceptance.
    await setQuantity(USER, (await mirrored()).material_counts[0]!, 4);
    expect((await entries())[0]!.request.json).toEqual({ modifiedMaterials: [{ id: 1, quantity: 4, version: 2 }] });

    // Or "choose again": my count goes on the server's version, the line shows the new book quantity.
    await offlineDb.outbox.clear();
    await setQuantity(USER, { ...line(1, 3, 2), book_quantity_now: 7 }, 3, { bookQuantity: 7 });
    await runRound(USER, scripted([{ status: 409, body: { message: 'moved again', conflicts: [theirs] }, message: 'moved again' }]).deps);
    await chooseBookAgain((await entries())[0]!);
    const [again] = await entries();
    expect(again).toMatchObject({ status: 'pending' });
    expect(again!.id).not.toBe(conflict!.id);
    expect(again!.request.json).toEqual({ modifiedMaterials: [{ id: 1, quantity: 3, version: 2 }] });
    expect((await mirrored()).material_counts[0]).toMatchObject({ quantity: 3, book_quantity: 5, book_quantity_now: 9 });
  });

  it('take theirs puts the server’s value in the mirror and drops mine', async () => {
    await setQuantity(USER, line(1), 12);
    const theirs = line(1, 11, 1);
    await runRound(USER, scripted([{ status: 409, body: { message: 'x', conflicts: [theirs] }, message: 'x' }]).deps);
    await takeTheirs((await entries())[0]!);
    expect((await mirrored()).material_counts[0]).toEqual(theirs);
    expect(await entries()).toEqual([]);
  });

  it('sends a line added offline first, then its quantity under the real id', async () => {
    const added = await addLine(USER, COUNT_ID, { material_code: 'KM999999', material_description_english: 'Door roller', unit: 'PC' });
    const provisional = (await mirrored()).material_counts.at(-1)!;
    expect(provisional.id).toBeLessThan(0);
    await setQuantity(USER, provisional, 3);
    const server = scripted([() => ({ status: 201, body: { ...provisional, id: 501, version: 0 }, message: '' }), echoQuantity]);
    await runRound(USER, server.deps);
    expect(server.sent.map((e) => e.kind)).toEqual([KIND.add, KIND.quantity]);
    expect(server.sent[1]!.request.json).toEqual({ modifiedMaterials: [{ id: 501, quantity: 3, version: 0 }] });
    expect((await mirrored()).material_counts.at(-1)).toMatchObject({ id: 501, quantity: 3, version: 1 });
    expect(added.target).toBe(`line:${provisional.id}`);
  });

  it('a line added by its code offline and counted before its unit was known: the unit the server gives is noted for its counter (decision 0076)', async () => {
    Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
    await addLine(USER, COUNT_ID, { material_code: 'KM999995', material_description_english: '', unit: '' });
    await addLine(USER, COUNT_ID, { material_code: 'KM999994', material_description_english: '', unit: '' });
    const [counted, notCounted] = (await mirrored()).material_counts.slice(-2);
    await setQuantity(USER, counted!, 12);
    // Each add answered with its own line, in whatever order the adds go.
    const taken = (entry: OutboxEntry) =>
      (entry.request.json as { materialCode: string }).materialCode === 'KM999995'
        ? { status: 201, body: { ...counted!, id: 503, version: 0, unit: 'M', material_description_english: 'Rope' }, message: '' }
        : { status: 201, body: { ...notCounted!, id: 504, version: 0, unit: 'PC', material_description_english: 'Shoe' }, message: '' };
    const server = scripted([taken, taken, echoQuantity]);
    await runRound(USER, server.deps);
    expect((await mirrored()).material_counts.find((row) => row.id === 503)).toMatchObject({ quantity: 12 });
    expect(unitLearned(unitScope(USER, COUNT_ID), 'KM999995')).toBe('M');
    // Not counted yet: the counter sees the unit before typing, nothing to tell.
    expect(unitLearned(unitScope(USER, COUNT_ID), 'KM999994')).toBeUndefined();
  });

  it('a line added offline that someone else added and counted meanwhile: the quantity goes as a conflict, not over theirs', async () => {
    await addLine(USER, COUNT_ID, { material_code: 'KM999997', material_description_english: 'Guide shoe', unit: 'PC' });
    const provisional = (await mirrored()).material_counts.at(-1)!;
    await setQuantity(USER, provisional, 3);
    // The server answers the add with the line that is there: counted 7 by a colleague (version 2).
    const theirs = { ...provisional, id: 502, quantity: 7, version: 2 };
    const server = scripted([() => ({ status: 200, body: theirs, message: '' }), { status: 409, body: { message: 'x', conflicts: [theirs] }, message: 'x' }]);
    await runRound(USER, server.deps);
    expect(server.sent.map((e) => e.kind)).toEqual([KIND.add, KIND.quantity]);
    expect(server.sent[1]!.request.json).toEqual({ modifiedMaterials: [{ id: 502, quantity: 3, version: 0 }] });
    // Both values are kept for the counter to choose: theirs as the conflict, mine on the line.
    const waiting = await entries();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ status: 'conflict', target: 'line:502' });
    expect((await mirrored()).material_counts.at(-1)).toMatchObject({ id: 502, quantity: 3 });
  });

  it('a line added offline that is there already, not counted: the quantity lands on it', async () => {
    await addLine(USER, COUNT_ID, { material_code: 'KM999996', material_description_english: 'Pulley', unit: 'PC' });
    const provisional = (await mirrored()).material_counts.at(-1)!;
    await setQuantity(USER, provisional, 4);
    const server = scripted([() => ({ status: 200, body: { ...provisional, id: 503, quantity: null, version: 0 }, message: '' }), echoQuantity]);
    await runRound(USER, server.deps);
    expect(server.sent[1]!.request.json).toEqual({ modifiedMaterials: [{ id: 503, quantity: 4, version: 0 }] });
    expect((await mirrored()).material_counts.at(-1)).toMatchObject({ id: 503, quantity: 4, version: 1 });
  });

  it('holds a planner’s change of a count behind its earlier refused change, and no other count’s', async () => {
    const plan = (target: string, status: OutboxEntry['status']): OutboxEntry => ({
      id: crypto.randomUUID(),
      userEmail: USER,
      kind: KIND.plan,
      scope: PLANNING_SCOPE,
      target,
      request: { service: 'stock', method: 'PUT', path: 'my_stock_count', json: { stockCountId: Number(target.split(':')[1]) } },
      status,
      createdAt: 0,
      attempts: 0,
    });
    await offlineDb.outbox.bulkAdd([plan('count:12', 'failed'), plan('count:12', 'pending'), plan('count:13', 'pending')]);
    const server = scripted([ok({ id: 13 })]);
    await runRound(USER, server.deps);
    // Count 13's change went; count 12's waits until its refused edit is retried or discarded.
    expect(server.sent.map((e) => e.target)).toEqual(['count:13']);
    expect((await entries()).map((e) => [e.target, e.status])).toEqual([
      ['count:12', 'failed'],
      ['count:12', 'pending'],
    ]);
  });

  it('removing a line leaves another user’s waiting count of it on a shared phone (theirs to send or discard)', async () => {
    const other = 'aino.korhonen@lift.example';
    await writeCountSheet(other, sheet([line(1), line(2), line(3)]));
    await setQuantity(other, line(1), 9);
    await setQuantity(USER, line(1), 4);
    await removeLine(USER, line(1));
    const waiting = await entries();
    expect(waiting.map((entry) => [entry.userEmail, entry.kind])).toEqual([
      [other, KIND.quantity],
      [USER, KIND.remove],
    ]);
  });

  it('removing a line added offline removes it and its queued changes; nothing is sent', async () => {
    await addLine(USER, COUNT_ID, { material_code: 'KM999998', material_description_english: 'Brake pad', unit: 'SET' });
    const provisional = (await mirrored()).material_counts.at(-1)!;
    await setQuantity(USER, provisional, 2);
    await removeLine(USER, provisional);
    expect(await entries()).toEqual([]);
    expect((await mirrored()).material_counts).toHaveLength(3);
    const server = scripted([]);
    expect(await runRound(USER, server.deps)).toEqual({ sent: 0, stoppedBy: 'empty' });
  });
});
