import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { TrackingStatusPage, TrackingStatusParams } from '../../../contract/parts';
import type { Mirrored } from '../../../offline/mirror';
import { cursorOfPageBefore, trackingQueries } from './get-tracking-status';

const USER = 'mechanic@example.com';
const params = (page: number): TrackingStatusParams => ({ query: 'door', status: 'all', myOrders: false, maxResults: 20, page });
const keyOf = (page: number) => [...trackingQueries.list(params(page)), USER];
const pageWith = (next_cursor: string | null, source: Mirrored<unknown>['source'] = 'network'): Mirrored<TrackingStatusPage> => ({ data: { next_cursor } as TrackingStatusPage, savedAt: 1, source });

/** A read of `page` going on (as when all loaded pages are read again), answered or failed by the test. */
function readAgain(client: QueryClient, page: number) {
  let answer!: (value: Mirrored<TrackingStatusPage>) => void;
  let fail!: (error: Error) => void;
  const call = new Promise<Mirrored<TrackingStatusPage>>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  const done = client.fetchQuery({ queryKey: keyOf(page), queryFn: () => call }).catch(() => undefined);
  return { answer, fail, done };
}

/** Whether the promise has settled by the time everything already queued has run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return settled;
}

describe('cursorOfPageBefore (#16: Load more reads after the page before, by keyset)', () => {
  it('gives the next_cursor of the page before when it is at hand', async () => {
    const client = new QueryClient();
    client.setQueryData(keyOf(2), pageWith('c2'));
    await expect(cursorOfPageBefore(client, USER, params(3))).resolves.toBe('c2');
  });

  it('gives none for the first page, a page whose page before is not at hand, or after the last page', async () => {
    const client = new QueryClient();
    client.setQueryData(keyOf(1), pageWith(null));
    await expect(cursorOfPageBefore(client, USER, params(1))).resolves.toBeUndefined();
    await expect(cursorOfPageBefore(client, USER, params(5))).resolves.toBeUndefined();
    await expect(cursorOfPageBefore(client, USER, params(2))).resolves.toBeUndefined();
  });

  it('never takes the cursor of another search, tab or user', async () => {
    const client = new QueryClient();
    client.setQueryData([...trackingQueries.list({ ...params(1), query: 'lift' }), USER], pageWith('other-search'));
    client.setQueryData([...trackingQueries.list({ ...params(1), status: 'arrived' }), USER], pageWith('other-tab'));
    client.setQueryData([...trackingQueries.list(params(1)), 'someone@example.com'], pageWith('other-user'));
    await expect(cursorOfPageBefore(client, USER, params(2))).resolves.toBeUndefined();
  });
});

describe('cursorOfPageBefore while the loaded pages are read again together', () => {
  it('waits for the page before and takes its fresh cursor, not the old one at hand', async () => {
    const client = new QueryClient();
    client.setQueryData(keyOf(1), pageWith('old'));
    const before = readAgain(client, 1);
    const cursor = cursorOfPageBefore(client, USER, params(2));
    expect(await isSettled(cursor)).toBe(false);
    before.answer(pageWith('fresh'));
    await expect(cursor).resolves.toBe('fresh');
  });

  it('waits for a page before whose read starts just after its own (the cache holds the pages in another order)', async () => {
    const client = new QueryClient();
    client.setQueryData(keyOf(2), pageWith('old'));
    const cursor = cursorOfPageBefore(client, USER, params(3));
    const before = readAgain(client, 2);
    before.answer(pageWith('fresh'));
    await expect(cursor).resolves.toBe('fresh');
  });

  it('reads by page number when the read of the page before fails, is cancelled or is answered by the device copy', async () => {
    const failing = new QueryClient();
    failing.setQueryData(keyOf(1), pageWith('old'));
    const failed = readAgain(failing, 1);
    const afterFailure = cursorOfPageBefore(failing, USER, params(2));
    failed.fail(new Error('502'));
    await expect(afterFailure).resolves.toBeUndefined();

    const cancelling = new QueryClient();
    cancelling.setQueryData(keyOf(1), pageWith('old'));
    readAgain(cancelling, 1);
    const afterCancel = cursorOfPageBefore(cancelling, USER, params(2));
    await isSettled(afterCancel);
    await cancelling.cancelQueries({ queryKey: keyOf(1) });
    await expect(afterCancel).resolves.toBeUndefined();

    const offline = new QueryClient();
    offline.setQueryData(keyOf(1), pageWith('old'));
    const copied = readAgain(offline, 1);
    const afterCopy = cursorOfPageBefore(offline, USER, params(2));
    copied.answer(pageWith('saved', 'mirror'));
    await expect(afterCopy).resolves.toBeUndefined();
  });

  it('stops waiting when its own read is superseded', async () => {
    const client = new QueryClient();
    client.setQueryData(keyOf(1), pageWith('old'));
    readAgain(client, 1);
    const superseded = new AbortController();
    const cursor = cursorOfPageBefore(client, USER, params(2), superseded.signal);
    await isSettled(cursor);
    superseded.abort(new DOMException('A newer read', 'AbortError'));
    await expect(cursor).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('does not wait for a page before that is not being read', async () => {
    const client = new QueryClient();
    client.setQueryData(keyOf(1), pageWith('c1'));
    expect(await isSettled(cursorOfPageBefore(client, USER, params(2)))).toBe(true);
  });
});
