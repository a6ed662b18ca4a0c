/**
 * A full disk is no longer only a console line: a write refused for want of space sets the shell's
 * "storage full" state (storage-state.ts), the next write that goes through clears it, and a full
 * disk reported by a query or a change is said in the user's language (lib/query-client.ts).
 */
import 'fake-indexeddb/auto';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAfterFirstScreen } from '../lib/after-first-screen';
import { currentError, dismissError } from '../lib/error-alert';
import { createQueryClient } from '../lib/query-client';
import { offlineDb } from './db';
import { guardQuota, StorageFullError } from './errors';
import { networkFirst, writeMirror } from './mirror';
import { isStorageFull, setStorageFull, subscribeStorageFull } from './storage-state';

const quotaError = () => Object.assign(new Error('full'), { name: 'QuotaExceededError' });

afterEach(async () => {
  vi.restoreAllMocks();
  setStorageFull(false);
  await offlineDb.pages.clear();
});

describe('guardQuota', () => {
  it('sets the state on a write refused for space and clears it on the next write that goes through', async () => {
    const changes = vi.fn();
    const stop = subscribeStorageFull(changes);
    await expect(guardQuota(async () => Promise.reject(quotaError()))).rejects.toBeInstanceOf(StorageFullError);
    expect(isStorageFull()).toBe(true);
    // Dexie's wrapped form (an AbortError with the browser's error inside) counts the same.
    await expect(guardQuota(async () => Promise.reject(Object.assign(new Error('abort'), { name: 'AbortError', inner: quotaError() })))).rejects.toBeInstanceOf(StorageFullError);
    expect(isStorageFull()).toBe(true);
    // Another failure says nothing about the space.
    await expect(guardQuota(async () => Promise.reject(new Error('constraint')))).rejects.toThrow('constraint');
    expect(isStorageFull()).toBe(true);
    await expect(guardQuota(async () => 'written')).resolves.toBe('written');
    expect(isStorageFull()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
    stop();
  });
});

describe('the mirror', () => {
  it('a copy saved behind the answer that finds the disk full sets the state', async () => {
    openAfterFirstScreen();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(offlineDb.pages, 'bulkPut').mockImplementation(() => {
      throw quotaError();
    });
    await networkFirst({ key: 'u|full', scope: 's', fetcher: async () => ({ n: 1 }) });
    await vi.waitFor(() => expect(isStorageFull()).toBe(true));
  });

  it('a copy written at once sets the state when refused, and clears it once saved', async () => {
    const put = vi.spyOn(offlineDb.pages, 'put').mockImplementation(() => {
      throw quotaError();
    });
    await expect(writeMirror({ key: 'u|m', scope: 's' }, { n: 1 })).rejects.toBeInstanceOf(StorageFullError);
    expect(isStorageFull()).toBe(true);
    put.mockRestore();
    await writeMirror({ key: 'u|m', scope: 's' }, { n: 2 });
    expect(isStorageFull()).toBe(false);
    expect((await offlineDb.pages.get('u|m'))?.data).toEqual({ n: 2 });
  });
});

describe('the query client', () => {
  beforeAll(async () => {
    await i18next.init({ lng: 'de-DE', resources: { 'de-DE': { translation: { offline: { quotaFull: 'Kein Speicherplatz mehr' } } } } });
  });

  it('says a full disk in the user language, not the error English text', async () => {
    const client = createQueryClient();
    await client
      .getMutationCache()
      .build(client, { mutationFn: async () => Promise.reject(new StorageFullError()) })
      .execute(undefined)
      .catch(() => undefined);
    await vi.waitFor(() => expect(currentError()?.message).toBe('Kein Speicherplatz mehr'));
    dismissError();
  });
});
