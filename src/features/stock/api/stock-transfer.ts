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

/** POST /api/v2/stock_transfer_request: once (Idempotency-Key), answered with the stored request. */
export const requestStockTransfer = async (request: TransferRequest): Promise<TransferRequestRow> =>
  transferRequestRow.parse(await stockApi.post('stock_transfer_request', { json: request, headers: { 'Idempotency-Key': crypto.randomUUID() } }).json());
