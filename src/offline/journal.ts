/**
 * A write-ahead journal for changes the screen has just accepted. IndexedDB is asynchronous: a
 * page reloaded or closed right after Enter can die before the change's transaction starts. So a
 * change is first written here, synchronously, to localStorage (kept across reloads and closed
 * tabs), then queued in the outbox, then settled. Whatever was not settled is replayed when the
 * app starts again. A replay repeats what the user did (e.g. "set this line to 7"), so playing it
 * twice changes nothing. Features register how to replay each kind.
 */
const PREFIX = 'partstrack.journal.';

type Replayer = (payload: unknown) => Promise<unknown>;
const replayers = new Map<string, Replayer>();

interface Record {
  kind: string;
  at: number;
  payload: unknown;
  /** Replays that failed (storage full, database closed): kept for the next start, up to MAX_TRIES. */
  tries?: number;
}

/** A record whose replay failed this often is given up (a defect, not a full disk, would fail for ever). */
const MAX_TRIES = 5;

/** The page's localStorage, or undefined where there is none or it is refused (private modes, tests). */
export const storage = (): Storage | undefined => {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
};

export function registerReplayer(kind: string, replay: Replayer): void {
  replayers.set(kind, replay);
}

/** Writes the change down before anything asynchronous happens; returns its journal id. */
export function writeAhead(kind: string, payload: unknown): string {
  const id = crypto.randomUUID();
  try {
    storage()?.setItem(PREFIX + id, JSON.stringify({ kind, at: Date.now(), payload } satisfies Record));
  } catch {
    // Storage full or refused: the outbox write that follows is still the durable copy.
  }
  return id;
}

/** The change is in the outbox (or was refused with a message): the journal forgets it. */
export function settle(id: string): void {
  storage()?.removeItem(PREFIX + id);
}

/**
 * A later change of the same thing was queued: the records of `kind` written before `before` that
 * `same` picks are moot (replayed, they would bring back an older value), and are forgotten. A
 * record left by a failed save (storage full) is one: the field saved the value again later.
 */
export function settleEarlier(kind: string, before: number, same: (payload: unknown) => boolean): void {
  const store = storage();
  if (!store) return;
  const moot: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    try {
      const record = JSON.parse(store.getItem(key) ?? '') as Record;
      if (record.kind === kind && record.at < before && same(record.payload)) moot.push(key);
    } catch {
      // Not ours to judge: replayJournal drops what it cannot read.
    }
  }
  moot.forEach((key) => store.removeItem(key));
}

/** Replays, oldest first, every change a closed page accepted but did not queue. */
export async function replayJournal(): Promise<number> {
  const store = storage();
  if (!store) return 0;
  // One tab at a time (Web Locks, where the browser has them): two tabs opened together read the
  // same records, and both queued each one. The second reads them after the first has replayed
  // and forgotten them.
  const locks = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? locks.request(REPLAY_LOCK, () => replayFrom(store)) : replayFrom(store);
}

/** The lock replays take, across the tabs of this origin. */
export const REPLAY_LOCK = 'partstrack.journal.replay';

async function replayFrom(store: Storage): Promise<number> {
  const records: Array<{ id: string; record: Record }> = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    try {
      records.push({ id: key.slice(PREFIX.length), record: JSON.parse(store.getItem(key) ?? '') as Record });
    } catch {
      store.removeItem(key);
    }
  }
  records.sort((a, b) => a.record.at - b.record.at);
  // Only what pages before this one wrote: a record of a tab still open is its own to settle.
  const started = typeof performance === 'undefined' ? Date.now() : performance.timeOrigin;
  let replayed = 0;
  for (const { id, record } of records) {
    const replay = replayers.get(record.kind);
    if (!replay || record.at >= started || store.getItem(PREFIX + id) === null) continue;
    try {
      await replay(record.payload);
      replayed += 1;
    } catch (error) {
      // Not queued (storage full, the database closed): kept for the next start, not forgotten.
      console.warn('A change from a closed page could not be queued again', error);
      const tries = (record.tries ?? 0) + 1;
      if (tries < MAX_TRIES) {
        try {
          store.setItem(PREFIX + id, JSON.stringify({ ...record, tries } satisfies Record));
        } catch {
          // Storage refused even this: the record stays as it was, and is tried again.
        }
        continue;
      }
    }
    // Forgotten only once queued again: a page closed during the replay plays it once more (same value).
    store.removeItem(PREFIX + id);
  }
  return replayed;
}
