/**
 * The sync engine: drains the outbox to the server, in order, from ONE tab at a time (a Web
 * Lock names the leader). It runs on start, when the browser comes online, when the app becomes
 * visible, every 30 s, right after a change is queued, and when the service worker relays a
 * Background Sync event. Each entry gets the spec's rule per round (§5: up to 3 retries, waiting
 * 20^(4 − remaining) ms): no answer or a 5xx keeps it queued and ends the round (order matters);
 * 401 is answered by the API client (one token refresh, one retry) and, if it stays, ends the
 * round; 409 with the server's rows is a conflict kept with both values; any other 4xx marks
 * the entry failed with the server's message. Nothing is ever dropped without the user.
 * A server that asks to wait (429, or a 503 with Retry-After) is left alone that long: changes
 * queued meanwhile wait on the device, and the round resumes when the time is up.
 * Entries of a batchable kind travel together (one request, one transaction on the server).
 * The core knows no feature: kinds and scope refreshers are registered (registry.ts). When the
 * outbox is drained, the scopes it confirmed are read from the server again (pull after push).
 */
import { setSyncBlocked } from './sync-blocked';
import type { KyInstance } from 'ky';
import { ACCOUNT_REFUSALS, RETRY_LIMIT, retryDelayMs } from '../domain/constants';
import { bodyMessage, partsApi, stockApi, userApi } from '../lib/api-client';
import { markUnverified, offlineDb, type OutboxEntry } from './db';
import { isGone, isNetworkFailure } from './errors';
import { saveWaitingCopies } from './mirror';
import { onEnqueue } from './outbox';
import { replayJournal, storage, warnReplayFailed } from './journal';
import { kindOf, refresherOf } from './registry';

export interface Answer {
  status: number;
  body: unknown;
  message: string;
  /** How long the server asked to wait before the next request (its Retry-After), in ms. */
  retryAfterMs?: number;
}

/** The longest wait a Retry-After may impose: past it the device tries again anyway. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;
/** The wait after a 429 that does not say how long (the rate limit's window is a minute). */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 30_000;

/** The shortest wait a Retry-After gets: "0" or a date gone by would otherwise resend in a tight loop. */
export const MIN_RETRY_AFTER_MS = 1000;

/** A Retry-After header (seconds, or an HTTP date) as ms from `now`, 1 s to 10 min; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(ms, MIN_RETRY_AFTER_MS), MAX_RETRY_AFTER_MS);
}

export interface SyncDeps {
  /** Sends one entry; resolves with the answer, rejects only when no answer came. */
  send: (entry: OutboxEntry) => Promise<Answer>;
  sleep: (ms: number) => Promise<void>;
}

export type RoundResult = {
  sent: number;
  stoppedBy: 'empty' | 'network' | 'auth';
  /** The server asked the device to wait this long before sending again. */
  retryAfterMs?: number;
};

const clients: Record<OutboxEntry['request']['service'], KyInstance> = {
  user: userApi.extend({ retry: 0, throwHttpErrors: false }),
  parts: partsApi.extend({ retry: 0, throwHttpErrors: false }),
  stock: stockApi.extend({ retry: 0, throwHttpErrors: false }),
};

async function sendOverHttp(entry: OutboxEntry): Promise<Answer> {
  const { service, method, path, searchParams, json } = entry.request;
  const response = await clients[service](path, {
    method,
    searchParams,
    json,
    headers: { 'Idempotency-Key': entry.id },
    timeout: 20_000,
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  // Worded in the user's language where the refusal carries a code the app knows (decision 0055).
  const message = bodyMessage(body) ?? (body && typeof body === 'object' && 'message' in body ? String((body as { message: unknown }).message) : text);
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  return {
    status: response.status,
    body,
    message: message || `${response.status} ${response.statusText}`,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

export const defaultDeps: SyncDeps = {
  send: sendOverHttp,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

type Attempt = { kind: 'answer'; answer: Answer } | { kind: 'unreachable'; message: string };

/** What a change that reached no server keeps as its last error: the screen words it (the browser's own text is English). */
export const NO_CONNECTION = 'No connection';

/** One entry, with the §5 retries for no answer and 5xx. */
async function attempt(entry: OutboxEntry, deps: SyncDeps): Promise<Attempt> {
  let last: Attempt = { kind: 'unreachable', message: NO_CONNECTION };
  for (let remaining = RETRY_LIMIT + 1; remaining >= 1; remaining -= 1) {
    try {
      const answer = await deps.send(entry);
      last = { kind: 'answer', answer };
      // A server that says how long to wait is not asked again at once: the round ends and waits.
      if (answer.status < 500 || answer.retryAfterMs !== undefined) return last;
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
      last = { kind: 'unreachable', message: NO_CONNECTION };
    }
    if (remaining > 1) await deps.sleep(retryDelayMs(remaining - 1));
  }
  return last;
}

/** What one step of a round sends: the entries it carries and the request on the wire. */
interface Work {
  batch: OutboxEntry[];
  wire: OutboxEntry;
}

const wireOf = (batch: OutboxEntry[], batchId: string | undefined): OutboxEntry => {
  const first = batch[0]!;
  const combine = kindOf(first.kind)?.batch?.combine;
  return batchId && combine ? { ...first, id: batchId, request: combine(batch) } : first;
};

/**
 * What to send next, taken in ONE transaction with marking it `sending`, so a change merged into
 * an entry either lands before it is taken (and travels) or finds it travelling (and queues
 * behind it): never both. A batch still marked `sending` (its answer was lost) goes again exactly
 * as it was, under the same key, so the server replays instead of applying twice. Otherwise the
 * first waiting entry, and behind it entries of the same batchable kind about other targets, up
 * to the next entry of another kind (order is kept). Entries that wait for another change stay.
 */
async function takeWork(userEmail: string, single: boolean): Promise<Work | null> {
  return offlineDb.transaction('rw', offlineDb.outbox, async () => {
    const mine = (e: OutboxEntry) => e.userEmail === userEmail;
    const inFlight = await offlineDb.outbox.where('status').equals('sending').filter(mine).sortBy('seq');
    if (inFlight.length > 0) {
      const batchId = inFlight[0]!.batchId;
      const batch = batchId ? inFlight.filter((e) => e.batchId === batchId) : [inFlight[0]!];
      return { batch, wire: wireOf(batch, batchId) };
    }
    // The first refused change of each scope: a change that concludes its scope waits behind it.
    const refused = new Map<string, number>();
    const refusedTarget = new Map<string, number>();
    for (const status of ['failed', 'conflict'] as const) {
      for (const e of await offlineDb.outbox.where('status').equals(status).filter(mine).toArray()) {
        refused.set(e.scope, Math.min(refused.get(e.scope) ?? Infinity, e.seq!));
        refusedTarget.set(e.target, Math.min(refusedTarget.get(e.target) ?? Infinity, e.seq!));
      }
    }
    const waiting = (await offlineDb.outbox.where('status').equals('pending').filter(mine).sortBy('seq')).filter((e) => {
      const kind = kindOf(e.kind);
      if (kind?.waits?.(e)) return false;
      if (kind?.afterRefused === 'target') return (refusedTarget.get(e.target) ?? Infinity) > e.seq!;
      return !(kind?.afterRefused && (refused.get(e.scope) ?? Infinity) < e.seq!);
    });
    const first = waiting[0];
    if (!first) return null;
    const batching = single ? undefined : kindOf(first.kind)?.batch;
    const batch = [first];
    if (batching) {
      const targets = new Set([first.target]);
      for (const entry of waiting.slice(1)) {
        if (entry.kind !== first.kind || targets.has(entry.target) || batch.length >= batching.limit) break;
        batch.push(entry);
        targets.add(entry.target);
      }
    }
    const batchId = batch.length > 1 ? crypto.randomUUID() : undefined;
    await offlineDb.outbox.bulkUpdate(batch.map((entry) => ({ key: entry.seq!, changes: { status: 'sending' as const, batchId } })));
    const taken = batch.map((entry) => ({ ...entry, status: 'sending' as const, batchId }));
    return { batch: taken, wire: wireOf(taken, batchId) };
  });
}

/** The server confirmed: the kind updates the mirror, and each scope's mark says its snapshots are stale. */
async function confirm(batch: OutboxEntry[], body: unknown): Promise<void> {
  // The kind's `confirm` patches saved pages: copies still waiting to be saved go first (mirror.ts).
  await saveWaitingCopies();
  // An async scope function: Dexie keeps the transaction open across its awaits.
  await offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.slots, offlineDb.outbox, offlineDb.marks, async () => {
    const handler = kindOf(batch[0]!.kind)?.confirm;
    if (handler) await handler(batch, body);
    else await offlineDb.outbox.bulkDelete(batch.map((entry) => entry.seq!));
    for (const scope of new Set(batch.map((entry) => entry.scope))) await markUnverified(batch[0]!.userEmail, scope, 1);
  });
}

/**
 * The server applied nothing: the conflicting entries wait for the user with the server's row,
 * the others go again. A conflicting entry that a later change of the same target already
 * supersedes is dropped: that later change carries the newest value and meets the conflict itself.
 */
async function holdConflicts(batch: OutboxEntry[], conflicts: Map<number, unknown>, message: string): Promise<void> {
  await offlineDb.transaction('rw', offlineDb.outbox, async () => {
    for (const entry of batch) {
      const theirs = conflicts.get(entry.seq!);
      if (theirs === undefined) {
        await offlineDb.outbox.update(entry.seq!, { status: 'pending', batchId: undefined });
        continue;
      }
      const later = await offlineDb.outbox
        .where('target')
        .equals(entry.target)
        .filter((e) => e.kind === entry.kind && e.userEmail === entry.userEmail && e.seq! > entry.seq!)
        .count();
      if (later > 0) await offlineDb.outbox.delete(entry.seq!);
      else await offlineDb.outbox.update(entry.seq!, { status: 'conflict', theirs, lastError: message, batchId: undefined });
    }
  });
}

/** Answers after which the same request goes again later: the session to renew, or the server asking to wait. */
/** Answered 500 this many rounds in a row, a request is the server's defect, not a passing outage. */
export const POISONED_AFTER = 5;
const TRY_LATER = new Set([401, 408, 429]);

/**
 * A refusal of the account, not of the change (403 "User expired", access pending or rejected):
 * the changes wait as they are, as after a 401, and go once a manager has extended or approved the
 * account. Marked failed, they needed the user's Retry one by one afterwards, and read marks were dropped.
 */
export function refusesTheAccount(answer: Answer): boolean {
  if (answer.status !== 403) return false;
  // The server's own words (§8), not the worded copy a code may have given `message`.
  const said = answer.body && typeof answer.body === 'object' && 'message' in answer.body ? String((answer.body as { message: unknown }).message) : answer.message;
  return ACCOUNT_REFUSALS.includes(said);
}

export async function runRound(userEmail: string, deps: SyncDeps = defaultDeps): Promise<RoundResult> {
  let sent = 0;
  // After a batch is refused as a whole, entries go one by one to find the one at fault.
  let single = false;
  for (;;) {
    const work = await takeWork(userEmail, single);
    if (!work) {
      setSyncBlocked(userEmail, false);
      return { sent, stoppedBy: 'empty' };
    }
    const { batch, wire } = work;
    const result = await attempt(wire, deps);
    const bump = (changes: Partial<OutboxEntry>) =>
      offlineDb.outbox.bulkUpdate(batch.map((entry) => ({ key: entry.seq!, changes: { attempts: entry.attempts + 1, ...changes } })));

    // Rounds in a row the server failed on this very request (a 500: not a gateway, maintenance,
    // "not now" or no connection, which reset the tally; the server answers 503 when its database is away).
    const crashed = result.kind === 'answer' && result.answer.status === 500 ? (batch[0]!.serverErrors ?? 0) + 1 : 0;
    if (crashed >= POISONED_AFTER && result.kind === 'answer') {
      // Again and again: a batch goes again one change at a time, so the others pass; a single
      // change waits for the user (Retry, Discard) instead of holding everything behind it for good.
      if (batch.length > 1) {
        await bump({ status: 'pending', batchId: undefined, attempts: 0, serverErrors: 0 });
        single = true;
        continue;
      }
      await bump({ status: 'failed', lastError: result.answer.message, batchId: undefined, serverErrors: 0, retrySameKey: true });
      continue;
    }
    if (result.kind === 'unreachable' || result.answer.status >= 500 || TRY_LATER.has(result.answer.status) || refusesTheAccount(result.answer)) {
      // Stays 'sending' with its batch: the next round repeats exactly this request. A 408 or 429
      // says "not now" (the server's rate limit when a yard's phones sync at once), as the API
      // client's retries read them: the entries wait, none is marked failed.
      await bump({ lastError: result.kind === 'unreachable' ? result.message : result.answer.message, serverErrors: crashed });
      const answer = result.kind === 'answer' ? result.answer : undefined;
      const retryAfterMs = answer?.retryAfterMs ?? (answer?.status === 429 ? DEFAULT_RATE_LIMIT_WAIT_MS : undefined);
      // 401 after the session could not be renewed: the changes wait for a new sign-in (the shell says so).
      if (answer?.status === 401) setSyncBlocked(userEmail, true);
      return {
        sent,
        stoppedBy: answer?.status === 401 || (answer !== undefined && refusesTheAccount(answer)) ? 'auth' : 'network',
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    }
    const { answer } = result;
    if (answer.status < 300) {
      setSyncBlocked(userEmail, false);
      await confirm(batch, answer.body);
      sent += batch.length;
      continue;
    }
    const conflicts = answer.status === 409 ? (kindOf(batch[0]!.kind)?.conflicts?.(batch, answer.body) ?? null) : null;
    if (conflicts) {
      await holdConflicts(batch, conflicts, answer.message);
      continue;
    }
    if (batch.length > 1) {
      await bump({ status: 'pending', batchId: undefined });
      single = true;
      continue;
    }
    if (kindOf(batch[0]!.kind)?.dropWhenRefused) {
      console.warn(`${batch[0]!.kind} refused and dropped: ${answer.status} ${answer.message}`);
      await offlineDb.outbox.delete(batch[0]!.seq!);
      continue;
    }
    await bump({ status: 'failed', lastError: answer.message, batchId: undefined, ...(refusedAsStale(answer) ? { staleBase: true } : {}) });
  }
}

/** A 409 saying the change's starting point moved on (decision 0068): the same request would be refused again. */
export function refusedAsStale(answer: Answer): boolean {
  if (answer.status !== 409 || !answer.body || typeof answer.body !== 'object') return false;
  const code = (answer.body as { code?: unknown }).code;
  return typeof code === 'string' && /(Changed|Decided)Meanwhile$/.test(code);
}

/**
 * Pull after push: each scope whose changes were confirmed is read from the server again and
 * written to the mirror (merging what is still open); the scope counts as verified once a read
 * that started after its last confirmation is written. A failed read leaves it unverified, and
 * the next round tries again.
 */
export async function verifyScopes(userEmail: string, current: () => boolean = () => true): Promise<void> {
  const marks = (await offlineDb.marks.where('userEmail').equals(userEmail).toArray()).filter((mark) => mark.unverified);
  for (const mark of marks) {
    // Reads carry whoever is signed in now: none for a user who has signed out meanwhile.
    if (!current()) return;
    const scope = mark.key.slice(userEmail.length + 1);
    const refresher = refresherOf(scope);
    if (!refresher) {
      await offlineDb.marks.update(mark.key, { unverified: false });
      continue;
    }
    try {
      await refresher.refresh(userEmail, scope);
    } catch (error) {
      // What the server no longer shows the user (a count handed to someone else) has nothing left
      // to check: its confirmed changes stay confirmed, and "all saved" is not held back for ever.
      if (isGone(error)) await offlineDb.marks.update(mark.key, { unverified: false });
      else if (!isNetworkFailure(error)) console.warn('Reading the server after sync failed', scope, error);
    }
  }
}

// ───────────── scheduling: one leader, many triggers ─────────────

const LOCK_NAME = 'partstrack-outbox';
const INTERVAL_MS = 30_000;
let running = false;
/** The user whose sync runs here (startOutboxSync), null once it is stopped (signed out). */
let syncing: string | null = null;

/** The answer for a change of someone whose sync no longer runs here: it waits for them (a 401 stops the round). */
const NOT_SIGNED_IN: Answer = { status: 401, body: null, message: 'Waiting for the user who made this change to sign in' };

/**
 * Requests carry the token of whoever is signed in now: a round that began before a sign-out (one
 * waiting out a retry, or a time-out) sends nothing more once its user's sync is stopped
 * (`current` false), so their changes never go out as the next user's. They wait on the device
 * for that user.
 */
export const whileCurrent = (current: () => boolean, deps: SyncDeps = defaultDeps): SyncDeps => ({
  ...deps,
  send: (entry) => (current() ? deps.send(entry) : Promise.resolve(NOT_SIGNED_IN)),
});

/** Who asked for a round while one was running: the next round is theirs (after a sign-out and sign-in, another user). */
let asked: string | null = null;

/**
 * A server that asked to wait (Retry-After, or a 429) is left alone until `until`: every trigger
 * meanwhile (each change queued, the 30 s timer, the app coming back) sends nothing, and one
 * round runs when the time is up. Without it, a yard's phones syncing at shift end would answer
 * each 429 with another request at the next keystroke.
 */
const pause: { until: number; timer?: ReturnType<typeof setTimeout> } = { until: 0 };
/**
 * The wait is shared with the app's other tabs (localStorage): the round lock passes to whichever
 * tab asks next, and a tab that did not get the 429 would otherwise send the refused batch again
 * at once.
 */
const PAUSE_KEY = 'partstrack.sync.pausedUntil';

function pausedUntil(): number {
  const shared = Number(storage()?.getItem(PAUSE_KEY) ?? 0);
  // A mark further ahead than any server may ask is from a clock since set back (or a tab that
  // wrote it and was closed): capped, it moved with "now" and held the sync for as long as the
  // jump. It is dropped instead; no server asked for it.
  if (Number.isFinite(shared) && shared > Date.now() + MAX_RETRY_AFTER_MS) {
    try {
      storage()?.removeItem(PAUSE_KEY);
    } catch {
      // Storage refused: ignored below all the same.
    }
    return pause.until;
  }
  return Math.max(pause.until, Number.isFinite(shared) ? shared : 0);
}

function pauseFor(ms: number, resume: () => void): void {
  clearTimeout(pause.timer);
  pause.until = Date.now() + ms;
  try {
    storage()?.setItem(PAUSE_KEY, String(pause.until));
  } catch {
    // Storage full or refused: this tab still waits.
  }
  const until = pause.until;
  pause.timer = setTimeout(() => {
    pause.timer = undefined;
    pause.until = 0;
    // The shared mark ends with it, unless another tab has since been asked to wait longer.
    if (Number(storage()?.getItem(PAUSE_KEY) ?? 0) <= until) storage()?.removeItem(PAUSE_KEY);
    resume();
  }, ms);
}

function endPause(): void {
  clearTimeout(pause.timer);
  pause.until = 0;
  pause.timer = undefined;
  storage()?.removeItem(PAUSE_KEY);
}

async function drainAsLeader(userEmail: string, deps: SyncDeps): Promise<void> {
  if (Date.now() < pausedUntil()) return;
  if (running) {
    asked = userEmail;
    return;
  }
  running = true;
  try {
    for (let next: string | null = userEmail; next !== null; next = asked) {
      asked = null;
      const user = next;
      const round = async () => {
        const current = () => syncing === user;
        const result = await runRound(user, whileCurrent(current, deps));
        if (result.stoppedBy === 'empty') await verifyScopes(user, current);
        if (result.retryAfterMs !== undefined && current()) {
          pauseFor(result.retryAfterMs, () => current() && void drainAsLeader(user, deps));
          asked = null;
        }
      };
      if (typeof navigator !== 'undefined' && navigator.locks) {
        // Another tab holding the lock is already draining: this one stays quiet.
        await navigator.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => (lock ? round() : null));
      } else {
        await round();
      }
    }
  } catch (error) {
    console.warn('Outbox sync round failed', error);
  } finally {
    running = false;
  }
}

/** Ask the service worker to wake us when the connection returns (where Background Sync exists). */
async function registerBackgroundSync(): Promise<void> {
  try {
    const registration = await navigator.serviceWorker?.ready;
    const sync = (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync;
    await sync?.register('outbox');
  } catch {
    // Not supported or not allowed: the other triggers cover it.
  }
}

/** Starts syncing for the signed-in user; returns the function that stops it. `deps`: tests only. */
export function startOutboxSync(userEmail: string, deps: SyncDeps = defaultDeps): () => void {
  syncing = userEmail;
  const trigger = () => {
    if (navigator.onLine === false) return;
    void drainAsLeader(userEmail, deps);
  };
  const onVisible = () => document.visibilityState === 'visible' && trigger();
  const onWorkerMessage = (event: MessageEvent) => (event.data as { type?: string } | null)?.type === 'SYNC_OUTBOX' && trigger();
  const stopEnqueue = onEnqueue(() => {
    trigger();
    void registerBackgroundSync();
  });
  window.addEventListener('online', trigger);
  document.addEventListener('visibilitychange', onVisible);
  navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
  const timer = setInterval(trigger, INTERVAL_MS);
  // Changes a closed page accepted but had not queued are queued now; then entries left
  // 'sending' by a closed tab go again first, as the same request (same key).
  void replayJournal()
    .catch(warnReplayFailed)
    .finally(trigger);
  return () => {
    if (syncing === userEmail) {
      syncing = null;
      // The next user's sync starts without the previous one's wait.
      endPause();
    }
    stopEnqueue();
    window.removeEventListener('online', trigger);
    document.removeEventListener('visibilitychange', onVisible);
    navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
    clearInterval(timer);
  };
}

/** §3: ask the browser to keep our storage; quietly fine when it says no. */
export async function requestPersistentStorage(): Promise<boolean> {
  try {
    if (!navigator.storage?.persist) return false;
    return (await navigator.storage.persisted()) || (await navigator.storage.persist());
  } catch {
    return false;
  }
}
