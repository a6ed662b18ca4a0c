/**
 * Offline the approval screen's reads fail at once (its LoadError says "no connection"), never wait
 * for ever. The pending requests are one cache with the users-management tab's, refreshed by a
 * decision, by a refused one and by a change to users (a removal).
 */
import { onlineManager, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userApi } from '../../../lib/api-client';
import { approvalQueries, approvalRequestQuery, pendingApprovalsQuery, useDecideApproval } from './approval-requests';

afterEach(() => onlineManager.setOnline(true));

/** The query as the screen runs it, its call failing the way fetch does offline. */
async function offlineFailure(options: ReturnType<typeof approvalRequestQuery> | ReturnType<typeof pendingApprovalsQuery>): Promise<unknown> {
  onlineManager.setOnline(false);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const failed = client
    .fetchQuery({
      ...options,
      queryFn: () => Promise.reject(new TypeError('Failed to fetch')),
    } as Parameters<typeof client.fetchQuery>[0])
    .catch((error: unknown) => error);
  // Paused (networkMode 'online') the promise never settles: the screen showed its spinner for ever.
  const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200));
  return Promise.race([failed, waiting]);
}

describe('approval reads offline', () => {
  it('fail at once instead of pausing until a connection comes', async () => {
    expect(await offlineFailure(approvalRequestQuery('r1'))).toBeInstanceOf(TypeError);
    expect(await offlineFailure(pendingApprovalsQuery())).toBeInstanceOf(TypeError);
    // The check itself: TanStack's default would still be waiting.
    expect(await offlineFailure({ ...pendingApprovalsQuery(), networkMode: 'online' })).toBe('still waiting');
  });
});

const REQUESTS = [{ requesting_user_email: 'new@example.com', request_id: 'r1', created: '2026-12-01T08:00:00Z' }];

/** Renders `use` once (no DOM: markup only) and returns what it gave. */
function renderHook<T>(client: QueryClient, use: () => T): T {
  let result: T | undefined;
  function Probe() {
    result = use();
    return null;
  }
  renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(Probe)));
  return result as T;
}

describe('the pending requests', () => {
  it('are the users-management tab’s cache (its key and shape): what one screen reads, the other shows', async () => {
    // userQueries.pending() of the users feature (features do not import each other: its own test holds the same key).
    expect(approvalQueries.pending()).toEqual(['users-admin', 'pending']);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(approvalQueries.pending(), { requests: REQUESTS, hasMore: true });
    // The page lists the requests only.
    expect(renderHook(client, () => useQuery(pendingApprovalsQuery()).data)).toEqual(REQUESTS);
    // Read here, kept in the tab's shape, the X-Has-More header included.
    const get = vi
      .spyOn(userApi, 'get')
      .mockResolvedValue(new Response(JSON.stringify(REQUESTS), { headers: { 'content-type': 'application/json', 'X-Has-More': 'true' } }) as never);
    try {
      const fresh = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      await fresh.fetchQuery(pendingApprovalsQuery());
      expect(fresh.getQueryData(approvalQueries.pending())).toEqual({ requests: REQUESTS, hasMore: true });
    } finally {
      get.mockRestore();
    }
  });

  it('are read again after a decision, also a refused one (decided meanwhile: 409), and after any change to users', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
    const stale = () => client.getQueryState(approvalQueries.pending())?.isInvalidated;
    const decide = renderHook(client, () => useDecideApproval('r1'));

    client.setQueryData(approvalQueries.pending(), { requests: REQUESTS, hasMore: false });
    const post = vi.spyOn(userApi, 'post').mockImplementation(() => {
      throw new Error('This request was already approved by other@example.com');
    });
    try {
      await expect(decide.mutateAsync('approve')).rejects.toThrow('already approved');
    } finally {
      post.mockRestore();
    }
    expect(stale()).toBe(true);

    // What the users feature's changes refresh (userQueries.all(): a removal) reaches them too.
    client.setQueryData(approvalQueries.pending(), { requests: REQUESTS, hasMore: false });
    expect(stale()).toBe(false);
    await client.invalidateQueries({ queryKey: ['users-admin'] });
    expect(stale()).toBe(true);
  });
});
