/**
 * The outbox: every change the user makes to mirrored data, kept on the device until the server
 * confirms it. How it works:
 *  - A change is ONE Dexie transaction (strict durability) that patches the mirror AND appends
 *    an entry. So what the screen shows and what will be sent never disagree,
 *    and nothing typed is lost when the tab, the app or the phone is closed.
 *  - The entry's id is a UUID sent as `Idempotency-Key`: resending after a lost answer is safe.
 *  - A second change to the same row while the first is still waiting merges into it
 *    (`coalesce`), so a mechanic who corrects a quantity three times sends one edit.
 *  - The sync engine (sync.ts) drains entries in order. Failed and conflicting entries stay,
 *    visible, until the user resolves them: retry, discard, keep mine or take theirs.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { offlineDb, type OutboxEntry, type OutboxRequest } from './db';
import { guardQuota } from './errors';

export interface Change {
  userEmail: string;
  kind: string;
  scope: string;
  target: string;
  request: OutboxRequest;
  /** Patches the mirror; runs inside the change's transaction. */
  apply: () => Promise<void>;
  /** Given a waiting entry for the same target and kind, the merged request, or null to append. */
  coalesce?: (waiting: OutboxEntry) => OutboxRequest | null;
  /** What `discard` puts back in the mirror (e.g. the row as it was). */
  undo?: unknown;
  /** The Idempotency-Key, when the change was already tried online under that key. */
  id?: string;
  summary?: OutboxEntry['summary'];
}

type Listener = () => void;
const enqueueListeners = new Set<Listener>();

/** The sync engine listens, to send a change as soon as it is queued. */
export function onEnqueue(listener: Listener): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

export async function enqueue(change: Change): Promise<OutboxEntry> {
  const entry = await guardQuota(() =>
    offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.outbox, async () => {
      await change.apply();
      const waiting = await offlineDb.outbox
        .where('target')
        .equals(change.target)
        .filter((e) => e.kind === change.kind && e.status === 'pending' && e.userEmail === change.userEmail)
        .last();
      const merged = waiting && change.coalesce ? change.coalesce(waiting) : null;
      if (waiting && merged) {
        await offlineDb.outbox.update(waiting.seq!, { request: merged });
        return { ...waiting, request: merged };
      }
      const fresh: OutboxEntry = {
        id: change.id ?? crypto.randomUUID(),
        userEmail: change.userEmail,
        kind: change.kind,
        scope: change.scope,
        target: change.target,
        request: change.request,
        status: 'pending',
        createdAt: Date.now(),
        attempts: 0,
        ...(change.undo === undefined ? {} : { undo: change.undo }),
        ...(change.summary === undefined ? {} : { summary: change.summary }),
      };
      fresh.seq = await offlineDb.outbox.add(fresh);
      return fresh;
    }),
  );
  enqueueListeners.forEach((listener) => listener());
  return entry;
}

/** Send a failed entry again, under a new key (the old key may hold the refusal). */
export async function retryEntry(seq: number): Promise<void> {
  await offlineDb.outbox.update(seq, { status: 'pending', id: crypto.randomUUID(), lastError: undefined, attempts: 0, batchId: undefined });
  enqueueListeners.forEach((listener) => listener());
}

/** Entries of one scope, in order, live: screens show per-row pending / failed / conflict. */
export function useOutboxEntries(scope: string): OutboxEntry[] {
  return useLiveQuery(() => offlineDb.outbox.where('scope').equals(scope).sortBy('seq'), [scope]) ?? [];
}

export interface OutboxSummary {
  waiting: number;
  needsAttention: number;
}

/** For the top bar: how many changes wait, and how many need the user (failed or conflict). */
export function useOutboxSummary(userEmail: string | undefined): OutboxSummary {
  return (
    useLiveQuery(async () => {
      if (!userEmail) return { waiting: 0, needsAttention: 0 };
      const entries = await offlineDb.outbox.where('userEmail').equals(userEmail).toArray();
      const needsAttention = entries.filter((e) => e.status === 'failed' || e.status === 'conflict').length;
      return { waiting: entries.length - needsAttention, needsAttention };
    }, [userEmail]) ?? { waiting: 0, needsAttention: 0 }
  );
}
