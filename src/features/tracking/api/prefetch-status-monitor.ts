/**
 * The status monitor's first page, started by the route table together with the screen's chunk
 * (#22): same query (key, mirror, fetcher) as the screen's, so the screen finds it in flight or
 * answered. The state comes from the address, or the one remembered for the side-bar link.
 */
import type { QueryClient } from '@tanstack/react-query';
import { PAGE_SIZE } from '../../../domain/constants';
import { mirroredQueryOptions } from '../../../offline/use-mirrored-query';
import { readMonitorState, rememberedMonitorParams } from '../hooks/use-monitor-state';
import { getTrackingStatus, trackingQueries } from './get-tracking-status';

export function prefetchStatusMonitor(queryClient: QueryClient, userEmail: string, search: URLSearchParams): void {
  // The permission to see "my orders" is not known yet: a wrong guess costs one call, not a wrong list.
  const state = readMonitorState(rememberedMonitorParams(search), true);
  if (state.tab === 'notifications') return;
  const params = {
    query: state.query,
    status: state.tab === 'mine' ? 'all' : state.tab,
    myOrders: state.tab === 'mine' || state.mine,
    maxResults: PAGE_SIZE,
    page: state.page,
  } as const;
  void queryClient.prefetchQuery(
    mirroredQueryOptions({ queryKey: trackingQueries.list(params), userEmail, scope: 'tracking', fetcher: (signal) => getTrackingStatus(params, signal), mainList: true }),
  );
}
