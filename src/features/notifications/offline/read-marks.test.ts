/** §8: a failed read mark is only logged — the outbox drops it instead of asking the user (#19 item 11). */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { offlineDb } from '../../../offline/db';
import { runRound, type Answer, type SyncDeps } from '../../../offline/sync';
import { queueReadMark } from '../api/notifications';
import './register';

const USER = 'mechanic@example.com';

function answering(answer: Answer): SyncDeps {
  return { send: async () => answer, sleep: async () => undefined };
}

describe('read marks in the outbox', () => {
  beforeEach(async () => {
    await offlineDb.outbox.clear();
  });
  afterEach(() => vi.restoreAllMocks());

  it('drops a refused read mark and logs it, so nothing waits for the user', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await queueReadMark(USER, 'email', 41);
    const result = await runRound(USER, answering({ status: 404, body: { message: 'No email notification 41' }, message: 'No email notification 41' }));
    expect(result.stoppedBy).toBe('empty');
    expect(await offlineDb.outbox.count()).toBe(0);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('No email notification 41'));
  });

  it('keeps a read mark the server could not be reached for', async () => {
    await queueReadMark(USER, 'sms', 7);
    const deps: SyncDeps = { send: async () => Promise.reject(new TypeError('Failed to fetch')), sleep: async () => undefined };
    await runRound(USER, deps);
    expect(await offlineDb.outbox.count()).toBe(1);
  });
});
