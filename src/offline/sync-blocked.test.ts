/**
 * The outbox waits for a new sign-in when the server answers 401 after renewal failed: the shell
 * reads it (sync-blocked.ts) and says so; the next delivered change or an empty outbox clears it.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { offlineDb, type OutboxEntry } from './db';
import { runRound, type Answer, type SyncDeps } from './sync';
import { isSyncBlocked } from './sync-blocked';

const USER = 'mechanic@example.com';

beforeEach(async () => {
  await offlineDb.outbox.clear();
});
afterEach(() => offlineDb.close({ disableAutoOpen: false }));

const entry = (id: string): OutboxEntry => ({
  id,
  userEmail: USER,
  kind: 'test-kind',
  scope: 'test',
  target: `line:${id}`,
  request: { service: 'stock', method: 'PUT', path: 'my_material_count' },
  status: 'pending',
  createdAt: Date.now(),
  attempts: 0,
});

const answering = (status: number): SyncDeps => ({
  send: async (): Promise<Answer> => ({ status, body: {}, message: status === 401 ? 'Unauthorized' : 'OK' }),
  sleep: async () => undefined,
});

it('is blocked by a 401, keeps the change, and is cleared by the next delivered change', async () => {
  await offlineDb.outbox.add(entry('a'));
  const refused = await runRound(USER, answering(401));
  expect(refused.stoppedBy).toBe('auth');
  expect(isSyncBlocked(USER)).toBe(true);
  expect(isSyncBlocked('someone.else@example.com')).toBe(false);
  expect(await offlineDb.outbox.count()).toBe(1);
  // Offline meanwhile: still waiting for the sign-in, not cleared by a network stop.
  await runRound(USER, { send: async () => Promise.reject(new TypeError('Failed to fetch')), sleep: async () => undefined });
  expect(isSyncBlocked(USER)).toBe(true);
  await runRound(USER, answering(200));
  expect(isSyncBlocked(USER)).toBe(false);
});

it('is cleared when nothing waits any more', async () => {
  await offlineDb.outbox.add(entry('b'));
  await runRound(USER, answering(401));
  expect(isSyncBlocked(USER)).toBe(true);
  await offlineDb.outbox.clear();
  await runRound(USER, answering(401));
  expect(isSyncBlocked(USER)).toBe(false);
});

it('keeps changes waiting, none failed, while the account is refused (403 User expired), and sends them once it is extended', async () => {
  await offlineDb.outbox.bulkAdd([entry('c'), entry('d')]);
  const expired: SyncDeps = { send: async (): Promise<Answer> => ({ status: 403, body: { message: 'User expired' }, message: 'User expired' }), sleep: async () => undefined };
  const refused = await runRound(USER, expired);
  expect(refused.stoppedBy).toBe('auth');
  const waiting = await offlineDb.outbox.toArray();
  expect(waiting.map((e) => e.status).filter((status) => status === 'failed')).toEqual([]);
  expect(waiting).toHaveLength(2);
  // A 403 of the change itself is still the change's refusal.
  await runRound(USER, answering(200));
  expect(await offlineDb.outbox.count()).toBe(0);
  await offlineDb.outbox.add(entry('e'));
  await runRound(USER, { send: async (): Promise<Answer> => ({ status: 403, body: { message: 'You do not see plant DE02' }, message: 'You do not see plant DE02' }), sleep: async () => undefined });
  expect((await offlineDb.outbox.toArray()).map((e) => e.status)).toEqual(['failed']);
});
