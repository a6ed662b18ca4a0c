/**
 * The status monitor's first page, started by the route table together with the screen's chunk
 * (#22): same query (key, mirror, fetcher) as the screen's, so the screen finds it in flight or
 * answered. The state comes from the address, or the one remembered for the side-bar link.
 */
import type { QueryClient } from '@tanstack/react-query';
import { mirroredQueryOptions } from '../../../offline/use-mirrored-query';
import { firstPageParams } from '../utils/monitor-state';
import { getTrackingStatus, trackingQueries } from './get-tracking-status';

export function prefetchStatusMonitor(queryClient: QueryClient, userEmail: string, search: URLSearchParams): void {
  const params = firstPageParams(search);
  if (!params) return;
  void queryClient.prefetchQuery(
    // Silent: a guess the screen corrects (My orders for a role without it: 403) is no alert.
    mirroredQueryOptions({ queryKey: trackingQueries.list(params), userEmail, scope: 'tracking', fetcher: (signal) => getTrackingStatus(params, signal), mainList: true, silent: true }),
  );
}
