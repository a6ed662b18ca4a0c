/**
 * A change written straight on IndexedDB, beside Dexie, for the one change a mechanic makes many
 * times a minute: a counted quantity (#22, decision 0058). Through Dexie, its one transaction of
 * three reads and two writes cost twice to three times the platform's floor on a phone (its
 * middleware and promise zones run for every request); here it is the same requests on the same
 * connection, with the same strict durability. Screens hear of it the way they hear of Dexie's
 * own writes: Dexie's `storagemutated` event, naming the records written and their index values
 * as Dexie would, which wakes the live queries that read them, in this tab and the others. The
 * device database runs without Dexie's query cache (db.ts), so a live query woken this way reads
 * the database again instead of answering from a cache this write did not update.
 */
import { Dexie, RangeSet, type IndexableType, type ObservabilitySet } from 'dexie';
import i18next from 'i18next';
import { databaseSuperseded, offlineDb } from './db';

export type NativeTable = 'pages' | 'chunks' | 'slots' | 'outbox';

/** A record a change wrote: the record as it was (none when new) and as it is now. */
export interface Written {
  table: NativeTable;
  before?: object;
  after: object;
}

/** A request's result, promised: awaited inside the transaction's body, it stays active. */
export function requested<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('the device database refused a request'));
  });
}

/**
 * Runs `body` in ONE readwrite transaction (strict durability: on disk before it resolves) on
 * the device database's connection, and resolves with its value once committed. When `body`
 * answers undefined, the transaction is aborted (nothing written), and undefined tells the caller
 * to go the general way (Dexie); so it does when the connection was closed under Dexie (the
 * browser may close it), which the general way opens again. A body must only wait for this
 * transaction's requests: one that let it commit and then declined is an error, not undefined.
 */
export async function nativeChange<T>(
  tables: NativeTable[],
  body: (tx: IDBTransaction) => Promise<{ value: T; wrote: Written[] } | undefined>,
): Promise<T | undefined> {
  // Closed for a newer version of the app (db.ts): never opened again by this tab's code.
  // The user is told as the update prompt tells them: update this tab; the typed value stays in its journal.
  if (databaseSuperseded()) throw new Error(i18next.t('update.updatedElsewhere'));
  if (!offlineDb.isOpen()) await offlineDb.open();
  let tx: IDBTransaction;
  try {
    tx = offlineDb.backendDB().transaction(tables, 'readwrite', { durability: 'strict' });
  } catch {
    return undefined;
  }
  let finished = false;
  const committed = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => {
      finished = true;
      resolve();
    };
    tx.onabort = () => {
      finished = true;
      reject(tx.error ?? new DOMException('The change was not written.', 'AbortError'));
    };
  });
  committed.catch(() => undefined);
  let outcome: Awaited<ReturnType<typeof body>>;
  try {
    outcome = await body(tx);
  } catch (error) {
    if (!finished) tx.abort();
    throw error;
  }
  if (outcome === undefined) {
    if (finished) throw new Error('A change declined after its transaction had finished: what it wrote, if anything, stays.');
    tx.abort();
    return undefined;
  }
  await committed;
  announce(outcome.wrote);
  return outcome.value;
}

/** The parts of the database the records touched, as Dexie's observability names them: their keys and index values. */
function announce(wrote: Written[]): void {
  const parts: ObservabilitySet = {};
  const part = (table: string, index: string) => (parts[`idb://${offlineDb.name}/${table}/${index}`] ??= new RangeSet()) as RangeSet;
  for (const { table, before, after } of wrote) {
    const { primKey, indexes } = offlineDb.table(table).schema;
    for (const record of before ? [before, after] : [after]) {
      part(table, '').addKey(Dexie.getByKeyPath(record, primKey.keyPath!) as IndexableType);
      for (const index of indexes) {
        const value = Dexie.getByKeyPath(record, index.keyPath!) as IndexableType | undefined;
        if (value !== undefined) part(table, index.name).addKey(value);
      }
    }
  }
  Dexie.on.storagemutated.fire(parts);
}
