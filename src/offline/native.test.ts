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
      const after = slot(1, (before!.row as { quantity: number }).quantity + 4);
      const entry = { id: 'k1', userEmail: 'u', kind: 'k', scope: 's', target: 'line:1', request: { service: 'stock' as const, method: 'PUT' as const, path: 'p' }, status: 'pending' as const, createdAt: 1, attempts: 0 };
      const [, seq] = await Promise.all([requested(tx.objectStore('slots').put(after)), requested(tx.objectStore('outbox').add(entry))]);
      return { value: 'done', wrote: [{ table: 'slots' as const, before: before!, after }, { table: 'outbox' as const, after: { ...entry, seq } }] };
    });
    expect(written).toBe('done');
    await until(() => watch.seen.at(-1)?.[0] === 5);
    expect(await offlineDb.outbox.count()).toBe(1);
  } finally {
    watch.stop();
  }
});

it('wakes the live queries that read what it wrote, not the others', async () => {
  await offlineDb.slots.bulkPut([slot(1, 1), { ...slot(2, 2), page: 'other', edited: 'other' }]);
  const watch = watchSlots();
  const others: number[] = [];
  const other = liveQuery(() => offlineDb.slots.where('edited').equals('other').toArray()).subscribe((slots) => others.push(slots.length));
  try {
    await until(() => watch.seen.length === 1 && others.length === 1);
    await nativeChange(['slots'], async (tx) => {
      const after = slot(1, 7);
      await requested(tx.objectStore('slots').put(after));
      return { value: 'done', wrote: [{ table: 'slots' as const, before: slot(1, 1), after }] };
    });
    await until(() => watch.seen.at(-1)?.[0] === 7);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(others).toEqual([1]);
  } finally {
    watch.stop();
    other.unsubscribe();
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
      return { value: 'written', wrote: [] };
    }),
  ).rejects.toThrow();
  expect((await offlineDb.slots.get(['sheet', 1]))!.row).toEqual({ id: 1, quantity: 1 });
  expect(await offlineDb.outbox.count()).toBe(1);
});

it('is an error, not a decline, when the transaction finished before the change declined', async () => {
  await expect(
    nativeChange(['slots'], async (tx) => {
      await requested(tx.objectStore('slots').put(slot(3, 3)));
      // Waiting for anything but its own requests lets the transaction commit.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return undefined;
    }),
  ).rejects.toThrow(/after its transaction had finished/);
});

it('goes the general way when the connection was closed under Dexie', async () => {
  await offlineDb.open();
  offlineDb.backendDB().close();
  expect(await nativeChange(['slots'], async () => ({ value: 'written', wrote: [] }))).toBeUndefined();
});
