import type { QueryClient } from '@tanstack/react-query';
import { orderDetails, type OrderDetails, type TrackingStatusPage } from '../../../contract/parts';
import { partsApi } from '../../../lib/api-client';
import type { Mirrored } from '../../../offline/mirror';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';
import { trackingQueries } from './get-tracking-status';

/** GET /parts/v1/users/me/tracking-status/{orderId}: every item with its carrier events. */
export const getOrderDetails = async (orderId: string): Promise<OrderDetails> =>
  orderDetails.parse(await partsApi.get(`users/me/tracking-status/${encodeURIComponent(orderId)}`).json());

export function useOrderDetails(userEmail: string, orderId: string) {
  return useMirroredQuery({
    queryKey: trackingQueries.order(orderId),
    userEmail,
    scope: 'tracking',
    fetcher: () => getOrderDetails(orderId),
  });
}

/**
 * The order as a status-monitor page on this device lists it (the newest such page), for a
 * details page that has nothing saved of its own (offline, never opened): its listed items, without
 * carrier events. A mechanic in a basement still sees where to collect the parcel.
 */
export function listedOrder(client: QueryClient, userEmail: string, orderId: string): OrderDetails | null {
  let best: { row: OrderDetails; at: number } | null = null;
  for (const [key, value] of client.getQueriesData<Mirrored<TrackingStatusPage>>({ queryKey: [...trackingQueries.all(), 'list'] })) {
    if (key.at(-1) !== userEmail || !value?.data) continue;
    const row = value.data.trackingStatus.find((candidate) => candidate.orderId === orderId);
    const at = value.savedAt;
    if (row && (!best || at > best.at)) best = { row: { ...row, items: row.items.map((item) => ({ ...item, parcelEvents: [] })) }, at };
  }
  return best?.row ?? null;
}
