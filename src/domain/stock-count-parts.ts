/**
 * #18 several counters on one count (decision 0033): how the quantities the counters of a line
 * wrote become the count's quantity. A line is usually held by one part; a line held by two parts
 * (a control count) is counted twice, and two different quantities are a variance the planner
 * resolves: never a silent overwrite, never "the last one wins".
 */

export const MERGE_STATES = ['unassigned', 'open', 'partly', 'counted', 'variance', 'resolved'] as const;
export type MergeState = (typeof MERGE_STATES)[number];

export const PART_STATUSES = ['open', 'done'] as const;
export type PartStatus = (typeof PART_STATUSES)[number];

export interface HolderCount {
  partId: number;
  /** What this part's counter counted; null: not counted (yet, or sent to recount). */
  quantity: number | null;
}

/**
 * The merged state and quantity of one line:
 * - unassigned: no part holds it (a line added after the split by someone without a part);
 * - open: no holder counted it;
 * - partly: some holders counted and agree, others have not counted yet (the quantity so far);
 * - counted: every holder counted it, all the same quantity;
 * - variance: two holders counted different quantities (no quantity until resolved);
 * - resolved: the planner took one holder's quantity (stands while that quantity stands).
 */
export function mergeLine(holders: readonly HolderCount[], resolvedPartId: number | null): { state: MergeState; quantity: number | null } {
  if (holders.length === 0) return { state: 'unassigned', quantity: null };
  if (resolvedPartId !== null) {
    const taken = holders.find((holder) => holder.partId === resolvedPartId);
    if (taken && taken.quantity !== null) return { state: 'resolved', quantity: taken.quantity };
  }
  const counted = holders.filter((holder) => holder.quantity !== null);
  if (counted.length === 0) return { state: 'open', quantity: null };
  if (new Set(counted.map((holder) => holder.quantity)).size > 1) return { state: 'variance', quantity: null };
  return { state: counted.length === holders.length ? 'counted' : 'partly', quantity: counted[0]!.quantity };
}

/** Bins compared as the planner reads them: case-insensitive, character by character (no locale collation, same on every engine). */
export function binInRange(bin: string | null, range: { from: string; to: string }): boolean {
  if (bin === null) return false;
  const value = bin.trim().toUpperCase();
  return value >= range.from.trim().toUpperCase() && value <= range.to.trim().toUpperCase();
}
