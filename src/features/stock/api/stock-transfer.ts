/** A stock transfer request (§3) and the storage locations it may go to, parsed with their contract schemas. */
import { relationshipResponse, transferRequestRow, type Relationships, type TransferRequestRow } from '../../../contract/stock';
import { stockApi, toSearchParams } from '../../../lib/api-client';

export interface TransferRequest {
  plant: string;
  storageLocationFrom: string;
  storageLocationTo: string;
  materialCode: string;
  quantity: number;
}

/** GET /api/v2/relationship/storage_location?plant=: the storage locations of a plant. */
export const getStorageLocations = async (plant: string): Promise<Relationships> =>
  relationshipResponse.parse(await stockApi.get('relationship/storage_location', { searchParams: toSearchParams({ plant }) }).json());

/**
 * POST /api/v2/stock_transfer_request: once (Idempotency-Key), answered with the stored request.
 * `key` belongs to what is requested: sent again after an answer was lost (the dialog's button
 * pressed again), the same request under the same key is stored once.
 */
export const requestStockTransfer = async (request: TransferRequest, key: string): Promise<TransferRequestRow> =>
  transferRequestRow.parse(await stockApi.post('stock_transfer_request', { json: request, headers: { 'Idempotency-Key': key } }).json());

/** One Idempotency-Key per request content: the same request asks again under its key, a changed one under a new key. */
export function transferKeys(): (request: TransferRequest) => string {
  let last: { content: string; key: string } | null = null;
  return (request) => {
    const content = JSON.stringify(request);
    if (last?.content !== content) last = { content, key: crypto.randomUUID() };
    return last.key;
  };
}
