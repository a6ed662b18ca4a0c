/** Planning calls of the stock service (§7): create, edit, cancel, recount, statistics, relationships, print. */
import { useQuery } from '@tanstack/react-query';
import {
  occupancyResponse,
  relationshipResponse,
  stockCountRow,
  type CreateStockCountBody,
  type OccupancyReport,
  type Relationships,
  type StockCountRow,
  type UpdateStockCountBody,
} from '../../../contract/stock';
import { stockApi, toSearchParams } from '../../../lib/api-client';
import type { OutboxEntry, OutboxRequest } from '../../../offline/db';
import { KIND, PLANNING_SCOPE } from '../offline/count-sheet';
import { isNetworkFailure, isOffline } from '../../../offline/errors';
import { enqueue } from '../../../offline/outbox';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';
import { useProfile } from '../../../lib/profile';

/**
 * A planner's change to a count. Online it is sent at once (so the form can show the server's
 * message next to the fields); when there is no connection, or the answer is lost, it goes to the
 * outbox under the SAME Idempotency-Key, so a request that did reach the server is never applied
 * twice, and nothing the planner filled in is lost. The stock-count screen lists what waits.
 */
export type PlanningAction = 'create' | 'edit' | 'send' | 'cancel' | 'recount';
export type PlanningSummary = NonNullable<OutboxEntry['summary']> & { action: PlanningAction };
export type PlanningResult = { queued: true } | { queued: false; row: StockCountRow };

function planningRequest(action: PlanningAction, body: CreateStockCountBody | UpdateStockCountBody | { stockCountId: number }): OutboxRequest {
  if (action === 'create') return { service: 'stock', method: 'POST', path: 'my_stock_count', json: body };
  if (action === 'recount') return { service: 'stock', method: 'POST', path: 'my_stock_count/recount', json: body };
  return { service: 'stock', method: 'PUT', path: 'my_stock_count', json: body };
}

export async function planChange(
  userEmail: string,
  summary: PlanningSummary,
  body: CreateStockCountBody | UpdateStockCountBody | { stockCountId: number },
): Promise<PlanningResult> {
  const request = planningRequest(summary.action, body);
  const key = crypto.randomUUID();
  if (!isOffline()) {
    try {
      const row: StockCountRow = stockCountRow.parse(await stockApi(request.path, { method: request.method, json: request.json, headers: { 'Idempotency-Key': key } }).json());
      return { queued: false, row };
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
    }
  }
  const countId = 'stockCountId' in body ? body.stockCountId : null;
  await enqueue({
    id: key,
    userEmail,
    kind: KIND.plan,
    scope: PLANNING_SCOPE,
    target: countId === null ? `new-count:${key}` : `count:${countId}`,
    request,
    apply: async () => undefined,
    summary,
  });
  return { queued: true };
}

export const createStockCount = (userEmail: string, body: CreateStockCountBody) =>
  planChange(
    userEmail,
    { action: 'create', plant: body.plant, storageLocation: body.storageLocation, type: body.type, draft: body.draft ?? false, conductedBy: body.conductedBy ?? null },
    body,
  );

export const updateStockCount = (userEmail: string, action: 'edit' | 'send' | 'cancel', body: UpdateStockCountBody) =>
  planChange(userEmail, { action, stockCountId: body.stockCountId }, body);

export const recountStockCount = (userEmail: string, stockCountId: number) =>
  planChange(userEmail, { action: 'recount', stockCountId }, { stockCountId });

export type RelationshipKind = 'plant' | 'storage_location' | 'work_center' | 'mechanic';

/** Plants, storage locations, work centers and people to plan with: mirrored, so a planner can fill in a count offline. */
export function useRelationship(kind: RelationshipKind, plant: string | undefined, enabled = true) {
  const { email } = useProfile();
  return useMirroredQuery({
    queryKey: ['relationship', kind, plant ?? null],
    userEmail: email,
    scope: 'relationships',
    fetcher: async (): Promise<Relationships> => relationshipResponse.parse(await stockApi.get(`relationship/${kind}`, { searchParams: toSearchParams({ plant }) }).json()),
    enabled: enabled && (kind === 'plant' || Boolean(plant)),
    silent: true,
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
    queryFn: async (): Promise<OccupancyReport> => occupancyResponse.parse(await stockApi.get('my_stock_count/occupancy_report', { searchParams: toSearchParams({ ...filter }) }).json()),
    enabled: filter !== null,
    // Offline it fails at once and says so where the chart goes (paused, it spun for ever).
    networkMode: 'always',
    meta: { silent: true },
  });
}
