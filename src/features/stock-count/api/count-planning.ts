/** Planning calls of the stock service (§7): create, edit, cancel, recount, statistics, relationships, print. */
import { useQuery } from '@tanstack/react-query';
import {
  occupancyResponse,
  relationshipResponse,
  stockCountRow,
  type CreateStockCountBody,
  type ExpectedStockCount,
  type OccupancyReport,
  type Relationships,
  type StockCountRow,
  type UpdateStockCountBody,
} from '../../../contract/stock';
import { isCodedRefusal, stockApi, toSearchParams } from '../../../lib/api-client';
import { offlineDb, type OutboxEntry, type OutboxRequest } from '../../../offline/db';
import { KIND, PLANNING_SCOPE } from '../offline/count-sheet';
import { isGatewayAnswer, isNetworkFailure, isOffline } from '../../../offline/errors';
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
/** `behind`: queued while online, behind a change of the same count still waiting (it is sent after it). */
/** `unanswered`: sent while online, no answer of the server's came (a gateway's 502-504, or none): it is sent again from the outbox. */
export type PlanningResult = { queued: true; behind?: boolean; unanswered?: boolean } | { queued: false; row: StockCountRow };

function planningRequest(action: PlanningAction, body: CreateStockCountBody | UpdateStockCountBody | { stockCountId: number }): OutboxRequest {
  if (action === 'create') return { service: 'stock', method: 'POST', path: 'my_stock_count', json: body };
  if (action === 'recount') return { service: 'stock', method: 'POST', path: 'my_stock_count/recount', json: body };
  return { service: 'stock', method: 'PUT', path: 'my_stock_count', json: body };
}

export async function planChange(
  userEmail: string,
  summary: PlanningSummary,
  body: CreateStockCountBody | UpdateStockCountBody | { stockCountId: number },
  /** The outbox entry (seq) of a refused change this one is made again for: not one to wait behind (the caller drops it after). */
  replaces?: number,
): Promise<PlanningResult> {
  const request = planningRequest(summary.action, body);
  const key = crypto.randomUUID();
  const countId = 'stockCountId' in body ? body.stockCountId : null;
  const target = countId === null ? `new-count:${key}` : `count:${countId}`;
  // A change of a count whose earlier change still waits in the outbox goes behind it, in order: a
  // Send made online after an Edit made offline (naming who counts) reached the server first, and
  // was refused as sent to nobody.
  const behind =
    countId !== null &&
    (await offlineDb.outbox
      .where('target')
      .equals(target)
      // The refused change this one is made again for, while it is still refused (not retried meanwhile).
      .filter((entry) => entry.userEmail === userEmail && entry.kind === KIND.plan && !(entry.seq === replaces && (entry.status === 'failed' || entry.status === 'conflict')))
      .count()) > 0;
  const offline = isOffline();
  let unanswered = false;
  if (!offline && !behind) {
    try {
      const row: StockCountRow = stockCountRow.parse(await stockApi(request.path, { method: request.method, json: request.json, headers: { 'Idempotency-Key': key } }).json());
      return { queued: false, row };
    } catch (error) {
      // No answer, or a gateway's instead of the server's (502, 503, 504: the request may have
      // been applied behind it): queued under the same key, so a count is never created twice. A
      // second press of Send made a new key and could create a second count.
      if (!isNetworkFailure(error) && !isGatewayAnswer(error)) throw error;
      unanswered = !isOffline();
    }
  }
  await enqueue({
    id: key,
    userEmail,
    kind: KIND.plan,
    scope: PLANNING_SCOPE,
    target,
    request,
    apply: async () => undefined,
    summary,
  });
  // Offline, that there is no connection is what the planner needs to hear; online, that the server did not answer.
  return behind && !offline ? { queued: true, behind: true } : unanswered ? { queued: true, unanswered: true } : { queued: true };
}

/** What waits in the outbox for one count (its target `count:<id>`), as its card needs it. */
export interface WaitingPlan {
  /** Every change waiting is an edit not refused: a Send may go behind them (planChange queues it). */
  editsOnly: boolean;
  /** Who counts, as the last waiting edit names them (null: none names anyone). */
  counter: string | null;
  /** One of them was refused by the server: it waits for the planner (Edit, Retry or Discard above the list), not for a connection. */
  refused: boolean;
}

/**
 * The planning changes still waiting per count. The card holds its actions while one waits: a
 * Cancel or Recount tapped twice offline went twice (the second refused, 409), and an Edit's dialog
 * showed the count as it was before the waiting one. A waiting edit's counter counts for Send.
 */
export function waitingPlans(entries: readonly OutboxEntry[]): Map<number, WaitingPlan> {
  const byCount = new Map<number, WaitingPlan>();
  for (const entry of entries) {
    const match = /^count:(\d+)$/.exec(entry.target);
    if (!match) continue;
    const id = Number(match[1]);
    const seen = byCount.get(id) ?? { editsOnly: true, counter: null, refused: false };
    const action = (entry.summary as PlanningSummary | undefined)?.action;
    const edit = action === 'edit' && entry.status !== 'failed' && entry.status !== 'conflict';
    const named = edit ? (entry.request.json as UpdateStockCountBody | undefined) : undefined;
    byCount.set(id, {
      editsOnly: seen.editsOnly && edit,
      counter: named && 'conductedBy' in named && named.conductedBy ? named.conductedBy.toLowerCase() : seen.counter,
      refused: seen.refused || entry.status === 'failed' || entry.status === 'conflict',
    });
  }
  return byCount;
}

export const createStockCount = (userEmail: string, body: CreateStockCountBody) =>
  planChange(
    userEmail,
    { action: 'create', plant: body.plant, storageLocation: body.storageLocation, type: body.type, draft: body.draft ?? false, conductedBy: body.conductedBy ?? null },
    body,
  );

export const updateStockCount = (userEmail: string, action: 'edit' | 'send' | 'cancel', body: UpdateStockCountBody, replaces?: number) =>
  planChange(userEmail, { action, stockCountId: body.stockCountId }, body, replaces);

/**
 * The count as the planner's screen showed it, for an edit or a cancel to name what it started
 * from (decision 0068). Taken when the change is made, so a change queued offline names the count
 * as it was shown then: another planner's change meanwhile is refused, not overwritten unseen.
 */
export const shownCount = (count: StockCountRow): Required<ExpectedStockCount> => ({
  conductedBy: count.conducted_by,
  workCenter: count.work_center,
  shouldBeDoneAt: count.should_be_done_at,
  status: count.status,
});

/** Someone else changed the count since the screen showed it (409 countChangedMeanwhile): nothing was saved. */
export const isCountChangedMeanwhile = (error: unknown): Promise<boolean> => isCodedRefusal(error, 409, 'countChangedMeanwhile');

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
