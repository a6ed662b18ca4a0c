/** The device database's upgrade path: a v1 copy of a count is readable after the v2 upgrade. */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { expect, it } from 'vitest';
import { OfflineDatabase } from './db';

it('moves the lines of a count saved by v1 into slices, keeping the count and the order', async () => {
  const name = 'upgrade-check';
  const v1 = new Dexie(name);
  v1.version(1).stores({ pages: 'key, scope, savedAt', outbox: '++seq, &id, userEmail, status, scope, target' });
  const lines = Array.from({ length: 600 }, (_, i) => ({ id: i + 1, material_code: `M${i}`, quantity: i % 2 ? i : null }));
  await v1.table('pages').put({ key: 'u|sheet', scope: 'stock-count:1', savedAt: 123, data: { stock_count: { id: 1 }, material_counts: lines } });
  await v1.table('pages').put({ key: 'u|profile', scope: 'session', savedAt: 5, data: { email: 'u' } });
  v1.close();

  const v2 = new OfflineDatabase(name);
  const page = await v2.pages.get('u|sheet');
  expect(page?.data).toEqual({ stock_count: { id: 1 }, ids: lines.map((l) => l.id) });
  const chunks = await v2.chunks.where('page').equals('u|sheet').sortBy('chunk');
  expect(chunks.map((c) => c.rows.length)).toEqual([250, 250, 100]);
  expect(chunks.flatMap((c) => c.rows)).toEqual(lines);
  expect((await v2.pages.get('u|profile'))?.data).toEqual({ email: 'u' });
  v2.close();
});
