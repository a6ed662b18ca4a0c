/**
 * A change written straight on IndexedDB, beside Dexie, for the one change a mechanic makes many
 * times a minute: a counted quantity (#22, decision 0058). Through Dexie, its one transaction of
 * four reads and two writes cost three times the platform's floor on a phone (its middleware and
 * promise zones run for every request); here it is the same requests on the same connection,
 * with the same strict durability. Screens hear of it the way they hear of Dexie's own writes:
 * Dexie's `storagemutated` event, which wakes the live queries of this tab and of the others.
 * The device database runs without Dexie's query cache (db.ts), so a live query woken this way
 * reads the database again instead of answering from a cache this write did not update.
 */
import { Dexie, RangeSet, type ObservabilitySet } from 'dexie';
import { offlineDb } from './db';

export type NativeTable = 'pages' | 'chunks' | 'slots' | 'outbox';

/** A request's result, promised: awaited inside the transaction's body, it stays active. */
export function requested<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('the device database refused a request'));
  });
}

function abort(tx: IDBTransaction): void {
  try {
    tx.abort();
  } catch {
    // Already finished (a failed request aborts it by itself).
  }
}

/**
 * Runs `body` in ONE readwrite transaction (strict durability: on disk before it resolves) on
 * the device database's connection, and resolves with what it returned once committed. When
 * `body` answers undefined, the transaction is aborted: nothing written, and undefined tells the
 * caller to go the general way (Dexie). So does a connection Dexie has closed (an upgrade in
 * another tab): the general way opens it again.
 */
export async function nativeChange<T>(tables: NativeTable[], body: (tx: IDBTransaction) => Promise<T | undefined>): Promise<T | undefined> {
  if (!offlineDb.isOpen()) await offlineDb.open();
  let tx: IDBTransaction;
  try {
    tx = offlineDb.backendDB().transaction(tables, 'readwrite', { durability: 'strict' });
  } catch {
    return undefined;
  }
  const committed = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new DOMException('The change was not written.', 'AbortError'));
  });
  committed.catch(() => undefined);
  let value: T | undefined;
  try {
    value = await body(tx);
  } catch (error) {
    abort(tx);
    throw error;
  }
  if (value === undefined) {
    abort(tx);
    return undefined;
  }
  await committed;
  announce(tables);
  return value;
}

/** Every part of `tables` changed, as Dexie's observability names them: their keys and every index. */
function announce(tables: NativeTable[]): void {
  const parts: ObservabilitySet = {};
  for (const name of tables) {
    const indexes = ['', ':dels', ...offlineDb.table(name).schema.indexes.map((index) => index.name)];
    for (const index of indexes) parts[`idb://${offlineDb.name}/${name}/${index}`] = new RangeSet(-Infinity, [[[]]]);
  }
  Dexie.on.storagemutated.fire(parts);
}
