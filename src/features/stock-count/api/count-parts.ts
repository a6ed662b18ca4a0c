/**
 * #18 several counters on one count (decision 0033), the planner's calls: the split, progress per
 * counter, the merge with its variances, a line's resolution, and the submit that may confirm
 * open parts. Planning a split reads the server's present state, so these calls are online: the
 * counters' own work (their quantities, "my part is done") goes through the outbox in
 * offline/count-sheet.ts.
 */
import { useQuery } from '@tanstack/react-query';
import {
  mergeLineRow,
  mergeResponse,
  partLinesResponse,
  stockCountPartsResponse,
  submitConflict,
  type MergeLineRow,
  type ResolveLineBody,
  type SplitStockCountBody,
  type StockCountPartRow,
  type StockCountParts,
} from '../../../contract/stock-count-parts';
import { stockCountRow, type StockCountRow } from '../../../contract/stock';
import { getStockCount } from './get-stock-counts';
import { answerMessage, stockApi, toSearchParams, isCodedRefusal } from '../../../lib/api-client';
import { sendOnce } from '../../../lib/send-once';

export const countPartQueries = {
  all: () => ['count-parts'] as const,
  progress: (stockCountId: number) => [...countPartQueries.all(), 'progress', stockCountId] as const,
  merge: (stockCountId: number) => [...countPartQueries.all(), 'merge', stockCountId] as const,
};

export const fetchPartsProgress = async (stockCountId: number) =>
  stockCountPartsResponse.parse(await stockApi.get('my_stock_count/parts', { searchParams: toSearchParams({ stockCountId }) }).json());

export function usePartsProgress(stockCountId: number, enabled = true) {
  return useQuery({ queryKey: countPartQueries.progress(stockCountId), queryFn: () => fetchPartsProgress(stockCountId), enabled });
}

/** Lines counted by two or more counters, and every variance, with each counter's quantity. */
export function useMerge(stockCountId: number, enabled = true) {
  return useQuery({
    queryKey: countPartQueries.merge(stockCountId),
    queryFn: async () => mergeResponse.parse(await stockApi.get('my_stock_count/merge', { searchParams: toSearchParams({ stockCountId }) }).json()),
    enabled,
  });
}

/** The material codes of a part as it stands, and the split's revision then: how the split editor shows an existing split. */
export async function fetchPartCodes(stockCountId: number, partId: number): Promise<{ codes: string[]; revision?: string }> {
  const part = partLinesResponse.parse(await stockApi.get('my_stock_count/part', { searchParams: toSearchParams({ stockCountId, partId }) }).json());
  return { codes: part.lines.map((line) => line.material_code), ...(part.split_revision !== undefined ? { revision: part.split_revision } : {}) };
}

/** What a form read from two splits names: an md5 never has this shape, so the server answers 409 and the editor reads again. */
export const MIXED_SPLIT_REVISION = 'mixed';

/**
 * The split as it stands, for the split editor: its parts (those the caller already read, or read
 * now when null) and each part's material codes. A failure is thrown: an editor that went on from
 * a blank form would save over a split it never showed. `revision` is the progress's, else the
 * parts' own; parts that disagree name MIXED_SPLIT_REVISION: a split changed during the reads
 * makes the save a 409 and the editor reads again, never a form stitched from two splits saved as one.
 */
export async function readSplit(
  stockCountId: number,
  known: StockCountPartRow[] | null,
  read: {
    progress: (stockCountId: number) => Promise<StockCountParts>;
    codes: (stockCountId: number, partId: number) => Promise<{ codes: string[]; revision?: string }>;
  } = {
    progress: fetchPartsProgress,
    codes: fetchPartCodes,
  },
): Promise<{ parts: StockCountPartRow[]; codes: string[][]; isBlind: boolean | null; revision?: string }> {
  const progress = known ? null : await read.progress(stockCountId);
  const parts = known ?? progress!.parts;
  const read_ = await Promise.all(parts.map((part) => read.codes(stockCountId, part.id)));
  // Parts read in parallel that name different revisions were read either side of a change: the
  // form mixes two splits, and its save must be refused (a revision no split has), not accepted.
  const seen = new Set(read_.flatMap((part) => (part.revision === undefined ? [] : [part.revision])));
  const revision = seen.size > 1 ? MIXED_SPLIT_REVISION : (progress?.split_revision ?? read_[0]?.revision);
  return { parts, codes: read_.map((part) => part.codes), isBlind: progress ? progress.is_blind : null, ...(revision !== undefined ? { revision } : {}) };
}

/** The split was changed by someone else since the editor read it (409 splitChangedMeanwhile): nothing was saved. */
export const isSplitChangedMeanwhile = (error: unknown): Promise<boolean> => isCodedRefusal(error, 409, 'splitChangedMeanwhile');

const write = (key: string) => ({ headers: { 'Idempotency-Key': key } });

/** Saved again after no answer, the same split under the first try's key (sendOnce): not refused as changed meanwhile by that try. */
export const splitCount = (body: SplitStockCountBody) =>
  sendOnce('stock-count-parts', `my_stock_count/parts:${body.stockCountId}`, body, async (key) =>
    stockCountPartsResponse.parse(await stockApi.put('my_stock_count/parts', { json: body, ...write(key) }).json()),
  );

/** Decided again after no answer, the same decision under the first try's key (sendOnce). */
export const resolveMergeLine = (body: ResolveLineBody): Promise<MergeLineRow> =>
  sendOnce('stock-count-parts', `my_stock_count/merge/resolve:${body.materialCountId}`, body, async (key) =>
    mergeLineRow.parse(await stockApi.post('my_stock_count/merge/resolve', { json: body, ...write(key) }).json()),
  );

/**
 * "Take <counter>'s" as the planner saw the line: with the counter's quantity and the line's
 * decision shown, so the server refuses (409) rather than books a quantity changed since or
 * overrides another planner's decision unseen.
 */
export function takeLineBody(stockCountId: number, line: MergeLineRow, partId: number): ResolveLineBody {
  const shown = line.counts.find((count) => count.part_id === partId)?.quantity;
  return {
    stockCountId,
    materialCountId: line.material_count_id,
    action: 'take',
    partId,
    ...(shown === undefined || shown === null ? {} : { expectedQuantity: shown }),
    expectedResolvedPartId: line.resolved_part_id,
  };
}

/** "Send to recount" as the planner saw the line: with each counter's quantity and the decision shown (cleared only if unchanged). */
export function recountLineBody(stockCountId: number, line: MergeLineRow): ResolveLineBody {
  return {
    stockCountId,
    materialCountId: line.material_count_id,
    action: 'recount',
    expectedCounts: line.counts.map((count) => ({ partId: count.part_id, quantity: count.quantity })),
    expectedResolvedPartId: line.resolved_part_id,
  };
}

/**
 * The submit's query: a confirmation names the open parts the planner was shown, so a part
 * opened since is not confirmed unseen (servers that do not know openPartIds ignore it).
 */
export function submitSearchParams(stockCountId: number, confirmedOpenParts?: readonly number[]): URLSearchParams {
  return toSearchParams({ stockCountId, ...(confirmedOpenParts ? { confirmOpenParts: 'true', openPartIds: confirmedOpenParts } : {}) });
}

export type PlannerSubmit =
  | { outcome: 'submitted'; row: StockCountRow }
  /** `changed`: a confirmation refused because other parts are open now than those confirmed. */
  | { outcome: 'open-parts'; message: string; openParts: StockCountPartRow[]; changed: boolean }
  | { outcome: 'variances'; message: string; variances: MergeLineRow[] }
  | { outcome: 'refused'; message: string };

/**
 * The planner submits a split count: open parts come back for the planner to confirm (then sent
 * again with those parts' ids), variances to resolve first; any other refusal with its message.
 */
export async function submitAsPlanner(stockCountId: number, confirmedOpenParts?: readonly number[]): Promise<PlannerSubmit> {
  const response = await stockApi.get('my_stock_count/submit', { searchParams: submitSearchParams(stockCountId, confirmedOpenParts), throwHttpErrors: false });
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return { outcome: 'submitted', row: stockCountRow.parse(body) };
  const conflict = submitConflict.safeParse(body);
  // A refusal with a code the app knows in the user's language (decision 0055), a 5xx or 429 in
  // its words (the ERP not answering, the database away), else the server's message.
  const message = answerMessage(response.status, body, response.headers.get('retry-after')) ?? `${response.status} ${response.statusText}`;
  if (response.status === 409 && conflict.success && conflict.data.open_parts?.length) {
    return { outcome: 'open-parts', message, openParts: conflict.data.open_parts, changed: confirmedOpenParts !== undefined };
  }
  if (response.status === 409 && conflict.success && conflict.data.variances?.length) return { outcome: 'variances', message, variances: conflict.data.variances };
  return { outcome: 'refused', message };
}

/** One count's row (plant, status, split), read for the planner's merge screen. */
export function useStockCountRow(stockCountId: number) {
  return useQuery({
    queryKey: [...countPartQueries.all(), 'count', stockCountId],
    queryFn: () => getStockCount(stockCountId),
  });
}
