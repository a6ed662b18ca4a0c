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

/**
 * One Idempotency-Key per request content, for a dialog's life: the same request asks again under
 * its key (also after another was tried in between), a different one under its own.
 */
export function transferKeys(): (request: TransferRequest) => string {
  const keys = new Map<string, string>();
  return (request) => {
    const content = JSON.stringify(request);
    const key = keys.get(content) ?? crypto.randomUUID();
    keys.set(content, key);
    return key;
  };
}
