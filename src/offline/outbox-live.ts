/**
 * The outbox as screens watch it (live reads). Apart from outbox.ts, which writes it inside the
 * device database's transactions: the top bar and the notification dropdown of the first screen
 * show these without loading the database before the first list is drawn (#22, device-db.ts).
 */
import type { OutboxEntry } from './db';
import { useMemo } from 'react';
import { useDeviceQuery } from './device-db';

const NO_ENTRIES: OutboxEntry[] = [];

/**
 * The signed-in user's entries of one scope, in order, live: screens show per-row pending / failed /
 * conflict. Another user's entries on this device (signed out with changes still waiting) are
 * theirs to send and to resolve: never shown, discarded or taken over by whoever signs in next.
 */
export function useOutboxEntries(scope: string, userEmail: string | undefined): OutboxEntry[] {
  const entries = useDeviceQuery((db) => db.outbox.where('scope').equals(scope).sortBy('seq'), [scope], NO_ENTRIES);
  return useMemo(() => entries.filter((entry) => entry.userEmail === userEmail), [entries, userEmail]);
}

export interface OutboxSummary {
  waiting: number;
  needsAttention: number;
  /** Scopes whose confirmed changes have not been checked against a fresh read of the server yet. */
  unverified: number;
}

export const NOTHING_WAITS: OutboxSummary = { waiting: 0, needsAttention: 0, unverified: 0 };

/**
 * For the top bar: how many changes wait, and how many need the user (failed or conflict).
 * `undefined` until the device database has answered (it loads after the first screen, #22): not
 * knowing yet is not "nothing waits", and the top bar must not say "all saved" meanwhile.
 */
export function useOutboxSummary(userEmail: string | undefined): OutboxSummary | undefined {
  return useDeviceQuery<OutboxSummary | undefined>(
    async (db) => {
      if (!userEmail) return NOTHING_WAITS;
      const entries = await db.outbox.where('userEmail').equals(userEmail).toArray();
      const needsAttention = entries.filter((e) => e.status === 'failed' || e.status === 'conflict').length;
      const unverified = (await db.marks.where('userEmail').equals(userEmail).toArray()).filter((mark) => mark.unverified).length;
      return { waiting: entries.length - needsAttention, needsAttention, unverified };
    },
    [userEmail],
    undefined,
  );
}
