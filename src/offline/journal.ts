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
  /** The tab that wrote it (TAB_ID), alive while it holds its Web Lock; absent from older records. */
  tab?: string;
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

/**
 * This page's id: its records carry it, and it holds a Web Lock of that name while one is open.
 * `crypto.randomUUID` needs a secure context (HTTPS or localhost), as the service worker does.
 */
const TAB_ID = crypto.randomUUID();
export const TAB_LOCK_PREFIX = 'partstrack.journal.tab.';
/**
 * A record written since this page started, this recent, whose tab holds no lock, may be one whose
 * lock is still on its way to the lock manager: left to its tab (a closed page's is replayed at
 * the next start).
 */
const JUST_WRITTEN_MS = 10_000;

const lockManager = (): (LockManager & Partial<Pick<LockManager, 'query'>>) | undefined =>
  typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { locks?: LockManager }).locks;

/** This page's records not settled yet, and the release of its tab lock once there are none. */
const ownOpen = new Set<string>();
let releaseTabLock: (() => void) | null = null;

/**
 * Holds this page's lock while it has records not settled (the browser releases a closed or
 * crashed page's locks): a record whose tab holds its lock belongs to a live tab, which settles it
 * itself; any other is a closed page's and is replayed, whatever the clocks say (decision 0019
 * addendum). Held only meanwhile, usually milliseconds: a page holding a lock is not kept in the
 * browser's back/forward cache.
 */
function holdTabLock(): void {
  if (releaseTabLock) return;
  const held = new Promise<void>((resolve) => {
    releaseTabLock = resolve;
  });
  try {
    void lockManager()
      ?.request(TAB_LOCK_PREFIX + TAB_ID, () => held)
      .catch(() => undefined);
  } catch {
    // No Web Locks here: records are judged by time alone.
  }
}

function ownSettled(id: string): void {
  if (!ownOpen.delete(id) || ownOpen.size > 0 || !releaseTabLock) return;
  const release = releaseTabLock;
  releaseTabLock = null;
  release();
}

/**
 * The tabs alive now with records open (their locks held or asked for), or null where the browser
 * cannot tell: records are then judged by time, as before tabs were named.
 */
async function liveTabs(): Promise<Set<string> | null> {
  const locks = lockManager();
  if (!locks?.query) return null;
  try {
    const { held = [], pending = [] } = await locks.query();
    return new Set([...held, ...pending].flatMap((lock) => (lock.name?.startsWith(TAB_LOCK_PREFIX) ? [lock.name.slice(TAB_LOCK_PREFIX.length)] : [])));
  } catch {
    return null;
  }
}

/** A replay that failed is said in the console; its records stay for the next start. */
export const warnReplayFailed = (error: unknown): void => console.warn('Changes of a closed page could not be queued again', error);

/** Tabs whose release this page waits for, to replay what they leave (one wait per tab). */
const awaited = new Set<string>();

/**
 * Replays once `tab` has let go of its lock: its page closed (or reloaded: the old page's lock can
 * outlive it for a moment), or it settled its records itself. The browser grants the lock exactly
 * then; no clock is read.
 */
function replayWhenReleased(tab: string, replay: () => Promise<unknown>): void {
  const locks = lockManager();
  if (!locks || awaited.has(tab)) return;
  awaited.add(tab);
  try {
    void locks
      .request(TAB_LOCK_PREFIX + tab, () => {
        awaited.delete(tab);
        // Outside the lock's callback: the replay takes the replay lock, and this one is let go at once.
        setTimeout(() => void replay().catch(warnReplayFailed), 0);
      })
      .catch(() => awaited.delete(tab));
  } catch {
    awaited.delete(tab);
  }
}

export function registerReplayer(kind: string, replay: Replayer): void {
  replayers.set(kind, replay);
}

/** Writes the change down before anything asynchronous happens; returns its journal id. */
export function writeAhead(kind: string, payload: unknown): string {
  const id = crypto.randomUUID();
  ownOpen.add(id);
  holdTabLock();
  try {
    storage()?.setItem(PREFIX + id, JSON.stringify({ kind, at: Date.now(), tab: TAB_ID, payload } satisfies Record));
  } catch {
    // Storage full or refused: the outbox write that follows is still the durable copy.
  }
  return id;
}

/** The change is in the outbox (or was refused with a message): the journal forgets it. */
export function settle(id: string): void {
  storage()?.removeItem(PREFIX + id);
  ownSettled(id);
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
  moot.forEach((key) => {
    store.removeItem(key);
    ownSettled(key.slice(PREFIX.length));
  });
}

/** Replays, oldest first, every change a closed page accepted but did not queue. */
export async function replayJournal(): Promise<number> {
  const store = storage();
  if (!store) return 0;
  // One tab at a time (Web Locks, where the browser has them): two tabs opened together read the
  // same records, and both queued each one. The second reads them after the first has replayed
  // and forgotten them.
  const run = async (): Promise<number> => {
    const locks = lockManager();
    const { replayed, leftTo } = locks ? await locks.request(REPLAY_LOCK, () => replayFrom(store)) : await replayFrom(store);
    // A live tab's records: replayed if that tab goes without settling them (closed, crashed).
    leftTo.forEach((tab) => replayWhenReleased(tab, run));
    return replayed;
  };
  return Promise.resolve().then(run);
}

/** The lock replays take, across the tabs of this origin. */
export const REPLAY_LOCK = 'partstrack.journal.replay';

async function replayFrom(store: Storage): Promise<{ replayed: number; leftTo: Set<string> }> {
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
  // Only what closed pages wrote: a record of a tab still open is its own to settle. A named tab is
  // open while its lock is held (or asked for); an unnamed record (an older version's), or any
  // where the browser cannot list locks, is judged by time: written before this page started. Time
  // alone took a closed page's record for a live tab's after the device's clock was set back,
  // until the clock caught up.
  const live = await liveTabs();
  const now = Date.now();
  const started = typeof performance === 'undefined' ? now : performance.timeOrigin;
  const ofLiveTab = (record: Record) =>
    record.tab && live
      ? record.tab === TAB_ID || live.has(record.tab) || (record.at >= started && now - record.at >= 0 && now - record.at < JUST_WRITTEN_MS)
      : record.at >= started;
  let replayed = 0;
  const leftTo = new Set<string>();
  for (const { id, record } of records) {
    const replay = replayers.get(record.kind);
    if (!replay || store.getItem(PREFIX + id) === null) continue;
    if (ofLiveTab(record)) {
      if (record.tab && record.tab !== TAB_ID && live?.has(record.tab)) leftTo.add(record.tab);
      continue;
    }
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
    ownSettled(id);
  }
  return { replayed, leftTo };
}
