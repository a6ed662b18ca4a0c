import type { QueryClient } from '@tanstack/react-query';
import { orderDetails, type OrderDetails, type TrackingStatusPage } from '../../../contract/parts';
import { partsApi } from '../../../lib/api-client';
import { mirrorKey, type Mirrored } from '../../../offline/mirror';
import { deviceDb } from '../../../offline/device-db';
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

/** An order as a saved status-monitor page lists it, and when that page was saved (it may be days old). */
export interface ListedOrder {
  row: OrderDetails;
  savedAt: number;
}

/**
 * The order as a status-monitor page on this device lists it (the newest such page), for a
 * details page that has nothing saved of its own (offline, never opened): its listed items, without
 * carrier events. A mechanic in a basement still sees where to collect the parcel. The pages in
 * memory first (the monitor just shown; a page not yet written to the device is there only), then
 * those saved on the device (the app opened offline on an order's address, from a notification,
 * or minutes after the monitor was last shown).
 */
export async function orderFromList(client: QueryClient, userEmail: string, orderId: string): Promise<ListedOrder | null> {
  const inMemory = newestListing(
    client.getQueriesData<Mirrored<TrackingStatusPage>>({ queryKey: [...trackingQueries.all(), 'list'] }).flatMap(([key, value]) =>
      key.at(-1) === userEmail && value?.data ? [{ page: value.data, savedAt: value.savedAt }] : [],
    ),
    orderId,
  );
  if (inMemory) return inMemory;
  // Every saved list page of this user: keys `${email}|["tracking","list",{…}]`.
  const prefix = `${mirrorKey(userEmail, [...trackingQueries.all(), 'list']).slice(0, -1)},`;
  const pages = await (await deviceDb()).pages.where('key').startsWith(prefix).toArray();
  return newestListing(
    pages.map((page) => ({ page: page.data as TrackingStatusPage, savedAt: page.savedAt })),
    orderId,
  );
}

function newestListing(pages: Array<{ page: TrackingStatusPage; savedAt: number }>, orderId: string): ListedOrder | null {
  let best: ListedOrder | null = null;
  for (const { page, savedAt } of pages) {
    const row = page.trackingStatus?.find((candidate) => candidate.orderId === orderId);
    if (row && (!best || savedAt > best.savedAt)) best = { row: { ...row, items: row.items.map((item) => ({ ...item, parcelEvents: [] })) }, savedAt };
  }
  return best;
}
