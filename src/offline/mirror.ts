/**
 * The page mirror: network first, the saved copy when the network fails. Every good answer is
 * written under its query key with a `savedAt` stamp, behind the answer (the screen does not wait
 * for the disk), once the first screen is drawn (lib/after-first-screen.ts). Pages the user changes offline (a count sheet) keep their own copy, written with
 * the queued changes on top (features/stock-count/offline/count-sheet.ts).
 *
 * The saved copy also answers when the server says "not now" (408, 429, 502, 503, 504: an
 * outage, e.g. its database away, decision 0064) and when the network has given no answer for
 * `NO_ANSWER_YET_MS` (a stalled connection hangs until ky's 30 s time-out); without a saved copy
 * the screen gets the call's own outcome, as before. The call that goes on after the copy was
 * shown replaces it with its answer, or makes its refusal the screen's error, unless something
 * newer reached the screen meanwhile (`stillShown`); a newer read or the screen leaving aborts it
 * (offline/use-mirrored-query.ts).
 *
 * Pruning: every search text and page number is a key of its own, so after each save the saved
 * pages of the same user and scope are cut to the `KEPT_PAGES_PER_SCOPE` most recently saved, in
 * a transaction of their own whose failure costs nothing. A count rule, not an age rule: a page
 * last opened months ago may be the only copy a screen has offline, but 200 per scope bounds the
 * device. Never pruned: a scope of the user with changes in the outbox (their pages carry what
 * the server has not confirmed yet), and any page with slices (`chunks`, `slots`, a `slices`
 * stamp: a count sheet, which sits alone in its own `stock-count:<id>` scope anyway). `chunks`
 * and `slots` are never touched.
 */
import type { MirrorPage } from './db';
import { HTTPError } from 'ky';
import { deviceDb, type DeviceDb } from './device-db';
import { afterFirstScreen } from '../lib/after-first-screen';
import { nextNoAnswer } from '../lib/no-answer';
import { GATEWAY_STATUSES, guardQuota, isNetworkFailure, isOffline } from './errors';

/** How long a mirrored read waits for the network before it shows the saved copy (the call goes on). */
export const NO_ANSWER_YET_MS = 4000;

/** Saved pages kept per user and scope (see the header). */
export const KEPT_PAGES_PER_SCOPE = 200;

/**
 * The server answered "not now" (time-out, too many requests, a gateway or the server itself
 * unavailable): an outage, not a refusal, so the saved copy may stand in for the answer.
 */
const NOT_NOW_STATUSES: ReadonlySet<number> = new Set([408, 429, ...GATEWAY_STATUSES]);
export const isNotNowAnswer = (error: unknown): boolean => error instanceof HTTPError && NOT_NOW_STATUSES.has(error.response.status);

export interface Mirrored<T> {
  data: T;
  savedAt: number;
  /** 'network': just fetched; 'mirror': the network failed and this is the saved copy. */
  source: 'network' | 'mirror';
}

export class NothingSavedError extends Error {
  constructor() {
    super('You are offline and this screen has not been saved on this device yet.');
    this.name = 'NothingSavedError';
  }
}

export const mirrorKey = (userEmail: string, queryKey: readonly unknown[]) => `${userEmail}|${JSON.stringify(queryKey)}`;

/**
 * Copies of answers not yet written, by key (the latest answer of a key wins): until the first
 * screen is drawn they wait here, then go to the device in one transaction.
 */
const unsaved = new Map<string, MirrorPage>();

export async function readMirror<T>(key: string): Promise<MirrorPage & { data: T } | undefined> {
  const waiting = unsaved.get(key);
  if (waiting) return waiting as MirrorPage & { data: T };
  return (await (await deviceDb()).pages.get(key)) as (MirrorPage & { data: T }) | undefined;
}

/**
 * Writes the copies still waiting for the first screen. A transaction that reads or patches saved
 * pages (a queued change's `apply`, the sync's `confirm`) calls it first, so a copy written later
 * can never put back what that transaction changed. A copy that cannot be saved (a full disk)
 * costs only the offline copy, and is said in the console; a full disk also sets the shell's
 * "storage full" banner (guardQuota, storage-state.ts), so the mechanic hears of it while there
 * is still a connection, not in the basement.
 */
export async function saveWaitingCopies(): Promise<void> {
  if (unsaved.size === 0) return;
  const pages = [...unsaved.values()];
  unsaved.clear();
  let db: DeviceDb;
  try {
    db = await deviceDb();
    await guardQuota(() => db.pages.bulkPut(pages));
  } catch (error) {
    console.warn(`The offline copies of ${pages.map((page) => page.key).join(', ')} were not saved:`, error);
    return;
  }
  // Behind the save, not awaited: a change waiting for the copies (outbox.ts) does not wait for this.
  const kinds = new Map(pages.flatMap((page) => {
    const userEmail = userOf(page.key);
    return userEmail === undefined ? [] : [[`${userEmail}|${page.scope}`, { userEmail, scope: page.scope }] as const];
  }));
  for (const { userEmail, scope } of kinds.values()) {
    void pruneSavedPages(db, userEmail, scope).catch((error: unknown) => console.warn(`Old offline copies of ${scope} were not pruned:`, error));
  }
}

/** The user part of a mirror key (`mirrorKey`); none for a key made otherwise. */
function userOf(key: string): string | undefined {
  const bar = key.indexOf('|');
  return bar < 0 ? undefined : key.slice(0, bar);
}

/**
 * Deletes the user's saved pages of `scope` beyond the `KEPT_PAGES_PER_SCOPE` most recently saved
 * (the rule and what is never deleted: the header). Its own transaction; the caller ignores failures.
 */
async function pruneSavedPages(db: DeviceDb, userEmail: string, scope: string): Promise<void> {
  await db.transaction('rw', db.pages, db.outbox, db.chunks, db.slots, async () => {
    // Nearly always: few pages in the scope, an index count and nothing more.
    if ((await db.pages.where('scope').equals(scope).count()) <= KEPT_PAGES_PER_SCOPE) return;
    const prefix = `${userEmail}|`;
    const mine = new Set((await db.pages.where('scope').equals(scope).primaryKeys()).filter((key) => key.startsWith(prefix)));
    if (mine.size <= KEPT_PAGES_PER_SCOPE) return;
    if ((await db.outbox.where('scope').equals(scope).filter((entry) => entry.userEmail === userEmail).count()) > 0) return;
    // Keys only, oldest first (the savedAt index): no page's data is read to order them.
    const byAge = (await db.pages.orderBy('savedAt').primaryKeys()).filter((key) => mine.has(key));
    const oldest = byAge.slice(0, byAge.length - KEPT_PAGES_PER_SCOPE);
    const sliced = new Set<string>([
      ...((await db.chunks.where('page').anyOf(oldest).keys()) as string[]),
      ...((await db.slots.where('page').anyOf(oldest).keys()) as string[]),
    ]);
    const stamped = new Set((await db.pages.bulkGet(oldest)).flatMap((page) => (page?.slices === undefined ? [] : [page.key])));
    const gone = oldest.filter((key) => !sliced.has(key) && !stamped.has(key));
    if (gone.length > 0) await db.pages.bulkDelete(gone);
  });
}

export interface NetworkFirstOptions<T> {
  key: string;
  scope: string;
  fetcher: () => Promise<T>;
  /** The server's answer when it came after the saved copy was shown (see `answerOrSavedCopy`). */
  onLateAnswer?: (fresh: Mirrored<T>) => void;
  /**
   * The server's refusal when it came after the saved copy was shown (a 404, 403, 401, a count
   * handed to someone else): the screen must hear of it. Not a failure for want of a network nor a
   * "not now" answer: the saved copy stands for those.
   */
  onLateFailure?: (error: unknown) => void;
  /**
   * Whether the saved copy is still what the screen shows (nothing newer came meanwhile): asked
   * when the late outcome comes; false drops it, and a late answer is then not saved either
   * (an older answer must not overwrite a newer one, on the screen or on the device).
   */
  stillShown?: () => boolean;
}

const NO_ANSWER = Symbol('no answer');

/** A late failure the screen must hear of: not a lost connection, a "not now" or an abort. */
const isLateRefusal = (error: unknown): boolean =>
  !isNetworkFailure(error) && !isNotNowAnswer(error) && !(error instanceof Error && error.name === 'AbortError');

/**
 * The fresh answer, or, at the first sign that the network gives no answer while the call is
 * still being retried (§5's waits add up to 8.4 s; lib/no-answer.ts), or when it has given none
 * for `NO_ANSWER_YET_MS` (a stalled connection: one bar of signal, a request that hangs until
 * ky's 30 s time-out), the device's saved copy at once: a mechanic whose phone claims a
 * connection in a basement sees their data in a moment, not after nine or thirty seconds (#22).
 * Without a saved copy the call is waited for as before. When the saved copy was shown, the call
 * goes on and `late` receives its answer; `lateFailure`, when given, its refusal (anything but
 * a network failure, a "not now" answer or an abort: a count handed to someone else, a 404, a
 * 401), which is otherwise dropped. A "not now" answer of the server (`isNotNowAnswer`) is
 * answered by the saved copy too; without one its error is thrown as it came.
 */
export async function answerOrSavedCopy<T, S>(
  fetching: Promise<T>,
  readSaved: () => Promise<S | undefined>,
  late: (fresh: T) => void,
  lateFailure?: (error: unknown) => void,
): Promise<{ fresh: T } | { saved: S }> {
  const noAnswer = nextNoAnswer();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const noAnswerYet = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => resolve(NO_ANSWER), NO_ANSWER_YET_MS);
  });
  try {
    let saved: S | undefined;
    try {
      let first = await Promise.race([fetching, noAnswer.reported.then((): typeof NO_ANSWER => NO_ANSWER), noAnswerYet]);
      if (first !== NO_ANSWER) return { fresh: first };
      saved = await readSaved();
      if (saved === undefined) return { fresh: await fetching };
      // The call may have answered while the device was read: its answer, not the older copy
      // (handed to `late`, it would reach the screen before the copy and be overwritten by it).
      first = await Promise.race<T | typeof NO_ANSWER>([fetching, NO_ANSWER]);
      if (first !== NO_ANSWER) return { fresh: first };
    } catch (error) {
      if (!isNotNowAnswer(error)) throw error;
      saved ??= await readSaved();
      if (saved === undefined) throw error;
      return { saved };
    }
    fetching.then(late, (error: unknown) => {
      if (isLateRefusal(error)) lateFailure?.(error);
    });
    return { saved };
  } finally {
    noAnswer.stop();
    clearTimeout(timer);
  }
}

/** Saves a copy of `data` under `key`, stamped `savedAt`; resolves once it is stored. */
export async function writeMirror<T>({ key, scope }: Pick<NetworkFirstOptions<T>, 'key' | 'scope'>, data: T, savedAt = Date.now()): Promise<Mirrored<T>> {
  unsaved.delete(key);
  await guardQuota(async () => (await deviceDb()).pages.put({ key, scope, savedAt, data }));
  return { data, savedAt, source: 'network' };
}

/**
 * The server's answer goes to the screen at once and its copy is saved behind it (#22). Waiting
 * for the disk first put the database's opening and a flushed write between every answer of a
 * start (profile, permissions, the first list) and its screen; saving at once still fetched and
 * ran the database's chunk before the first list. Until the copy is written, `readMirror` answers
 * from it, and `saveWaitingCopies` writes it ahead of any transaction on saved pages.
 */
function saveBehind<T>({ key, scope }: Pick<NetworkFirstOptions<T>, 'key' | 'scope'>, data: T): Mirrored<T> {
  const savedAt = Date.now();
  const first = unsaved.size === 0;
  // A newer answer of the key replaces the waiting one: it goes to the end, as if made now.
  unsaved.delete(key);
  unsaved.set(key, { key, scope, savedAt, data });
  if (first) void afterFirstScreen().then(saveWaitingCopies);
  return { data, savedAt, source: 'network' };
}

export async function networkFirst<T>(options: NetworkFirstOptions<T>): Promise<Mirrored<T>> {
  if (!isOffline()) {
    try {
      const outcome = await answerOrSavedCopy(
        options.fetcher(),
        () => readMirror<T>(options.key),
        (data) => {
          // Something newer reached the screen meanwhile: this older answer is dropped, unsaved.
          if (options.stillShown?.() === false) return;
          options.onLateAnswer?.(saveBehind(options, data));
        },
        (error) => {
          if (options.stillShown?.() !== false) options.onLateFailure?.(error);
        },
      );
      if ('fresh' in outcome) return saveBehind(options, outcome.fresh);
      return { data: outcome.saved.data, savedAt: outcome.saved.savedAt, source: 'mirror' };
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
    }
  }
  const saved = await readMirror<T>(options.key);
  if (!saved) throw new NothingSavedError();
  return { data: saved.data, savedAt: saved.savedAt, source: 'mirror' };
}
