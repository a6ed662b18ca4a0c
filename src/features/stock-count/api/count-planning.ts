/** Planning calls of the stock service (§7): create, edit, cancel, recount, statistics, relationships, print. */
import { useQuery } from '@tanstack/react-query';
import type { CreateStockCountBody, OccupancyReport, Relationships, StockCountRow, UpdateStockCountBody } from '../../../contract/stock';
import { stockApi, toSearchParams } from '../../../lib/api-client';

export const createStockCount = (body: CreateStockCountBody) =>
  stockApi.post('my_stock_count', { json: body, headers: { 'Idempotency-Key': crypto.randomUUID() } }).json<StockCountRow>();

export const updateStockCount = (body: UpdateStockCountBody) =>
  stockApi.put('my_stock_count', { json: body, headers: { 'Idempotency-Key': crypto.randomUUID() } }).json<StockCountRow>();

export const recountStockCount = (stockCountId: number) =>
  stockApi.post('my_stock_count/recount', { json: { stockCountId }, headers: { 'Idempotency-Key': crypto.randomUUID() } }).json<StockCountRow>();

export type RelationshipKind = 'plant' | 'storage_location' | 'work_center' | 'mechanic';

export function useRelationship(kind: RelationshipKind, plant: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ['relationship', kind, plant ?? null],
    queryFn: () => stockApi.get(`relationship/${kind}`, { searchParams: toSearchParams({ plant }) }).json<Relationships>(),
    enabled: enabled && (kind === 'plant' || Boolean(plant)),
    staleTime: 10 * 60_000,
  });
}

export interface OccupancyFilter {
  start_date: string;
  end_date: string;
  plant?: string;
  planner_group?: string;
  conducted_by?: string;
}

export function useOccupancy(filter: OccupancyFilter | null) {
  return useQuery({
    queryKey: ['occupancy', filter],
    queryFn: () => stockApi.get('my_stock_count/occupancy_report', { searchParams: toSearchParams({ ...filter }) }).json<OccupancyReport>(),
    enabled: filter !== null,
  });
}
