/**
 * The write-ahead journal (decision 0019): what a closed page accepted and did not queue is
 * replayed at the next start, and a replay that could not queue it (storage full, the database
 * closed) keeps it for the start after, up to a few tries, instead of forgetting it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_TAB_RECHECK_MS, REPLAY_LOCK, registerReplayer, replayJournal, settle, settleEarlier, writeAhead } from './journal';
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
    const tails = new Map<string, Promise<unknown>>();
    const names: string[] = [];
    vi.stubGlobal('navigator', {
      locks: {
        request: (name: string, callback: () => Promise<unknown>) => {
          names.push(name);
          const run = (tails.get(name) ?? Promise.resolve()).then(callback);
          tails.set(name, run.catch(() => undefined));
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
    expect(names.filter((name) => name === REPLAY_LOCK)).toHaveLength(2);
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

  describe('with tabs named by their Web Locks', () => {
    const TAB_LOCK = 'partstrack.journal.tab.';
    /** The browser's lock manager as far as the journal asks it: these tabs hold their locks. */
    const liveTabs = (...tabs: string[]) =>
      vi.stubGlobal('navigator', {
        locks: {
          request: (_name: string, callback: () => Promise<unknown>) => callback(),
          query: async () => ({ held: tabs.map((tab) => ({ name: TAB_LOCK + tab, mode: 'exclusive' })), pending: [] }),
        },
      });
    const writtenBy = (tab: string, at: number, payload: unknown) =>
      localStorage.setItem(`partstrack.journal.${crypto.randomUUID()}`, JSON.stringify({ kind: 'test.tab', at, tab, payload }));

    it('replays a closed page’s record even when the clock was set back since it was written', async () => {
      const replayed: unknown[] = [];
      registerReplayer('test.tab', async (payload) => replayed.push(payload));
      liveTabs('open-tab');
      // Written at 10:10 by a page now closed; this page started at 10:01 by a clock set back.
      writtenBy('closed-tab', Date.now() + 10 * 60_000, { n: 1 });
      expect(await replayJournal()).toBe(1);
      expect(replayed).toEqual([{ n: 1 }]);
      expect(records()).toEqual([]);
    });

    it('leaves a live tab’s record, and this page’s own, to them, even when written before this page started; looks again shortly, and replays it once that tab is gone', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        const replayed: unknown[] = [];
        registerReplayer('test.tab', async (payload) => replayed.push(payload));
        liveTabs('open-tab', 'other-tab');
        writtenBy('open-tab', Date.now() - 1000, { n: 2 });
        writtenBy('other-tab', Date.now() - 900, { n: 3 });
        writeAhead('test.tab', { n: 4 });
        expect(await replayJournal()).toBe(0);
        expect(replayed).toEqual([]);
        expect(records()).toHaveLength(3);
        // A reload's old page: its lock is released a moment after the new page started. The other tab stays open.
        liveTabs('other-tab');
        await vi.advanceTimersByTimeAsync(LIVE_TAB_RECHECK_MS);
        expect(replayed).toEqual([{ n: 2 }]);
        // The open tab's record and this page's own stay for them; nothing looks again after that.
        expect(records()).toHaveLength(2);
        expect(vi.getTimerCount()).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    });

    it('judges a record of an older version (no tab) by time, as before', async () => {
      const replayed: unknown[] = [];
      registerReplayer('test.tab', async (payload) => replayed.push(payload));
      liveTabs();
      localStorage.setItem('partstrack.journal.old-1', JSON.stringify({ kind: 'test.tab', at: Date.now() - 1000, payload: { n: 5 } }));
      localStorage.setItem('partstrack.journal.old-2', JSON.stringify({ kind: 'test.tab', at: Date.now() + 10 * 60_000, payload: { n: 6 } }));
      expect(await replayJournal()).toBe(1);
      expect(replayed).toEqual([{ n: 5 }]);
      expect(records()).toEqual(['partstrack.journal.old-2']);
    });
  });
});
