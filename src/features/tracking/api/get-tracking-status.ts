import type { TrackingStatusPage, TrackingStatusParams } from '../../../contract/parts';
import { partsApi, toSearchParams } from '../../../lib/api-client';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';

/** GET /parts/v1/users/me/tracking-status: one page of order rows with the tab counts. */
export const getTrackingStatus = (params: TrackingStatusParams) =>
  partsApi.get('users/me/tracking-status', { searchParams: toSearchParams({ ...params }) }).json<TrackingStatusPage>();

export const trackingQueries = {
  all: () => ['tracking'] as const,
  list: (params: TrackingStatusParams) => [...trackingQueries.all(), 'list', params] as const,
  order: (orderId: string) => [...trackingQueries.all(), 'order', orderId] as const,
};

/** One page, network first, the device's copy offline (each page is mirrored on its own). */
export function useTrackingStatus(userEmail: string, params: TrackingStatusParams, options: { enabled?: boolean; mainList?: boolean; silent?: boolean } = {}) {
  return useMirroredQuery({
    queryKey: trackingQueries.list(params),
    userEmail,
    scope: 'tracking',
    fetcher: () => getTrackingStatus(params),
    enabled: options.enabled ?? true,
    mainList: options.mainList ?? true,
    silent: options.silent ?? false,
  });
}
