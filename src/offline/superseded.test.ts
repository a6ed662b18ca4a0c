/**
 * A newer version of the app takes the device database over (another tab after Update): this tab
 * lets go and never opens it again with its old code; its writes fail instead of landing in the
 * upgraded database (quantity edits keep their journal).
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { expect, it } from 'vitest';
import { databaseSuperseded, NEWER_DATABASE_EVENT, offlineDb } from './db';
import { nativeChange } from './native';

it('closes for a newer version, says so, and refuses to open again', async () => {
  const told: string[] = [];
  Object.defineProperty(globalThis, 'window', { value: new EventTarget(), configurable: true });
  window.addEventListener(NEWER_DATABASE_EVENT, () => told.push('newer'));
  await offlineDb.open();
  expect(databaseSuperseded()).toBe(false);

  const newer = new Dexie('partstrack');
  newer.version(offlineDb.verno + 1).stores({});
  await newer.open();
  expect(databaseSuperseded()).toBe(true);
  expect(told).toEqual(['newer']);
  expect(offlineDb.isOpen()).toBe(false);

  await expect(nativeChange(['outbox'], async () => ({ value: 1, wrote: [] }))).rejects.toThrow();
  expect(offlineDb.isOpen()).toBe(false);
  newer.close();
});
