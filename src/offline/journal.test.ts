/**
 * The write-ahead journal (decision 0019): what a closed page accepted and did not queue is
 * replayed at the next start, and a replay that could not queue it (storage full, the database
 * closed) keeps it for the start after, up to a few tries, instead of forgetting it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPLAY_LOCK, TAB_LOCK_PREFIX, registerReplayer, replayJournal, settle, settleEarlier, writeAhead } from './journal';
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
    const locks = new FakeLocks();
    vi.stubGlobal('navigator', { locks });
    const replayed: unknown[] = [];
    registerReplayer('test.twice', async (payload) => {
      await new Promise((resolve) => setTimeout(resolve, 5)); // the outbox write takes a moment
      replayed.push(payload);
    });
    // Left by a page that closed before queuing it.
    localStorage.setItem('partstrack.journal.closed-1', JSON.stringify({ kind: 'test.twice', at: Date.now() - 1000, tab: 'closed-tab', payload: { n: 1 } }));
    const counts = await Promise.all([replayJournal(), replayJournal()]);
    expect(replayed).toEqual([{ n: 1 }]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(locks.requested.filter((name) => name === REPLAY_LOCK)).toHaveLength(2);
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
    const writtenBy = (tab: string, at: number, payload: unknown) =>
      localStorage.setItem(`partstrack.journal.${crypto.randomUUID()}`, JSON.stringify({ kind: 'test.tab', at, tab, payload }));
    const replayedOf = () => {
      const replayed: unknown[] = [];
      registerReplayer('test.tab', async (payload) => replayed.push(payload));
      return replayed;
    };

    it('replays a closed page’s record even when the clock was set back since it was written', async () => {
      const locks = new FakeLocks();
      vi.stubGlobal('navigator', { locks });
      locks.hold(TAB_LOCK_PREFIX + 'another-tab');
      const replayed = replayedOf();
      // Written at 10:10 by a page now closed; this page started at 10:01 by a clock set back.
      writtenBy('closed-tab', Date.now() + 10 * 60_000, { n: 1 });
      expect(await replayJournal()).toBe(1);
      expect(replayed).toEqual([{ n: 1 }]);
      expect(records()).toEqual([]);
    });

    it('leaves a live tab’s record to it, replays it once that tab lets go without settling it, and leaves this page’s own', async () => {
      const locks = new FakeLocks();
      vi.stubGlobal('navigator', { locks });
      const closing = locks.hold(TAB_LOCK_PREFIX + 'closing-tab');
      locks.hold(TAB_LOCK_PREFIX + 'staying-tab');
      const replayed = replayedOf();
      writtenBy('closing-tab', Date.now() - 1000, { n: 2 });
      writtenBy('staying-tab', Date.now() - 900, { n: 3 });
      writeAhead('test.tab', { n: 4 });
      expect(await replayJournal()).toBe(0);
      expect(replayed).toEqual([]);
      expect(records()).toHaveLength(3);
      // The closing tab's page goes (closed, or reloaded: its lock outlived it a moment).
      closing();
      await vi.waitFor(() => expect(replayed).toEqual([{ n: 2 }]));
      expect(records()).toHaveLength(2);
    });

    it('holds this page’s lock, by the name its records carry, while one of them is not settled', async () => {
      const locks = new FakeLocks();
      vi.stubGlobal('navigator', { locks });
      vi.resetModules();
      const fresh = await import('./journal');
      const first = fresh.writeAhead('test.tab', { n: 10 });
      const second = fresh.writeAhead('test.tab', { n: 11 });
      const { tab } = JSON.parse(localStorage.getItem(`partstrack.journal.${first}`)!) as { tab: string };
      await vi.waitFor(() => expect(locks.isHeld(TAB_LOCK_PREFIX + tab)).toBe(true));
      expect(locks.requested).toEqual([TAB_LOCK_PREFIX + tab]);
      fresh.settle(first);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(locks.isHeld(TAB_LOCK_PREFIX + tab)).toBe(true);
      fresh.settle(second);
      await vi.waitFor(() => expect(locks.isHeld(TAB_LOCK_PREFIX + tab)).toBe(false));
      // The next record takes it again.
      fresh.writeAhead('test.tab', { n: 12 });
      await vi.waitFor(() => expect(locks.isHeld(TAB_LOCK_PREFIX + tab)).toBe(true));
    });

    it('leaves a record written since this page started by a tab whose lock is not listed yet; replays a reloaded page’s', async () => {
      const locks = new FakeLocks();
      vi.stubGlobal('navigator', { locks });
      vi.spyOn(performance, 'timeOrigin', 'get').mockReturnValue(Date.now() - 5000);
      const replayed = replayedOf();
      writtenBy('starting-tab', Date.now() - 1000, { n: 5 });
      writtenBy('reloaded-page', Date.now() - 6000, { n: 6 });
      expect(await replayJournal()).toBe(1);
      expect(replayed).toEqual([{ n: 6 }]);
      expect(records()).toHaveLength(1);
    });

    it('judges by time a record of an older version (no tab), or any where the browser cannot list locks', async () => {
      const replayed = replayedOf();
      const locks = new FakeLocks();
      vi.stubGlobal('navigator', { locks });
      localStorage.setItem('partstrack.journal.old-1', JSON.stringify({ kind: 'test.tab', at: Date.now() - 1000, payload: { n: 7 } }));
      localStorage.setItem('partstrack.journal.old-2', JSON.stringify({ kind: 'test.tab', at: Date.now() + 10 * 60_000, payload: { n: 8 } }));
      expect(await replayJournal()).toBe(1);
      expect(replayed).toEqual([{ n: 7 }]);
      expect(records()).toEqual(['partstrack.journal.old-2']);
      // No query(): a named record of a tab that holds its lock is judged by time too.
      vi.stubGlobal('navigator', { locks: { request: locks.request.bind(locks) } });
      locks.hold(TAB_LOCK_PREFIX + 'open-tab');
      writtenBy('open-tab', Date.now() - 1000, { n: 9 });
      expect(await replayJournal()).toBe(1);
      expect(replayed).toEqual([{ n: 7 }, { n: 9 }]);
    });
  });
});

/**
 * A lock manager as the browser's, for the names the journal asks: exclusive locks granted in the
 * order asked, each held until its callback's promise settles (or `hold`'s release is called).
 */
class FakeLocks {
  readonly requested: string[] = [];
  readonly #held = new Set<string>();
  readonly #queues = new Map<string, Array<() => void>>();

  request(name: string, callback: () => unknown): Promise<unknown> {
    this.requested.push(name);
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.#held.add(name);
        Promise.resolve()
          .then(callback)
          .then(resolve, reject)
          .finally(() => this.#release(name));
      };
      this.#enqueue(name, grant);
    });
  }

  /** Another tab's lock, held until the answer is called. */
  hold(name: string): () => void {
    let release = () => undefined as void;
    void this.request(name, () => new Promise<void>((resolve) => (release = resolve)));
    return () => release();
  }

  isHeld(name: string): boolean {
    return this.#held.has(name);
  }

  async query(): Promise<{ held: Array<{ name: string; mode: string }>; pending: Array<{ name: string; mode: string }> }> {
    const pending = [...this.#queues.entries()].flatMap(([name, queue]) => queue.map(() => ({ name, mode: 'exclusive' })));
    return { held: [...this.#held].map((name) => ({ name, mode: 'exclusive' })), pending };
  }

  #enqueue(name: string, grant: () => void): void {
    if (!this.#held.has(name)) return grant();
    this.#queues.set(name, [...(this.#queues.get(name) ?? []), grant]);
  }

  #release(name: string): void {
    this.#held.delete(name);
    const [next, ...rest] = this.#queues.get(name) ?? [];
    if (rest.length > 0) this.#queues.set(name, rest);
    else this.#queues.delete(name);
    next?.();
  }
}
