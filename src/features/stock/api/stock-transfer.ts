/** A stock transfer request (§3) and the storage locations it may go to, parsed with their contract schemas. */
import { queryOptions } from '@tanstack/react-query';
import { relationshipResponse, transferRequestList, transferRequestRow, type Relationships, type TransferRequestRow } from '../../../contract/stock';

/** The transfer requests the caller sees, and whether there are more than the list holds. */
export interface TransferRequests {
  items: TransferRequestRow[];
  has_more?: boolean;
}
import type { TransferDecision } from '../../../domain/stock';
import { stockApi, toSearchParams } from '../../../lib/api-client';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';

export interface TransferRequest {
  plant: string;
  storageLocationFrom: string;
  storageLocationTo: string;
  materialCode: string;
  quantity: number;
}

/**
 * The transfer calls are never paused for a connection (TanStack's default, networkMode
 * 'online'): a request typed while the signal dropped was held, unseen, and sent after Cancel; the
 * storage locations stayed an empty list with no reason. Offline they fail at once, said in the
 * app's words ("No connection."), and the buttons that send are off while offline.
 */
export const SENT_NOW = { networkMode: 'always' } as const;

/** GET /api/v2/relationship/storage_location?plant=: the storage locations of a plant. */
export const getStorageLocations = async (plant: string): Promise<Relationships> =>
  relationshipResponse.parse(await stockApi.get('relationship/storage_location', { searchParams: toSearchParams({ plant }) }).json());

/** The storage locations a transfer of `plant` may go to, read once in ten minutes. */
export const storageLocationsQuery = (plant: string) =>
  queryOptions({
    queryKey: ['relationship', 'storage_location', plant],
    queryFn: () => getStorageLocations(plant),
    staleTime: 10 * 60_000,
    ...SENT_NOW,
    // The dialog shows a failure itself (LoadError): not the global alert a second time.
    meta: { silent: true },
  });

/**
 * POST /api/v2/stock_transfer_request: once (Idempotency-Key), answered with the stored request.
 * `key` belongs to what is requested: sent again after an answer was lost (the dialog's button
 * pressed again), the same request under the same key is stored once.
 */
export const requestStockTransfer = async (request: TransferRequest, key: string): Promise<TransferRequestRow> =>
  transferRequestRow.parse(await stockApi.post('stock_transfer_request', { json: request, headers: { 'Idempotency-Key': key } }).json());

/**
 * One Idempotency-Key per content, for a dialog's life: the same content asks again under its key
 * (also after another was tried in between), a different one under its own.
 */
export function contentKeys<T>(): (content: T) => string {
  const keys = new Map<string, string>();
  return (content) => {
    const text = JSON.stringify(content);
    const key = keys.get(text) ?? crypto.randomUUID();
    keys.set(text, key);
    return key;
  };
}

/** The keys of a transfer dialog's requests (contentKeys). */
export const transferKeys = (): ((request: TransferRequest) => string) => contentKeys<TransferRequest>();

/** The query key of the transfer requests the caller sees (refetched after a request or a decision). */
export const TRANSFER_REQUESTS_KEY = ['stock-transfer-requests'] as const;

/** GET /api/v2/stock_transfer_request: the caller's own requests and, for those who decide them, their plants' (decision 0061). */
export const getTransferRequests = async (signal?: AbortSignal): Promise<TransferRequests> =>
  transferRequestList.parse(await stockApi.get('stock_transfer_request', signal ? { signal } : {}).json());

/** PUT /api/v2/stock_transfer_request/:id/decision: done or declined, once (Idempotency-Key: a lost answer asked again is applied once). */
export const decideTransfer = async (id: string, status: TransferDecision, key: string): Promise<TransferRequestRow> =>
  transferRequestRow.parse(
    await stockApi.put(`stock_transfer_request/${encodeURIComponent(id)}/decision`, { json: { status }, headers: { 'Idempotency-Key': key } }).json(),
  );

/**
 * The transfer requests, mirrored like every list: offline the last copy shows, with the time it
 * was saved (OfflineBanner). One query for the dialog and the toolbar's count of waiting requests
 * (the same key: opening the dialog reads nothing more). Silent: the dialog shows a failure
 * itself (LoadError); the global alert would say it a second time.
 */
export function useTransferRequests(userEmail: string, enabled = true) {
  return useMirroredQuery({
    queryKey: TRANSFER_REQUESTS_KEY,
    userEmail,
    scope: 'stock-transfer-requests',
    fetcher: getTransferRequests,
    enabled,
    silent: true,
  });
}
