/**
 * The outbox: every change the user makes to mirrored data, kept on the device until the server
 * confirms it. How it works:
 *  - A change is ONE Dexie transaction (strict durability) that patches the mirror AND appends
 *    an entry. So what the screen shows and what will be sent never disagree,
 *    and nothing typed is lost when the tab, the app or the phone is closed.
 *  - The entry's id is a UUID sent as `Idempotency-Key`: resending after a lost answer is safe.
 *  - A second change to the same row while the first is still waiting merges into it
 *    (`coalesce`), so a mechanic who corrects a quantity three times sends one edit. A change
 *    to a row whose earlier change failed or conflicts supersedes it (sent again, new key); a
 *    change to a row whose earlier change is travelling queues behind it.
 *  - The sync engine (sync.ts) drains entries in order. Failed and conflicting entries stay,
 *    visible, until the user resolves them: retry, discard, keep mine or take theirs.
 */
import { offlineDb, type OutboxEntry, type OutboxRequest } from './db';
import { guardQuota } from './errors';
import { saveWaitingCopies } from './mirror';
import { kindOf } from './registry';

export interface Change {
  userEmail: string;
  kind: string;
  scope: string;
  target: string;
  /** The request; as a function it runs inside the change's transaction (to read what the device holds). */
  request: OutboxRequest | (() => Promise<OutboxRequest>);
  /** Patches the mirror; runs inside the change's transaction. */
  apply: () => Promise<void>;
  /**
   * Given the open entry (pending, failed or in conflict: not travelling) of the same target and
   * kind, and this change's request, the merged request, or null to append a new entry. Merging
   * into a failed or conflicting entry supersedes it: it goes again, under a new key.
   */
  coalesce?: (open: OutboxEntry, request: OutboxRequest) => OutboxRequest | null;
  /** What `discard` puts back in the mirror (e.g. the row as it was). */
  undo?: unknown;
  /** The Idempotency-Key, when the change was already tried online under that key. */
  id?: string;
  summary?: OutboxEntry['summary'];
  /** When the user made it, when that was before now (a change replayed from the journal of a closed page). */
  at?: number;
}

type Listener = () => void;
const enqueueListeners = new Set<Listener>();

/** The sync engine listens, to send a change as soon as it is queued. */
export function onEnqueue(listener: Listener): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

const isOpen = (entry: OutboxEntry) => entry.status !== 'sending';

/** Whether `entry` is the open entry a change merges into: its target's, of its kind and user, not travelling. */
export const opensFor = (change: Pick<Change, 'kind' | 'userEmail'>) => (entry: OutboxEntry) =>
  entry.kind === change.kind && isOpen(entry) && entry.userEmail === change.userEmail;

/**
 * The entry a change leaves in the outbox, given the open entry of its target and kind: that one
 * with the merged request, or a new entry (its `seq` is given when it is added). A failed or
 * conflicting entry goes again as new: a new key, its failure, the server's side and its batch
 * dropped. The open entry was read whole in the change's transaction, so it is written back
 * whole: one request (an update reads it again first, #22).
 */
export function entryFor(change: Omit<Change, 'request' | 'apply'>, request: OutboxRequest, open: OutboxEntry | undefined): OutboxEntry {
  const merged = open && change.coalesce ? change.coalesce(open, request) : null;
  if (open && merged) {
    const { lastError: _lastError, theirs: _theirs, batchId: _batchId, ...untried } = open;
    const changedAt = change.at ?? Date.now();
    return open.status === 'pending' ? { ...open, request: merged, changedAt } : { ...untried, request: merged, changedAt, status: 'pending', id: crypto.randomUUID(), attempts: 0 };
  }
  return {
    id: change.id ?? crypto.randomUUID(),
    userEmail: change.userEmail,
    kind: change.kind,
    scope: change.scope,
    target: change.target,
    request,
    status: 'pending',
    createdAt: change.at ?? Date.now(),
    attempts: 0,
    ...(change.undo === undefined ? {} : { undo: change.undo }),
    ...(change.summary === undefined ? {} : { summary: change.summary }),
  };
}

export async function enqueue(change: Change): Promise<OutboxEntry> {
  // A change's `apply` patches saved pages: copies still waiting to be saved go first (mirror.ts).
  await saveWaitingCopies();
  const entry = await guardQuota(() =>
    offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.slots, offlineDb.outbox, async () => {
      // The open entry of this target and kind (the sync engine marks what it takes as sending in
      // a transaction of its own, so an entry is either taken whole or merged into, never both).
      // Asked first, and the mirror's patch is not waited for before the entry is written: a
      // transaction runs its requests in the order they are made, and each wait is a round trip
      // to the database, the larger part of an edit's cost on a phone (#22, decision 0034).
      const opening = offlineDb.outbox.where('target').equals(change.target).filter(opensFor(change)).last();
      // A change may refuse inside `request` (the transaction aborts, nothing written): the
      // lookup's rejection then is that abort, awaited by nobody; it is not an unhandled one.
      opening.catch(() => undefined);
      const request = typeof change.request === 'function' ? await change.request() : change.request;
      const applied = change.apply();
      const open = await opening;
      const next = entryFor(change, request, open);
      // A refused change that concludes its scope (a submit) goes again after what was changed
      // since it was refused: the user put the count right first, then asked again.
      if (open && next.seq !== undefined && open.status !== 'pending' && concludes(change.kind)) await releaseSeq(next);
      if (next.seq !== undefined) {
        await Promise.all([applied, offlineDb.outbox.put(next)]);
        return next;
      }
      [, next.seq] = await Promise.all([applied, offlineDb.outbox.add(next)]);
      return next;
    }),
  );
  notifyEnqueued();
  return entry;
}

/** Wakes the sync engine (after a change queued or put back). */
export function notifyEnqueued(): void {
  enqueueListeners.forEach((listener) => listener());
}

/** A change that concludes its scope (a count's submit): it waits behind refused changes of its scope (registry.ts). */
const concludes = (kind: string) => kindOf(kind)?.afterRefused === true;

/** Takes the stored entry out of its place in the queue: added again, it goes last (a new `seq`). Inside a transaction over the outbox. */
async function releaseSeq(entry: OutboxEntry): Promise<void> {
  await offlineDb.outbox.delete(entry.seq!);
  delete entry.seq;
}

/**
 * Send a failed entry again, under a new key (the old key may hold the refusal). One that
 * concludes its scope goes after the changes made since it was refused: the count the user put
 * right is what is submitted, not the one the server refused.
 */
export async function retryEntry(seq: number): Promise<void> {
  await offlineDb.transaction('rw', offlineDb.outbox, async () => {
    // Only a refused one: a second tap on Retry (or one on a screen a render behind) would give an
    // entry already on its way a new key, and it would be applied twice.
    const entry = await offlineDb.outbox.get(seq);
    if (!entry || (entry.status !== 'failed' && entry.status !== 'conflict')) return;
    // A refusal is kept under its key: a new one. One set aside after repeated 500s may have been applied: the same key.
    const id = entry.retrySameKey ? entry.id : crypto.randomUUID();
    const { lastError: _lastError, batchId: _batchId, retrySameKey: _retrySameKey, staleBase: _staleBase, ...kept } = entry;
    const again: OutboxEntry = { ...kept, id, status: 'pending', attempts: 0 };
    if (concludes(entry.kind)) await releaseSeq(again);
    await offlineDb.outbox.put(again);
  });
  notifyEnqueued();
}
