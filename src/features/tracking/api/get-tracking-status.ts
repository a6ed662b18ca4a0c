import { trackingStatusResponse, type TrackingStatusPage, type TrackingStatusParams } from '../../../contract/parts';
import { partsApi, toSearchParams } from '../../../lib/api-client';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';

/** GET /parts/v1/users/me/tracking-status: one page of order rows with the tab counts. */
export const getTrackingStatus = async (params: TrackingStatusParams, signal?: AbortSignal): Promise<TrackingStatusPage> =>
  trackingStatusResponse.parse(await partsApi.get('users/me/tracking-status', { searchParams: toSearchParams({ ...params }), signal }).json());

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
    // A newer search or page of the monitor supersedes this one: its request is aborted (decision 0026).
    fetcher: (signal) => getTrackingStatus(params, signal),
    enabled: options.enabled ?? true,
    mainList: options.mainList ?? true,
    silent: options.silent ?? false,
  });
}
