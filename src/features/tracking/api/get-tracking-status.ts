import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { trackingStatusResponse, type TrackingStatusPage, type TrackingStatusParams } from '../../../contract/parts';
import { partsApi, toSearchParams } from '../../../lib/api-client';
import { freshCursorOf, useMirroredQuery } from '../../../offline/use-mirrored-query';

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
 * number. Queries and the device's copies stay keyed by page number. Pages read again together
 * wait for the page before's fresh cursor (`freshCursorOf`).
 */
export function cursorOfPageBefore(client: QueryClient, userEmail: string, params: TrackingStatusParams, signal?: AbortSignal): Promise<string | undefined> {
  if (params.page <= 1) return Promise.resolve(undefined);
  return freshCursorOf(client, trackingQueries.list({ ...params, page: params.page - 1 }), userEmail, signal);
}

/** One page, network first, the device's copy offline (each page is mirrored on its own). */
export function useTrackingStatus(userEmail: string, params: TrackingStatusParams, options: { enabled?: boolean; mainList?: boolean; silent?: boolean } = {}) {
  const client = useQueryClient();
  return useMirroredQuery({
    queryKey: trackingQueries.list(params),
    userEmail,
    scope: 'tracking',
    // A newer search or page of the monitor supersedes this one: its request is aborted (decision 0026).
    afterOf: (signal) => cursorOfPageBefore(client, userEmail, params, signal),
    fetcher: (signal, after) => getTrackingStatus(after === undefined ? params : { ...params, after }, signal),
    enabled: options.enabled ?? true,
    mainList: options.mainList ?? true,
    silent: options.silent ?? false,
  });
}
