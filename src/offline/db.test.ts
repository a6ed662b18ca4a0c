/** The device database's upgrade path: a copy of a count saved by an older version stays readable, whole. */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { NEWER_DATABASE_EVENT, OfflineDatabase } from './db';

it('moves the lines of a count saved by v1 into slices (v2) with a slot per line (v5), keeping the count and the order', async () => {
  const name = 'upgrade-check';
  const v1 = new Dexie(name);
  v1.version(1).stores({ pages: 'key, scope, savedAt', outbox: '++seq, &id, userEmail, status, scope, target' });
  const lines = Array.from({ length: 600 }, (_, i) => ({ id: i + 1, material_code: `M${i}`, quantity: i % 2 ? i : null }));
  await v1.table('pages').put({ key: 'u|sheet', scope: 'stock-count:1', savedAt: 123, data: { stock_count: { id: 1 }, material_counts: lines } });
  await v1.table('pages').put({ key: 'u|profile', scope: 'session', savedAt: 5, data: { email: 'u' } });
  v1.close();

  const v2 = new OfflineDatabase(name);
  const page = await v2.pages.get('u|sheet');
  expect(page?.data).toEqual({ stock_count: { id: 1 } });
  const chunks = await v2.chunks.where('page').equals('u|sheet').sortBy('chunk');
  expect(chunks.map((c) => c.rows.length)).toEqual([250, 250, 100]);
  expect(chunks.flatMap((c) => c.rows)).toEqual(lines);
  expect(chunks.every((c) => c.ids === undefined)).toBe(true);
  const slots = await v2.slots.where('page').equals('u|sheet').toArray();
  expect(slots.sort((a, b) => a.id - b.id).map((slot) => slot.chunk)).toEqual(lines.map((_, i) => Math.floor(i / 250)));
  expect((await v2.pages.get('u|profile'))?.data).toEqual({ email: 'u' });
  v2.close();
});

it('v4 and v5: a count saved by v3 (ids in the page, removed lines as null) keeps every line and has a slot for each', async () => {
  const name = 'upgrade-v4';
  const v3 = new Dexie(name);
  v3.version(3).stores({ pages: 'key, scope, savedAt', outbox: '++seq, &id, userEmail, status, scope, target', chunks: '[page+chunk], page', marks: 'key, userEmail' });
  const lines = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, material_code: `M${i}`, quantity: i }));
  const kept = lines.filter((l) => l.id !== 7);
  await v3.table('pages').put({
    key: 'u|sheet',
    scope: 'stock-count:1',
    savedAt: 9,
    data: { stock_count: { id: 1 }, part: { id: 4 }, ids: lines.map((l) => (l.id === 7 ? null : l.id)) },
  });
  await v3.table('chunks').bulkPut([
    { page: 'u|sheet', chunk: 0, rows: kept.slice(0, 249) },
    { page: 'u|sheet', chunk: 1, rows: kept.slice(249) },
  ]);
  await v3.table('pages').put({ key: 'u|tracking', scope: 'tracking', savedAt: 5, data: { ids: [1, 2], rows: [] } });
  await v3.table('outbox').add({ id: 'k1', userEmail: 'u', status: 'pending', scope: 'stock-count:1', target: 'line:8', kind: 'material-count.quantity' });
  v3.close();

  const v5 = new OfflineDatabase(name);
  expect((await v5.pages.get('u|sheet'))?.data).toEqual({ stock_count: { id: 1 }, part: { id: 4 } });
  // A page that is not a count keeps what it had, an `ids` field included.
  expect((await v5.pages.get('u|tracking'))?.data).toEqual({ ids: [1, 2], rows: [] });
  const chunks = await v5.chunks.where('page').equals('u|sheet').sortBy('chunk');
  expect(chunks.flatMap((c) => c.rows)).toEqual(kept);
  expect((await v5.slots.get(['u|sheet', 8]))?.chunk).toBe(0);
  expect((await v5.slots.get(['u|sheet', 300]))?.chunk).toBe(1);
  expect(await v5.slots.get(['u|sheet', 7])).toBeUndefined();
  expect(await v5.slots.count()).toBe(kept.length);
  expect(await v5.outbox.count()).toBe(1);
  v5.close();
});

describe('a newer version of the app taking the database over', () => {
  it('lets go of it and tells the page, instead of its next write failing unseen', async () => {
    const name = `partstrack-versionchange-${Math.random()}`;
    const old = new OfflineDatabase(name);
    await old.open();
    const told = vi.fn();
    const target = new EventTarget();
    vi.stubGlobal('window', target);
    target.addEventListener(NEWER_DATABASE_EVENT, told);
    try {
      // Another tab opens the same database at a higher version.
      const newer = new Dexie(name);
      newer.version(100).stores({ pages: 'key' });
      await newer.open();
      expect(told).toHaveBeenCalledTimes(1);
      expect(old.isOpen()).toBe(false);
      newer.close();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
