import { useQueryClient, type Query, type QueryCache, type QueryClient } from '@tanstack/react-query';
import { trackingStatusResponse, type TrackingStatusPage, type TrackingStatusParams } from '../../../contract/parts';
import { partsApi, toSearchParams } from '../../../lib/api-client';
import type { Mirrored } from '../../../offline/mirror';
import { cursorOf, useMirroredQuery } from '../../../offline/use-mirrored-query';

/** GET /parts/v1/users/me/tracking-status: one page of order rows with the tab counts. */
export const getTrackingStatus = async (params: TrackingStatusParams, signal?: AbortSignal): Promise<TrackingStatusPage> =>
  trackingStatusResponse.parse(await partsApi.get('users/me/tracking-status', { searchParams: toSearchParams({ ...params }), signal }).json());

export const trackingQueries = {
  all: () => ['tracking'] as const,
  list: (params: TrackingStatusParams) => [...trackingQueries.all(), 'list', params] as const,
  order: (orderId: string) => [...trackingQueries.all(), 'order', orderId] as const,
};

/**
 * #16, decision 0035: a page after the first is read after the last order of the page before it
 * (`after` = that page's `next_cursor`) when the page before is at hand, as it is for "Load more"
 * and Next: the server reads it at the same cost at any depth, and an order that moved above it
 * meanwhile neither repeats nor hides a row. Without it (an address that opens on page 7), by
 * number. Queries and the device's copies stay keyed by page number.
 *
 * The loaded pages are read again together (back on the screen after their stale time, a
 * reconnection, an invalidation): the page before's cursor at hand is then the one of its old
 * answer, and an order that moved meanwhile would hide or show twice. So a page waits for the page
 * before's read going on and takes its fresh cursor (the pages are read one after another then);
 * when that read fails or stops, by number. The wait only ever goes to a lower page: no cycle.
 */
export async function cursorOfPageBefore(client: QueryClient, userEmail: string, params: TrackingStatusParams, signal?: AbortSignal): Promise<string | undefined> {
  if (params.page <= 1) return undefined;
  const before = trackingQueries.list({ ...params, page: params.page - 1 });
  // Pages read again together start in one go in the cache's order, not the pages' (a page
  // opened by its address, then Previous): one turn lets the page before start its read too.
  await Promise.resolve();
  signal?.throwIfAborted();
  const cache = client.getQueryCache();
  const query = cache.find({ queryKey: [...before, userEmail], exact: true });
  if (query?.state.fetchStatus === 'fetching' && !(await serverAnswers(cache, query, signal))) return undefined;
  return cursorOf(client, before, userEmail);
}

/**
 * Waits for the read of `query` going on: true when the server answered it; false when it failed,
 * was cancelled (its old data put back), paused, the query left the cache, or the device's copy
 * stood in for the answer (mirror.ts: its cursor is as old as the copy). Rejects when `signal`
 * aborts (this page's own read was superseded, decision 0026).
 */
function serverAnswers(cache: QueryCache, query: Query, signal?: AbortSignal): Promise<boolean> {
  const { dataUpdateCount, errorUpdateCount } = query.state;
  const answered = () =>
    query.state.dataUpdateCount > dataUpdateCount &&
    query.state.errorUpdateCount === errorUpdateCount &&
    (query.state.data as Mirrored<unknown> | undefined)?.source === 'network';
  return new Promise<boolean>((resolve, reject) => {
    let stop = () => {};
    const finish = (settle: () => void) => {
      stop();
      signal?.removeEventListener('abort', aborted);
      settle();
    };
    const aborted = () => finish(() => reject(signal?.reason));
    stop = cache.subscribe((event) => {
      if (event.query !== query) return;
      if (event.type === 'removed') finish(() => resolve(false));
      else if (query.state.fetchStatus !== 'fetching') finish(() => resolve(answered()));
    });
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** One page, network first, the device's copy offline (each page is mirrored on its own). */
export function useTrackingStatus(userEmail: string, params: TrackingStatusParams, options: { enabled?: boolean; mainList?: boolean; silent?: boolean } = {}) {
  const client = useQueryClient();
  return useMirroredQuery({
    queryKey: trackingQueries.list(params),
    userEmail,
    scope: 'tracking',
    // A newer search or page of the monitor supersedes this one: its request is aborted (decision 0026).
    fetcher: async (signal) => {
      const after = await cursorOfPageBefore(client, userEmail, params, signal);
      return getTrackingStatus(after === undefined ? params : { ...params, after }, signal);
    },
    enabled: options.enabled ?? true,
    mainList: options.mainList ?? true,
    silent: options.silent ?? false,
  });
}
