/**
 * The sync core knows no feature: each feature registers its kinds of change here — how entries
 * of a kind travel together, what they wait for, what a confirmation does to the mirror, which
 * 409 answers are conflicts — and how the server copy of a scope is read again after its changes
 * drained (pull after push). A kind nobody registered is sent as it is and dropped once confirmed.
 */
import type { OutboxEntry, OutboxRequest } from './db';

export interface ChangeKind {
  kind: string;
  /** Entries of this kind, each about another target, may travel in one request. */
  batch?: { limit: number; combine(entries: OutboxEntry[]): OutboxRequest };
  /** True while the entry must wait for another change (e.g. the add of its line). */
  waits?(entry: OutboxEntry): boolean;
  /**
   * The entry concludes its scope (e.g. submitting a count): it waits while an earlier change of
   * its scope was refused (failed, in conflict) and the user has not resolved it, so it never goes
   * ahead of a value the user still has to decide on. `'target'`: only behind an earlier refused
   * change of the same target (a planner's changes of one count go in order; another count's
   * refusal holds nothing).
   */
  afterRefused?: boolean | 'target';
  /**
   * The server confirmed the entries (2xx with `body`). Runs inside one transaction over pages,
   * chunks, outbox and marks; it must delete the entries from the outbox. Default: delete them.
   */
  confirm?(entries: OutboxEntry[], body: unknown): Promise<void>;
  /** A 409 naming the server's current rows: each conflicting entry's row, by seq; null: a refusal. */
  conflicts?(entries: OutboxEntry[], body: unknown): Map<number, unknown> | null;
  /**
   * A refusal (4xx other than a conflict) is only logged and the entry dropped, instead of
   * waiting for the user as failed: for changes whose failure §8 says are only logged (read marks).
   */
  dropWhenRefused?: boolean;
}

export interface ScopeRefresher {
  /** Whether this refresher reads scopes like this one. */
  matches(scope: string): boolean;
  /** Reads the server's copy of the scope and writes it to the mirror (merging open changes). */
  refresh(userEmail: string, scope: string): Promise<void>;
}

const kinds = new Map<string, ChangeKind>();
const refreshers: ScopeRefresher[] = [];

export function registerKind(kind: ChangeKind): void {
  kinds.set(kind.kind, kind);
}

export function kindOf(name: string): ChangeKind | undefined {
  return kinds.get(name);
}

export function registerRefresher(refresher: ScopeRefresher): void {
  refreshers.push(refresher);
}

export function refresherOf(scope: string): ScopeRefresher | undefined {
  return refreshers.find((refresher) => refresher.matches(scope));
}
