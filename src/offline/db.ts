/**
 * The device's own copy of what the user works with, in IndexedDB (Dexie):
 *  - `pages`: the page mirror. Every good answer of a mirrored read is stored under its query
 *    key with the time it was saved; offline, screens read it from here.
 *  - `outbox`: every change the user made that the server has not confirmed yet, in order.
 * Writes use strict durability (Chrome's default is relaxed): a change is on disk before the
 * app says it is saved. Schema changes add a new version() with an upgrade; never edit old ones.
 */
import Dexie, { type EntityTable } from 'dexie';

export interface MirrorPage {
  /** Query key as a string, prefixed with the user's e-mail so users of one device never mix. */
  key: string;
  /** What the page is about (e.g. `stock-count:27`); changes patch every page of their scope. */
  scope: string;
  savedAt: number;
  data: unknown;
}

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
  attempts: number;
  lastError?: string;
  /** For a conflict: the server's row as it is now; the user's value stays in `request`. */
  theirs?: unknown;
  /** What discarding the change puts back in the mirror (e.g. the row as it was). */
  undo?: unknown;
}

export class OfflineDatabase extends Dexie {
  pages!: EntityTable<MirrorPage, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;

  constructor(name = 'partstrack') {
    super(name, { chromeTransactionDurability: 'strict' });
    this.version(1).stores({
      pages: 'key, scope, savedAt',
      outbox: '++seq, &id, userEmail, status, scope, target',
    });
  }
}

export const offlineDb = new OfflineDatabase();
