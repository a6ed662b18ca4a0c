/**
 * A change written on the device database directly (native.ts, #22): all or nothing, and the
 * screens' live queries hear of it as of a write through Dexie, reading the database again.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { liveQuery, offlineDb, type LineSlot } from './db';
import { nativeChange, requested } from './native';

beforeEach(async () => {
  await Promise.all([offlineDb.slots.clear(), offlineDb.outbox.clear()]);
});
afterEach(() => offlineDb.close({ disableAutoOpen: false }));

const slot = (id: number, quantity: number): LineSlot => ({ page: 'sheet', id, chunk: 0, row: { id, quantity }, edited: 'sheet' });

/** Every answer of a live query of the lines on their slots, as the screen would see them. */
function watchSlots() {
  const seen: number[][] = [];
  const subscription = liveQuery(() => offlineDb.slots.where('edited').equals('sheet').toArray()).subscribe((slots) =>
    seen.push(slots.map((s) => (s.row as { quantity: number }).quantity)),
  );
  return { seen, stop: () => subscription.unsubscribe() };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

it('writes all of a change in one transaction, and a live query reads the database again after it', async () => {
  await offlineDb.slots.put(slot(1, 1));
  const watch = watchSlots();
  try {
    await until(() => watch.seen.length === 1);
    // A query answered once, then the slot changed on the database directly: the next answer is read anew.
    const written = await nativeChange(['slots', 'outbox'], async (tx) => {
      const before = await requested<LineSlot | undefined>(tx.objectStore('slots').get(['sheet', 1]));
      await Promise.all([
        requested(tx.objectStore('slots').put(slot(1, (before!.row as { quantity: number }).quantity + 4))),
        requested(tx.objectStore('outbox').add({ id: 'k1', userEmail: 'u', kind: 'k', scope: 's', target: 'line:1', request: { service: 'stock', method: 'PUT', path: 'p' }, status: 'pending', createdAt: 1, attempts: 0 })),
      ]);
      return 'done';
    });
    expect(written).toBe('done');
    await until(() => watch.seen.at(-1)?.[0] === 5);
    expect(await offlineDb.outbox.count()).toBe(1);
  } finally {
    watch.stop();
  }
});

it('writes nothing when the change answers undefined (the general way takes it) or fails half-way', async () => {
  await offlineDb.slots.put(slot(1, 1));
  const declined = await nativeChange(['slots'], async (tx) => {
    await requested(tx.objectStore('slots').put(slot(1, 9)));
    return undefined;
  });
  expect(declined).toBeUndefined();
  expect((await offlineDb.slots.get(['sheet', 1]))!.row).toEqual({ id: 1, quantity: 1 });

  // The slot is written, then the entry is refused (its key is taken): neither is kept.
  await offlineDb.outbox.add({ id: 'taken', userEmail: 'u', kind: 'k', scope: 's', target: 't', request: { service: 'stock', method: 'PUT', path: 'p' }, status: 'pending', createdAt: 1, attempts: 0 });
  await expect(
    nativeChange(['slots', 'outbox'], async (tx) => {
      await requested(tx.objectStore('slots').put(slot(1, 9)));
      await requested(tx.objectStore('outbox').add({ id: 'taken', userEmail: 'u', kind: 'k', scope: 's', target: 't', request: { service: 'stock', method: 'PUT', path: 'p' }, status: 'pending', createdAt: 2, attempts: 0 }));
      return 'written';
    }),
  ).rejects.toThrow();
  expect((await offlineDb.slots.get(['sheet', 1]))!.row).toEqual({ id: 1, quantity: 1 });
  expect(await offlineDb.outbox.count()).toBe(1);
});

it('goes the general way when Dexie has closed the connection (an upgrade in another tab)', async () => {
  await offlineDb.open();
  offlineDb.backendDB().close();
  expect(await nativeChange(['slots'], async () => 'written')).toBeUndefined();
});
