import { orderDetails, type OrderDetails } from '../../../contract/parts';
import { partsApi } from '../../../lib/api-client';
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
