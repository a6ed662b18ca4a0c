/**
 * The write-ahead journal (decision 0019): what a closed page accepted and did not queue is
 * replayed at the next start, and a replay that could not queue it (storage full, the database
 * closed) keeps it for the start after, up to a few tries, instead of forgetting it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPLAY_LOCK, registerReplayer, replayJournal, settle, settleEarlier, writeAhead } from './journal';
import { MemoryStorage } from '../../tests/setup/memory-storage';

const records = () => Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));

beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage());
  // Records are replayed only when a page before this one wrote them.
  vi.spyOn(performance, 'timeOrigin', 'get').mockReturnValue(Date.now() + 60_000);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('journal', () => {
  it('forgets a settled change and replays an unsettled one once', async () => {
    const replayed: unknown[] = [];
    registerReplayer('test.ok', async (payload) => replayed.push(payload));
    settle(writeAhead('test.ok', { n: 1 }));
    writeAhead('test.ok', { n: 2 });
    expect(await replayJournal()).toBe(1);
    expect(replayed).toEqual([{ n: 2 }]);
    expect(records()).toEqual([]);
  });

  it('forgets earlier records of the same thing once a later change of it was queued', async () => {
    const replayed: unknown[] = [];
    registerReplayer('test.line', async (payload) => replayed.push(payload));
    writeAhead('test.line', { line: 1, n: 5 }); // a save that failed: left unsettled
    writeAhead('test.line', { line: 2, n: 9 });
    await new Promise((resolve) => setTimeout(resolve, 2));
    settleEarlier('test.line', Date.now(), (payload) => (payload as { line: number }).line === 1);
    expect(await replayJournal()).toBe(1);
    expect(replayed).toEqual([{ line: 2, n: 9 }]);
  });

  it('replays a record once when two tabs start together (one tab at a time, by a Web Lock)', async () => {
    // A lock manager as the browser's: requests for one name run one after the other.
    let tail = Promise.resolve<unknown>(undefined);
    const names: string[] = [];
    vi.stubGlobal('navigator', {
      locks: {
        request: (name: string, callback: () => Promise<unknown>) => {
          names.push(name);
          const run = tail.then(callback);
          tail = run.catch(() => undefined);
          return run;
        },
      },
    });
    const replayed: unknown[] = [];
    registerReplayer('test.twice', async (payload) => {
      await new Promise((resolve) => setTimeout(resolve, 5)); // the outbox write takes a moment
      replayed.push(payload);
    });
    writeAhead('test.twice', { n: 1 });
    const counts = await Promise.all([replayJournal(), replayJournal()]);
    expect(replayed).toEqual([{ n: 1 }]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(names).toEqual([REPLAY_LOCK, REPLAY_LOCK]);
  });

  it('keeps a change whose replay failed for the next start, and gives it up after five tries', async () => {
    let failing = true;
    const replayed: unknown[] = [];
    registerReplayer('test.flaky', async (payload) => {
      if (failing) throw new Error('QuotaExceededError');
      replayed.push(payload);
    });
    writeAhead('test.flaky', { n: 7 });
    expect(await replayJournal()).toBe(0);
    expect(records()).toHaveLength(1);
    failing = false;
    expect(await replayJournal()).toBe(1);
    expect(replayed).toEqual([{ n: 7 }]);
    expect(records()).toEqual([]);

    failing = true;
    writeAhead('test.flaky', { n: 8 });
    for (let start = 1; start <= 4; start += 1) {
      await replayJournal();
      expect(records(), `after start ${start}`).toHaveLength(1);
    }
    await replayJournal();
    expect(records()).toEqual([]);
  });
});
