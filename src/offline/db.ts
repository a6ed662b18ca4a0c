/**
 * The device's own copy of what the user works with, in IndexedDB (Dexie):
 *  - `pages`: the page mirror. Every good answer of a mirrored read is stored under its query
 *    key with the time it was saved; offline, screens read it from here.
 *  - `chunks`: big mirrored lists (the lines of a stock count: thousands in a wall-to-wall count)
 *    in slices of a few hundred rows, so an edit rewrites one slice, not the whole list, while
 *    saving or reading the whole list stays a few dozen records.
 *  - `outbox`: every change the user made that the server has not confirmed yet, in order.
 *  - `marks`: per user and scope, a counter bumped whenever the server confirms a change of that
 *    scope (a snapshot fetched before it is stale) and whether the device has read the server
 *    again since (pull after push: "all saved" only once it has).
 * Writes use strict durability (Chrome's default is relaxed): a change is on disk before the
 * app says it is saved. Schema changes add a new version() with an upgrade; never edit old ones.
 */
import Dexie, { type EntityTable, type Table } from 'dexie';

// For live reads by code that loads this module on first use (device-db.ts).
export { liveQuery } from 'dexie';

export interface MirrorPage {
  /** Query key as a string, prefixed with the user's e-mail so users of one device never mix. */
  key: string;
  /** What the page is about (e.g. `stock-count:27`); changes patch every page of their scope. */
  scope: string;
  savedAt: number;
  data: unknown;
  /**
   * A count sheet's (#22, decision 0058): a token written anew with every write of its slices, in
   * the same transaction. A tab that read the slices under this token may take a line from its
   * copy of them without reading the line's slice again. Absent: no tab may.
   */
  slices?: string;
}

export interface MirrorChunk {
  /** The mirror page (key) the slice belongs to. */
  page: string;
  /** Slice number, in list order. A slice starts with CHUNK_SIZE rows; removals make it shorter. */
  chunk: number;
  rows: unknown[];
  /** v4 only (a multi-entry index of its rows' ids); v5 keeps where each line is in `slots`. */
  ids?: number[];
}

/**
 * Where one line of a sliced list is (v5): an edit reads this and the one slice, whatever the
 * size of the list (#22). Written when a line comes, goes or changes id, never by an edit.
 */
export interface LineSlot {
  page: string;
  id: number;
  chunk: number;
  /**
   * v6 (#22): the line as the device holds it now, when it changed after its slice was written
   * (an edit, a confirmation): read over the slice's copy, so an edit writes this one small record,
   * not its slice of CHUNK_SIZE lines. The next time the sheet is written, its slices take them in.
   */
  row?: unknown;
  /** The page again, only while `row` is set: a sparse index finds a sheet's changed lines. */
  edited?: string;
}

export const CHUNK_SIZE = 250;

export type OutboxStatus = 'pending' | 'sending' | 'failed' | 'conflict';

export interface OutboxRequest {
  service: 'user' | 'parts' | 'stock';
  method: 'POST' | 'PUT' | 'DELETE' | 'GET';
  path: string;
  searchParams?: Record<string, string>;
  json?: unknown;
}

export interface OutboxEntry {
  /** Insertion order: the outbox drains in this order. */
  seq?: number;
  /** UUID, sent as Idempotency-Key: the server applies it once however often it is sent. */
  id: string;
  userEmail: string;
  kind: string;
  scope: string;
  /** The row the change is about, e.g. `line:123` (or `line:tmp-…` for a line added offline). */
  target: string;
  request: OutboxRequest;
  status: OutboxStatus;
  createdAt: number;
  /** When a change last merged into the entry (absent: never since `createdAt`). A replayed change orders itself by it. */
  changedAt?: number;
  /** Rounds in a row the server answered 500 (its own failure); any other outcome resets it. */
  serverErrors?: number;
  /**
   * Set aside after repeated 500s: Retry sends it again under the SAME key. The server may have
   * applied it and failed only in answering; under the same key it replays, never applies twice.
   */
  retrySameKey?: boolean;
  attempts: number;
  lastError?: string;
  /**
   * Refused because what it was based on changed meanwhile (a 409 `…ChangedMeanwhile` /
   * `…DecidedMeanwhile`, decision 0068): sent again as it is, it is refused again, so it offers
   * Discard (and what corrects it), not Retry.
   */
  staleBase?: boolean;
  /** For a conflict: the server's row as it is now; the user's value stays in `request`. */
  theirs?: unknown;
  /** What discarding the change puts back in the mirror (e.g. the row as it was). */
  undo?: unknown;
  /** What the change is, for the screens that list waiting changes (not indexed). */
  summary?: Record<string, string | number | boolean | null>;
  /** Set while the entry travels in a batch: a resend repeats exactly that batch, same key. */
  batchId?: string;
}

export interface ScopeMark {
  /** `${userEmail}|${scope}` */
  key: string;
  userEmail: string;
  /** Bumped in the transaction that applies a confirmation of a change of this scope. */
  confirmed: number;
  /** A change was confirmed and the server has not been read again since. */
  unverified: boolean;
}

export class OfflineDatabase extends Dexie {
  pages!: EntityTable<MirrorPage, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;
  chunks!: Table<MirrorChunk, [string, number]>;
  slots!: Table<LineSlot, [string, number]>;
  marks!: EntityTable<ScopeMark, 'key'>;

  constructor(name = 'partstrack') {
    // No query cache: a quantity edit is written beside Dexie (native.ts, #22), and a live query
    // woken by it must read the database, not a cache that write did not update.
    super(name, { chromeTransactionDurability: 'strict', cache: 'disabled' });
    this.version(1).stores({
      pages: 'key, scope, savedAt',
      outbox: '++seq, &id, userEmail, status, scope, target',
    });
    // v2: the lines of a count sheet move out of its page into slices (`chunks`); the page
    // keeps the count and the ids in list order, which say which slice holds a line.
    this.version(2)
      .stores({ chunks: '[page+chunk], page' })
      .upgrade(async (tx) => {
        const pages = (await tx.table('pages').toArray()) as MirrorPage[];
        for (const page of pages) {
          const data = page.data as { stock_count?: unknown; material_counts?: Array<{ id: number }> } | null;
          if (!data?.material_counts || !data.stock_count) continue;
          const lines = data.material_counts;
          const chunks: MirrorChunk[] = [];
          for (let i = 0; i < lines.length; i += CHUNK_SIZE) {
            chunks.push({ page: page.key, chunk: i / CHUNK_SIZE, rows: lines.slice(i, i + CHUNK_SIZE) });
          }
          await tx.table('chunks').bulkPut(chunks);
          await tx.table('pages').put({ ...page, data: { stock_count: data.stock_count, ids: lines.map((line) => line.id) } });
        }
      });
    // v3: confirmation marks per scope (stale snapshots, pull after push).
    this.version(3).stores({ marks: 'key, userEmail' });
    // v4 (#22): a slice knows the ids of its rows (multi-entry index), so the page no longer
    // holds every id of the list: an edit read that whole array to find its slice, which grew
    // with the count (23 ms per edit on 10,000 lines on a mid-range phone). Nothing is dropped:
    // the rows stay as they are, the ids are derived from them.
    this.version(4)
      .stores({ chunks: '[page+chunk], page, *ids' })
      .upgrade(async (tx) => {
        await tx
          .table('chunks')
          .toCollection()
          .modify((chunk: MirrorChunk) => {
            chunk.ids = (chunk.rows as Array<{ id: number }>).map((row) => row.id);
          });
        await tx
          .table('pages')
          .toCollection()
          .modify((page: MirrorPage) => {
            const data = page.data as { stock_count?: unknown; ids?: unknown } | null;
            if (data && data.stock_count && Array.isArray(data.ids)) delete data.ids;
          });
      });
    // v5 (#22): the multi-entry index of v4 made every edit rewrite ~250 index entries with its
    // slice (slower than the id list it replaced); a line's slice is now a row of its own in
    // `slots`, written only when lines come, go or change id. Derived from the slices' rows.
    this.version(5)
      .stores({ chunks: '[page+chunk], page', slots: '[page+id], page' })
      .upgrade(async (tx) => {
        const slots: LineSlot[] = [];
        await tx
          .table('chunks')
          .toCollection()
          .modify((chunk: MirrorChunk) => {
            for (const row of chunk.rows as Array<{ id: number }>) slots.push({ page: chunk.page, id: row.id, chunk: chunk.chunk });
            delete chunk.ids;
          });
        await tx.table('slots').bulkPut(slots);
      });
    // v6 (#22): a changed line rides on its slot (`row`, `edited`) instead of rewriting its slice;
    // the index holds only the slots that carry one. Nothing to derive: no slot carries one yet.
    this.version(6).stores({ slots: '[page+id], page, edited' });
    // A newer version of the app (another tab, after Update) opens the database at a higher
    // version: this tab lets go (the upgrade would otherwise wait for it) and says so, instead of
    // its next write failing unseen. Quantity edits still have their journal (native.ts).
    this.on('versionchange', () => {
      superseded = true;
      this.close();
      // An event, not an import: the update prompt is on the first screen, Dexie is not.
      if (typeof window !== 'undefined') window.dispatchEvent(new Event(NEWER_DATABASE_EVENT));
      return false;
    });
  }
}

/**
 * A newer version of the app has taken the database over: this tab's code must not open it again
 * (it would read and write the upgraded database with the old code, or, patching its own schema,
 * lock the newer tab out). Its writes fail instead; quantity edits stay in their journal.
 */
let superseded = false;
export const databaseSuperseded = (): boolean => superseded;

/** Dispatched on window when a newer version of the app has taken the database over (this tab must reload). */
export const NEWER_DATABASE_EVENT = 'partstrack:newer-database';

export const offlineDb = new OfflineDatabase();

export const markKey = (userEmail: string, scope: string) => `${userEmail}|${scope}`;

/** The confirmation counter of a scope (0 when nothing was ever confirmed). */
export async function readMark(userEmail: string, scope: string): Promise<number> {
  return (await offlineDb.marks.get(markKey(userEmail, scope)))?.confirmed ?? 0;
}

/**
 * The scope must be read from the server again (pull after push): its mark says so, and counts
 * `confirmed` more confirmations. Inside the caller's transaction, which must include `marks`.
 */
export async function markUnverified(userEmail: string, scope: string, confirmed: 0 | 1): Promise<void> {
  const key = markKey(userEmail, scope);
  const mark = await offlineDb.marks.get(key);
  await offlineDb.marks.put({ key, userEmail, confirmed: (mark?.confirmed ?? 0) + confirmed, unverified: true });
}
