/**
 * What a scan does on a count (#17), from the camera, a keyboard-wedge scanner or a typed code:
 * - a material of the count: jump to its line and focus its quantity, or, counting by scanning,
 *   add 1 to it (through the outbox, exactly like a typed quantity) with an undo of the last scan;
 * - a material not on the count: offer to add it when the user may add lines, else say so;
 * - the QR of a count sheet: this count, or a link to that count.
 * Scans are handled one after the other and each reads the line as the device holds it then, so
 * two quick scans of one material make 2, never 1 twice.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MaterialCountRow } from '../../../contract/stock';
import { toThousandths } from '../../../domain/stock';
import { indexMaterials, matchMaterial, readScan, type ScanReading } from '../../../domain/scan-codes';
import { offlineDb, type OutboxEntry } from '../../../offline/db';
import { discardEntry, readCountSheet, setQuantity, sheetKey, type CountSheet } from '../offline/count-sheet';
import { scanFeedback } from '../../../components/scan/feedback';

export type ScanOutcome =
  | { kind: 'found'; code: string; unit: string; quantity: number | null }
  | {
      kind: 'counted';
      code: string;
      unit: string;
      quantity: number;
      before: number | null;
      lineId: number;
      /** The scan's change in the outbox, when the line was not counted before it: undoing it withdraws that change. */
      withdraw?: { seq: number; id: string };
    }
  /** `quantity` null: the line is back to not counted. */
  | { kind: 'undone'; code: string; unit: string; quantity: number | null }
  | { kind: 'unknown'; code: string; canAdd: boolean; /** A split count whose other codes the device does not know: the material may be in another part. */ inPart?: boolean }
  /** A split count: the material is on it, in another counter's part (`counter`) or in no part yet (null). */
  | { kind: 'elsewhere'; code: string; counter: string | null }
  | { kind: 'count'; stockCountId: number; isThisCount: boolean }
  | { kind: 'unreadable' };

type Counted = Extract<ScanOutcome, { kind: 'counted' }>;

/** What a scan (or its undo) is based on, as `typingFrom` is for typing: the line as the device holds it when the scan is handled. */
const fromLine = (line: MaterialCountRow) => ({ version: line.version, quantity: line.quantity });

/**
 * Counts one scan on `line` (as the device holds it): +1, through the outbox like a typed
 * quantity, and from what the device holds (`from`), as typing is: a line another counter changed
 * (in conflict, or read from the server since) is not silently overwritten, the server raises the
 * conflict and the line shows it.
 */
export async function countScan(email: string, line: MaterialCountRow): Promise<Counted> {
  // In thousandths, as typed quantities are: 1.001 + 1 is 2.0010000000000003 in floating point.
  const quantity = toThousandths((line.quantity ?? 0) + 1);
  const entry = await setQuantity(email, line, quantity, undefined, fromLine(line));
  const counted = { kind: 'counted', code: line.material_code, unit: line.unit, quantity, before: line.quantity, lineId: line.id } as const;
  return line.quantity === null ? { ...counted, withdraw: { seq: entry.seq!, id: entry.id } } : counted;
}

/**
 * The scan's change while it still waits on the device as it was queued: not taken to be sent
 * (from then on the server may hold it), nor refused (then the line offers its own Discard).
 */
async function waiting(change: { seq: number; id: string }): Promise<OutboxEntry | undefined> {
  const entry = await offlineDb.outbox.get(change.seq);
  return entry?.id === change.id && entry.status === 'pending' ? entry : undefined;
}

/**
 * Undoes a counted scan: the line goes back to what it held before it. Only while the line, as the
 * device holds it now (not as a screen last rendered it), still holds what the scan made it: a
 * total typed after the scan, the Undo still showing, is the user's latest word, and the value
 * from before the scan must not overwrite it. Then nothing is written and null is returned.
 *
 * A line that was not counted has no quantity to go back to: no edit makes a line uncounted, and
 * 0 is a count (submitted, it books all the line's stock away). Its scan's change is withdrawn
 * instead, while it waits on the device (`canUndo` offers no Undo once it has left); null when it
 * no longer can be, the line left counted.
 */
export async function undoScan(email: string, stockCountId: number, last: Counted): Promise<Extract<ScanOutcome, { kind: 'undone' }> | null> {
  const key = sheetKey(email, stockCountId);
  const held = async () => (await readCountSheet(key))?.material_counts.find((row) => row.material_code === last.code);
  const line = await held();
  if (!line || line.quantity !== last.quantity) return null;
  if (last.before === null) {
    const change = last.withdraw && (await waiting(last.withdraw));
    if (!change) return null;
    await discardEntry(change);
    // Not withdrawn when the sync engine took it in the meantime: the line says which.
    if ((await held())?.quantity !== null) return null;
    return { kind: 'undone', code: last.code, unit: last.unit, quantity: null };
  }
  await setQuantity(email, line, last.before, undefined, fromLine(line));
  return { kind: 'undone', code: last.code, unit: last.unit, quantity: last.before };
}

/**
 * A scan of a split count's material that is not in the counter's part: whose part holds it (the
 * sheet knows the count's other codes). Adding it would be refused, so it is not offered.
 */
export function elsewhereOf(reading: Extract<ScanReading, { kind: 'material' }>, sheet: Pick<CountSheet, 'elsewhere' | 'parts'>): Extract<ScanOutcome, { kind: 'elsewhere' }> | null {
  const others = sheet.elsewhere ?? [];
  if (others.length === 0) return null;
  const code = matchMaterial(reading, indexMaterials(others.map((line) => line.material_code)));
  const found = code === null ? undefined : others.find((line) => line.material_code === code);
  if (!found) return null;
  const part = found.part_id === null ? undefined : sheet.parts?.find((row) => row.id === found.part_id);
  return { kind: 'elsewhere', code: found.material_code, counter: part ? (part.counter_name ?? part.counter) : null };
}

interface Options {
  email: string;
  stockCountId: number;
  canEdit: boolean;
  canAdd: boolean;
  /** Show and focus the line (clears a filter that hides it). */
  onJump(line: MaterialCountRow): void;
  /** Before a scan is counted: what is being typed is saved first, so the scan adds to it. */
  beforeCount?(): Promise<void>;
  onError(error: unknown): void;
}

export function useScanToCount({ email, stockCountId, canEdit, canAdd, onJump, beforeCount, onError }: Options) {
  const [countMode, setCountMode] = useState(false);
  const [outcome, setOutcome] = useState<ScanOutcome | null>(null);
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const lastCounted = useRef<Counted | null>(null);
  const latest = useRef({ email, stockCountId, canEdit, canAdd, onJump, beforeCount, onError, countMode });
  useEffect(() => {
    latest.current = { email, stockCountId, canEdit, canAdd, onJump, beforeCount, onError, countMode };
  });

  const queue = useCallback((work: () => Promise<void>) => {
    chain.current = chain.current.then(work).catch((error: unknown) => latest.current.onError(error));
    return chain.current;
  }, []);

  const handle = useCallback(
    (raw: string) =>
      queue(async () => {
        const now = latest.current;
        lastCounted.current = null;
        const reading = readScan(raw);
        if (reading.kind === 'empty') {
          setOutcome({ kind: 'unreadable' });
          return;
        }
        if (reading.kind === 'count') {
          setOutcome({ kind: 'count', stockCountId: reading.stockCountId, isThisCount: reading.stockCountId === now.stockCountId });
          return;
        }
        if (now.countMode && now.canEdit) await now.beforeCount?.();
        const sheet = await readCountSheet(sheetKey(now.email, now.stockCountId));
        const lines = sheet?.material_counts ?? [];
        const code = matchMaterial(reading, indexMaterials(lines.map((line) => line.material_code)));
        const line = code === null ? undefined : lines.find((row) => row.material_code === code);
        if (!line) {
          scanFeedback('unknown');
          const there = sheet ? elsewhereOf(reading, sheet) : null;
          if (there) setOutcome(there);
          else setOutcome({ kind: 'unknown', code: reading.candidates[0]!, canAdd: now.canAdd, ...(sheet?.part && !sheet.elsewhere ? { inPart: true } : {}) });
          return;
        }
        if (now.countMode && now.canEdit) {
          let counted: Counted;
          try {
            counted = await countScan(now.email, line);
          } catch (error) {
            // Not saved: the "+1" of an earlier scan does not stay up as if this one counted, and it
            // sounds like a scan that did nothing. The error alert says why (in the sheet, when open).
            setOutcome(null);
            scanFeedback('unknown');
            throw error;
          }
          // The beep says "counted": heard once the count is saved on the device, not before.
          scanFeedback('ok');
          lastCounted.current = counted;
          setOutcome(counted);
        } else {
          scanFeedback('ok');
          setOutcome({ kind: 'found', code: line.material_code, unit: line.unit, quantity: line.quantity });
        }
        now.onJump(line);
      }),
    [queue],
  );

  /** Undo the last counted scan (see `undoScan`); without one to undo, nothing happens. */
  const undo = useCallback(
    () =>
      queue(async () => {
        const now = latest.current;
        const last = lastCounted.current;
        if (!last) return;
        lastCounted.current = null;
        // Null when the undo no longer applies: the stale "+1" with its Undo button goes away.
        setOutcome(await undoScan(now.email, now.stockCountId, last));
      }),
    [queue],
  );

  // The Undo of an uncounted line's scan is offered only while its change can be withdrawn: the
  // outbox is watched, as the change leaves for the server at the next round. Compared by id, an
  // answer about an earlier scan's change (the query keeps it until it answers anew) is none.
  const withdraw = outcome?.kind === 'counted' ? outcome.withdraw : undefined;
  const change = useLiveQuery(async () => (withdraw ? waiting(withdraw) : undefined), [withdraw]);
  const canUndo = outcome?.kind === 'counted' && (withdraw === undefined || change?.id === withdraw.id);

  return useMemo(
    () => ({ handle, undo, outcome, canUndo, clear: () => setOutcome(null), countMode, setCountMode }),
    [handle, undo, outcome, canUndo, countMode],
  );
}
