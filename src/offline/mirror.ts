/**
 * The page mirror: network first, the saved copy when the network fails. Every good answer is
 * written under its query key with a `savedAt` stamp, behind the answer (the screen does not wait
 * for the disk), once the first screen is drawn (lib/after-first-screen.ts). Pages the user changes offline (a count sheet) keep their own copy, written with
 * the queued changes on top (features/stock-count/offline/count-sheet.ts).
 */
import type { MirrorPage } from './db';
import { deviceDb } from './device-db';
import { afterFirstScreen } from '../lib/after-first-screen';
import { nextNoAnswer } from '../lib/no-answer';
import { guardQuota, isNetworkFailure, isOffline } from './errors';

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
 * costs only the offline copy, and is said in the console.
 */
export async function saveWaitingCopies(): Promise<void> {
  if (unsaved.size === 0) return;
  const pages = [...unsaved.values()];
  unsaved.clear();
  try {
    const db = await deviceDb();
    await guardQuota(() => db.pages.bulkPut(pages));
  } catch (error) {
    console.warn(`The offline copies of ${pages.map((page) => page.key).join(', ')} were not saved:`, error);
  }
}

export interface NetworkFirstOptions<T> {
  key: string;
  scope: string;
  fetcher: () => Promise<T>;
  /** The server's answer when it came after the saved copy was shown (see `answerOrSavedCopy`). */
  onLateAnswer?: (fresh: Mirrored<T>) => void;
}

const NO_ANSWER = Symbol('no answer');

/**
 * The fresh answer, or, at the first sign that the network gives no answer while the call is
 * still being retried (§5's waits add up to 8.4 s; lib/no-answer.ts), the device's saved copy at
 * once: a mechanic whose phone claims a connection in a basement sees their data in a moment,
 * not after nine seconds (#22). Without a saved copy the call is waited for as before. When the
 * saved copy was shown, the call goes on and `late` receives its answer.
 */
export async function answerOrSavedCopy<T, S>(
  fetching: Promise<T>,
  readSaved: () => Promise<S | undefined>,
  late: (fresh: T) => void,
): Promise<{ fresh: T } | { saved: S }> {
  const noAnswer = nextNoAnswer();
  try {
    const first = await Promise.race([fetching, noAnswer.reported.then(() => NO_ANSWER)]);
    if (first !== NO_ANSWER) return { fresh: first as T };
    const saved = await readSaved();
    if (saved === undefined) return { fresh: await fetching };
    fetching.then(late, () => undefined);
    return { saved };
  } finally {
    noAnswer.stop();
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
        options.fetcher().then((data) => saveBehind(options, data)),
        () => readMirror<T>(options.key),
        (fresh) => options.onLateAnswer?.(fresh),
      );
      if ('fresh' in outcome) return outcome.fresh;
      return { data: outcome.saved.data, savedAt: outcome.saved.savedAt, source: 'mirror' };
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
    }
  }
  const saved = await readMirror<T>(options.key);
  if (!saved) throw new NothingSavedError();
  return { data: saved.data, savedAt: saved.savedAt, source: 'mirror' };
}
