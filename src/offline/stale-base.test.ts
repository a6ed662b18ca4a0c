/**
 * A change refused because what it was based on changed meanwhile (409 `…ChangedMeanwhile`,
 * decision 0068) is marked so: the same request would be refused again, so the screens offer
 * Discard, not Retry. Other refusals keep Retry.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { offlineDb, type OutboxEntry } from './db';
import { retryEntry } from './outbox';
import { refusedAsStale, runRound, type Answer, type SyncDeps } from './sync';

const USER = 'supervisor@example.com';

beforeEach(async () => {
  await offlineDb.outbox.clear();
});
afterEach(() => offlineDb.close({ disableAutoOpen: false }));

const entry = (id: string): OutboxEntry => ({
  id,
  userEmail: USER,
  kind: 'test-kind',
  scope: 'test',
  target: `count:${id}`,
  request: { service: 'stock', method: 'PUT', path: 'my_stock_count' },
  status: 'pending',
  createdAt: Date.now(),
  attempts: 0,
});

const answering = (answer: Answer): SyncDeps => ({ send: async () => answer, sleep: async () => undefined });

it('tells a stale base from other refusals', () => {
  expect(refusedAsStale({ status: 409, body: { code: 'countChangedMeanwhile', message: 'x' }, message: 'x' })).toBe(true);
  expect(refusedAsStale({ status: 409, body: { code: 'mergeDecidedMeanwhile', message: 'x' }, message: 'x' })).toBe(true);
  expect(refusedAsStale({ status: 409, body: { code: 'recountOpen', message: 'x' }, message: 'x' })).toBe(false);
  expect(refusedAsStale({ status: 400, body: { code: 'countChangedMeanwhile', message: 'x' }, message: 'x' })).toBe(false);
  expect(refusedAsStale({ status: 409, body: 'countChangedMeanwhile', message: 'x' })).toBe(false);
});

it('marks a change refused as stale, keeps the mark off other failures, and a retry clears it', async () => {
  await offlineDb.outbox.add(entry('a'));
  await runRound(USER, answering({ status: 409, body: { code: 'countChangedMeanwhile', message: 'changed' }, message: 'changed' }));
  const [stale] = await offlineDb.outbox.toArray();
  expect(stale).toMatchObject({ status: 'failed', staleBase: true });

  await offlineDb.outbox.clear();
  await offlineDb.outbox.add(entry('b'));
  await runRound(USER, answering({ status: 409, body: { code: 'recountOpen', message: 'open' }, message: 'open' }));
  const [other] = await offlineDb.outbox.toArray();
  expect(other).toMatchObject({ status: 'failed' });
  expect(other!.staleBase).toBeUndefined();

  await offlineDb.outbox.update(other!.seq!, { staleBase: true });
  await retryEntry(other!.seq!);
  expect((await offlineDb.outbox.get(other!.seq!))!.staleBase).toBeUndefined();
});
