/**
 * Tells the sync core (src/offline) about the count sheet's kinds of change and how a count is
 * read again after its changes drained. Imported once by the app shell, before sync starts.
 */
import { registerReplayer } from '../../../offline/journal';
import { registerKind, registerRefresher } from '../../../offline/registry';
import type { OutboxEntry } from '../../../offline/db';
import {
  combineEdits,
  confirmCountEntries,
  conflictRows,
  editOf,
  isProvisional,
  KIND,
  refreshCountSheet,
  replayQuantity,
  stockCountIdOf,
  targetId,
  type QuantityJournal,
} from './count-sheet';

/** Quantity edits travel together: one request, one transaction on the server, up to this many lines. */
export const BATCH_LIMIT = 100;

/** A change to a line added offline waits until the add has given the line its real id. */
const waitsForItsLine = (entry: OutboxEntry) => entry.target.startsWith('line:') && isProvisional(targetId(entry.target));

registerKind({
  kind: KIND.quantity,
  batch: {
    limit: BATCH_LIMIT,
    // To the count, or on a split count to the counter's part (#18): a batch is one count's edits.
    combine: combineEdits,
  },
  waits: waitsForItsLine,
  confirm: confirmCountEntries,
  conflicts: (entries, body) => {
    const rows = conflictRows(body, stockCountIdOf(entries[0]!));
    if (!rows) return null;
    const bySeq = new Map<number, unknown>();
    for (const entry of entries) {
      const theirs = rows.find((row) => row.id === editOf(entry)?.id);
      if (theirs) bySeq.set(entry.seq!, theirs);
    }
    return bySeq;
  },
});
registerKind({ kind: KIND.add, confirm: confirmCountEntries });
registerKind({ kind: KIND.remove, waits: waitsForItsLine, confirm: confirmCountEntries });
// Submitting a count, or saying one's part is done, never goes ahead of a refused value of the count.
registerKind({ kind: KIND.submit, confirm: confirmCountEntries, afterRefused: true });
registerKind({ kind: KIND.partStatus, confirm: confirmCountEntries, afterRefused: true });
// A planner's changes of one count go in order (count-planning.ts queues a Send behind a waiting
// Edit): one refused holds the later ones of that count until the planner retries or discards it.
registerKind({ kind: KIND.plan, afterRefused: 'target' });

registerRefresher({
  matches: (scope) => /^stock-count:\d+$/.test(scope),
  refresh: async (userEmail, scope) => {
    await refreshCountSheet(userEmail, Number(scope.split(':')[1]));
  },
});

registerReplayer(KIND.quantity, (payload) => replayQuantity(payload as QuantityJournal));
