/**
 * A stock count as the mechanic carries it: the count (a mirror page) and ALL its lines, fetched
 * whole when the count is opened in the yard, so every line can be counted in a basement.
 * Changes go through the outbox: quantity edits (merged per line, sent with the version the
 * device holds), lines added (with a provisional negative id until the server gives the real
 * one), lines removed, and the submission, which queues behind the edits. The invariants are in
 * docs/decisions/0019-lossless-offline-counting.md; `register.ts` tells the sync core about them.
 */
import { HTTPError } from 'ky';
import {
  partLinesResponse,
  stockCountPartRow,
  stockCountPartsResponse,
  type PartElsewhere,
  type PartLineRow,
  type PartLines,
  type StockCountPartRow,
  type StockCountParts,
} from '../../../contract/stock-count-parts';
import {
  materialCountListResponse,
  stockCountListResponse,
  type MaterialCountConflict,
  type MaterialCountPage,
  type MaterialCountRow,
  type StockCountPage,
  type StockCountRow,
} from '../../../contract/stock';
import { parseQuantityInput } from '../../../domain/quantity';
import { stockApi, toSearchParams } from '../../../lib/api-client';
import { getSession, subscribeSession } from '../../../lib/auth/session';
import { CHUNK_SIZE, markKey, markUnverified, offlineDb, readMark, type LineSlot, type MirrorChunk, type MirrorPage, type OutboxEntry, type OutboxRequest } from '../../../offline/db';
import { GoneError, guardQuota, isNetworkFailure, isOffline } from '../../../offline/errors';
import { answerOrSavedCopy, mirrorKey, NothingSavedError, saveWaitingCopies, type Mirrored } from '../../../offline/mirror';
import { nativeChange, requested, type Written } from '../../../offline/native';
import { settle, settleEarlier, writeAhead } from '../../../offline/journal';
import { enqueue, entryFor, notifyEnqueued, opensFor } from '../../../offline/outbox';
import { noteUnitLearned, unitScope } from './unit-notices';

export interface CountSheet {
  stock_count: StockCountRow;
  material_counts: MaterialCountRow[];
  /**
   * #18, a count split among counters (decision 0033): the part this user counts. The lines are
   * then that part's, with this counter's own quantities and versions, and edits go to the part.
   */
  part?: StockCountPartRow;
  /** #18: every part's progress (no quantities), shown to the counter and the planner. */
  parts?: StockCountPartRow[];
  /** #18: the count's material codes outside this counter's part, and the part holding each (null: none yet). */
  elsewhere?: PartElsewhere[];
}

export const KIND = {
  quantity: 'material-count.quantity',
  add: 'material-count.add',
  remove: 'material-count.delete',
  submit: 'stock-count.submit',
  /** #18: "my part is done", or open again (a split count). */
  partStatus: 'stock-count-part.status',
  /** A planner's change to a count: create, edit, send, cancel, recount (see api/count-planning). */
  plan: 'stock-count.plan',
} as const;

/** Planning changes wait in one scope: the stock-count screen lists them. */
export const PLANNING_SCOPE = 'stock-count-planning';

export const sheetScope = (stockCountId: number) => `stock-count:${stockCountId}`;
export const sheetKey = (userEmail: string, stockCountId: number) => mirrorKey(userEmail, ['count-sheet', stockCountId]);
export const lineTarget = (id: number) => `line:${id}`;
export const targetId = (target: string) => Number(target.split(':')[1]);
export const isProvisional = (id: number) => id < 0;
export const stockCountIdOf = (entry: OutboxEntry) => Number(entry.scope.split(':')[1]);
const FETCH_PAGE = 200;
/** A read overtaken by a confirmation is read again this many times before it is merged anyway. */
const STALE_READS = 3;

// ───────────── reading the server ─────────────

/**
 * How the sheet is read from the stock service (replaceable for tests and benchmarks). For
 * `my_stock_count/part` a reader answers null when the user has no part of the count.
 */
export type SheetPath = 'my_stock_count' | 'my_material_count' | 'my_stock_count/part' | 'my_stock_count/parts';
export type SheetReader = (path: SheetPath, params: Record<string, string | number>) => Promise<unknown>;
const SCHEMAS = {
  my_stock_count: stockCountListResponse,
  my_material_count: materialCountListResponse,
  'my_stock_count/part': partLinesResponse,
  'my_stock_count/parts': stockCountPartsResponse,
} as const;
// Parsed at the edge with the contract schema of each list (#19), not cast.
const httpReader: SheetReader = async (path, params) => {
  try {
    return SCHEMAS[path].parse(await stockApi.get(path, { searchParams: toSearchParams(params) }).json());
  } catch (error) {
    // A planner who counts no part of a split count: they read the whole count.
    if (path === 'my_stock_count/part' && error instanceof HTTPError && error.response.status === 404) return null;
    throw error;
  }
};
let reader: SheetReader = httpReader;
export function setSheetReader(next: SheetReader | null): void {
  reader = next ?? httpReader;
}

/**
 * Every page of lines, in id order: a stable order that quantity edits made meanwhile cannot
 * reshuffle, so no line is read twice or skipped.
 */
export async function fetchCountSheet(stockCountId: number): Promise<CountSheet> {
  const header = (await reader('my_stock_count', { stockCountId, page: 1, maxResults: 1 })) as StockCountPage;
  const stockCount = header.stock_counts[0];
  if (!stockCount) throw new GoneError(`Stock count ${stockCountId} not found`);
  if ((stockCount.part_count ?? 0) > 0) {
    const [mine, progress] = (await Promise.all([reader('my_stock_count/part', { stockCountId }), reader('my_stock_count/parts', { stockCountId })])) as [
      PartLines | null,
      StockCountParts,
    ];
    if (mine) {
      const lines = mine.lines.map((line) => partLineAsRow(stockCountId, line));
      return { stock_count: stockCount, material_counts: lines, part: mine.part, parts: progress.parts, ...(mine.elsewhere ? { elsewhere: mine.elsewhere } : {}) };
    }
    return { ...(await fetchWholeCount(stockCount)), parts: progress.parts };
  }
  return fetchWholeCount(stockCount);
}

/**
 * A line of the counter's part as the sheet holds it: this counter's quantity and version (the
 * count's merged quantity is the planner's business). The book quantity the counter is shown is
 * the one they count against: a moved book quantity is the planner's to decide on a split count.
 */
export function partLineAsRow(stockCountId: number, line: PartLineRow): MaterialCountRow {
  return {
    id: line.material_count_id,
    stock_count_id: stockCountId,
    material_code: line.material_code,
    material_description_english: line.material_description_english,
    quantity: line.quantity,
    unit: line.unit,
    book_quantity: line.book_quantity,
    book_quantity_at: line.book_quantity_at,
    book_quantity_now: line.book_quantity,
    version: line.version,
    updated_by: line.counted_by,
    updated_at: line.counted_at ?? '',
    bin: line.bin,
  };
}

async function fetchWholeCount(stockCount: StockCountRow): Promise<CountSheet> {
  const stockCountId = stockCount.id;
  const lines: MaterialCountRow[] = [];
  for (let page = 1; ; page += 1) {
    const result = (await reader('my_material_count', { stockCountId, page, maxResults: FETCH_PAGE, orderByColumn: 'id', sortDirection: 'asc' })) as MaterialCountPage;
    lines.push(...result.material_counts);
    if (!result.has_next) break;
  }
  return { stock_count: stockCount, material_counts: lines };
}

type Edit = { id: number; quantity: number; version?: number; acceptBookQuantity?: number | null };
type PartQuantity = { materialCountId: number; quantity: number; version?: number };
type EditJson = { modifiedMaterials?: Edit[]; stockCountId?: number; quantities?: PartQuantity[] };
const PART_QUANTITIES = 'my_stock_count/part/quantities';
/** The edit an entry carries, whether it goes to the count (§7) or to the counter's part (#18). */
export function editOf(entry: OutboxEntry): Edit | undefined {
  const json = entry.request.json as EditJson | undefined;
  const edit = json?.modifiedMaterials?.[0];
  if (edit) return edit;
  const part = json?.quantities?.[0];
  return part && { id: part.materialCountId, quantity: part.quantity, ...(part.version === undefined ? {} : { version: part.version }) };
}

/** A line as a queued edit leaves it: its quantity, and the book quantity it accepted, if any. */
function withEdit(line: MaterialCountRow, edit: { quantity: number; acceptBookQuantity?: number | null }): MaterialCountRow {
  return edit.acceptBookQuantity === undefined
    ? { ...line, quantity: edit.quantity }
    : { ...line, quantity: edit.quantity, book_quantity: edit.acceptBookQuantity, book_quantity_at: line.book_quantity_at ?? new Date().toISOString() };
}

/**
 * What the device shows after a read of the server: the server's lines, in the order the device
 * already shows them (new lines at the end, so the list never jumps while the mechanic counts),
 * each line the newer of the two copies (versions only grow), and every open change on top.
 */
export function mergeSheet(local: MaterialCountRow[] | undefined, server: MaterialCountRow[], entries: OutboxEntry[]): MaterialCountRow[] {
  const adds = new Map<number, MaterialCountRow>();
  for (const entry of entries) {
    if (entry.kind === KIND.add && entry.undo) adds.set(targetId(entry.target), entry.undo as MaterialCountRow);
  }
  const addedCodes = new Set([...adds.values()].map((row) => row.material_code));
  const fromServer = new Map<number, MaterialCountRow>();
  for (const row of server) {
    // A line whose add is still travelling shows once, as the device's provisional line.
    if (!addedCodes.has(row.material_code) && !fromServer.has(row.id)) fromServer.set(row.id, row);
  }
  const localById = new Map((local ?? []).map((row) => [row.id, row]));
  const order: number[] = [];
  const seen = new Set<number>();
  const take = (id: number) => {
    if (!seen.has(id)) {
      seen.add(id);
      order.push(id);
    }
  };
  for (const row of local ?? []) if (fromServer.has(row.id) || adds.has(row.id)) take(row.id);
  for (const id of fromServer.keys()) take(id);
  for (const id of adds.keys()) take(id);

  const removed = new Set(entries.filter((entry) => entry.kind === KIND.remove).map((entry) => targetId(entry.target)));
  const edits = new Map<number, Edit>();
  for (const entry of entries) {
    const edit = entry.kind === KIND.quantity ? editOf(entry) : undefined;
    if (edit) edits.set(targetId(entry.target), { ...edits.get(targetId(entry.target)), ...edit });
  }
  const lines: MaterialCountRow[] = [];
  for (const id of order) {
    if (removed.has(id)) continue;
    const theirs = fromServer.get(id);
    const mine = localById.get(id);
    let row = theirs ? (mine && mine.version > theirs.version ? mine : theirs) : (mine ?? adds.get(id)!);
    const edit = edits.get(id);
    if (edit) row = withEdit(row, edit);
    lines.push(row);
  }
  return lines;
}

// ───────────── the sheet on the device ─────────────
// The page holds the count (and a split count's parts); the lines live in slices of CHUNK_SIZE
// rows in list order, and `slots` says which slice holds which line (device database v5), so a
// change reads its line's slot and slice, not the whole list (#22). A line changed since its
// slice was written rides on its slot (v6): an edit writes that one small record, not the slice,
// and every read of the lines takes the slots' copies over the slices'. Writing the sheet anew
// folds them into its slices.

interface SheetPageData {
  stock_count: StockCountRow;
  part?: StockCountPartRow;
  parts?: StockCountPartRow[];
  elsewhere?: PartElsewhere[];
}

const sliceOf = (position: number) => Math.floor(position / CHUNK_SIZE);

/** A sheet's slices and its lines changed since (by id), read side by side. */
interface Held {
  slices: MirrorChunk[];
  changed: Map<number, MaterialCountRow>;
}

async function readHeld(key: string): Promise<Held> {
  const [slices, changed] = await Promise.all([
    offlineDb.chunks.where('page').equals(key).sortBy('chunk'),
    offlineDb.slots.where('edited').equals(key).toArray(),
  ]);
  return { slices, changed: new Map(changed.map((slot) => [slot.id, slot.row as MaterialCountRow])) };
}

/**
 * Where this tab last saw a sheet's lines (its last read or write of the sheet): which slice holds
 * which line, which lines ride on their slots, and the slices themselves under the page's stamp
 * (`MirrorPage.slices`) they were read with. For the few sheets last used. The place is a guess
 * (another tab or a fold may have moved lines since): an edit asks for the slice it names in the
 * same round trip as the line's slot, instead of one round trip after it, and takes it only when
 * the slot names the same slice. The slices are taken only while the page's stamp is still the
 * one they were read with: then no slice was written since, and the first edit of a line needs no
 * slice read at all (#22, decision 0058). Holding them costs little: the screen holds the same rows.
 */
interface Seen {
  /** The slices as read, by slice number; which slice holds a line is derived from them when asked. */
  slices: Map<number, MaterialCountRow[]>;
  onSlot: Set<number>;
  stamp?: string;
}
const lastSeen = new Map<string, Seen>();
const SEEN_SHEETS = 4;
// Nothing of a signed-out user's sheets stays in the tab's memory (the sign-out does not reload it).
subscribeSession(() => {
  if (!getSession()) lastSeen.clear();
});

/** Kept with the read or write that saw the lines, under the page's stamp read or written with them. */
function remember(key: string, { slices, changed }: Held, stamp: string | undefined): void {
  lastSeen.delete(key);
  lastSeen.set(key, {
    slices: new Map(slices.map((slice) => [slice.chunk, slice.rows as MaterialCountRow[]])),
    onSlot: new Set(changed.keys()),
    ...(stamp === undefined ? {} : { stamp }),
  });
  if (lastSeen.size > SEEN_SHEETS) lastSeen.delete(lastSeen.keys().next().value!);
}

/** The slice this tab last saw line `id` in; none when the line rode on its slot (no slice to read). */
function sliceSeen(key: string, id: number): number | undefined {
  const seen = lastSeen.get(key);
  if (!seen || seen.onSlot.has(id)) return undefined;
  for (const [chunk, rows] of seen.slices) if (rows.some((row) => row.id === id)) return chunk;
  return undefined;
}

/** Whether this tab holds the slices of `key` as they were read under a stamp (a first edit then reads none). */
const holdsSlices = (key: string) => lastSeen.get(key)?.stamp !== undefined;

/**
 * Line `id` from this tab's copy of its slice `chunk`, when no slice was written since the copy
 * was read (the page's stamp) and the line has not ridden on its slot since, as far as this tab
 * knows: a slice written by a tab of an older release, which does not stamp, changes only lines
 * it took from their slots (decision 0058).
 */
function rowSeen(key: string, page: MirrorPage, chunk: number, id: number): MaterialCountRow | undefined {
  const seen = lastSeen.get(key);
  if (seen?.stamp === undefined || page.slices !== seen.stamp || seen.onSlot.has(id)) return undefined;
  return seen.slices.get(chunk)?.find((row) => row.id === id);
}

/**
 * A new stamp on the sheet's page: with every write of its slices, in the same transaction. An
 * update of the page as it is now (not a put of a copy read earlier in the transaction, which
 * could undo a change of the count made since).
 */
const restamp = (key: string) => offlineDb.pages.update(key, { slices: crypto.randomUUID() });

async function readSlices(key: string): Promise<Held | undefined> {
  if (!(await offlineDb.pages.get(key))) return undefined;
  return readHeld(key);
}

/** The sheet's lines in list order, each as the device holds it now. */
const linesOf = ({ slices, changed }: Held) =>
  slices.flatMap((chunk) => (changed.size === 0 ? (chunk.rows as MaterialCountRow[]) : (chunk.rows as MaterialCountRow[]).map((row) => changed.get(row.id) ?? row)));

/**
 * The slots of a sheet written anew: only lines whose slice is not the one they were in, or that
 * rode on their slot (now in the new slices), are written (a refresh that changes no line's place
 * writes none), and lines gone are removed.
 */
async function writeSlots(key: string, before: Held | undefined, lines: MaterialCountRow[]): Promise<void> {
  const was = new Map((before?.slices ?? []).flatMap((slice) => (slice.rows as MaterialCountRow[]).map((line) => [line.id, slice.chunk] as const)));
  const moved = lines.flatMap((line, position) =>
    was.get(line.id) === sliceOf(position) && !before?.changed.has(line.id) ? [] : [{ page: key, id: line.id, chunk: sliceOf(position) }],
  );
  const kept = new Set(lines.map((line) => line.id));
  const gone = [...was.keys()].filter((id) => !kept.has(id)).map((id): [string, number] => [key, id]);
  if (!before) await offlineDb.slots.where('page').equals(key).delete();
  if (gone.length > 0) await offlineDb.slots.bulkDelete(gone);
  if (moved.length > 0) await offlineDb.slots.bulkPut(moved);
}

/**
 * Writes a read of the server to the device, merged with what the device holds (`mergeSheet`).
 * With `readFrom` (the scope's confirmation mark when the read started), a read that a
 * confirmation overtook is not written (null): it may predate what was just confirmed. A read
 * that is not overtaken, with nothing left to send, verifies the scope (pull after push).
 */
export async function writeCountSheet(userEmail: string, sheet: CountSheet, readFrom?: number): Promise<Mirrored<CountSheet> | null> {
  const stockCountId = sheet.stock_count.id;
  const key = sheetKey(userEmail, stockCountId);
  const scope = sheetScope(stockCountId);
  const savedAt = Date.now();
  return guardQuota(() =>
    offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.slots, offlineDb.outbox, offlineDb.marks, async () => {
      if (readFrom !== undefined && (await readMark(userEmail, scope)) !== readFrom) return null;
      const entries = await offlineDb.outbox
        .where('scope')
        .equals(scope)
        .filter((entry) => entry.userEmail === userEmail)
        .sortBy('seq');
      const held = await readSlices(key);
      const lines = mergeSheet(held && linesOf(held), sheet.material_counts, entries);
      // "My part is done" still on its way stays shown as the counter set it.
      const statusEntry = entries.find((entry) => entry.kind === KIND.partStatus);
      const part = sheet.part && statusEntry ? { ...sheet.part, status: partStatusOf(statusEntry) } : sheet.part;
      const data: SheetPageData = {
        stock_count: sheet.stock_count,
        ...(part ? { part } : {}),
        ...(sheet.parts ? { parts: sheet.parts.map((row) => (part && row.id === part.id ? part : row)) } : {}),
        ...(sheet.elsewhere ? { elsewhere: sheet.elsewhere } : {}),
      };
      const stamp = crypto.randomUUID();
      await offlineDb.pages.put({ key, scope, savedAt, data, slices: stamp });
      await offlineDb.chunks.where('page').equals(key).delete();
      const chunks = [];
      for (let i = 0; i < lines.length; i += CHUNK_SIZE) chunks.push({ page: key, chunk: sliceOf(i), rows: lines.slice(i, i + CHUNK_SIZE) });
      await offlineDb.chunks.bulkPut(chunks);
      await writeSlots(key, held, lines);
      remember(key, { slices: chunks, changed: new Map() }, stamp);
      const travelling = entries.some((entry) => entry.status === 'pending' || entry.status === 'sending');
      if (readFrom !== undefined && !travelling) await offlineDb.marks.update(markKey(userEmail, scope), { unverified: false });
      return { data: { ...withParts(data), stock_count: sheet.stock_count, material_counts: lines }, savedAt, source: 'network' as const };
    }),
  );
}

/** The sheet on the device; null when this device has none (undefined is left to "still reading"). */
export async function readCountSheet(key: string): Promise<(CountSheet & { savedAt: number }) | null> {
  // One read transaction: the slices and the lines changed since are read as one state.
  const [page, held] = await offlineDb.transaction('r', offlineDb.pages, offlineDb.chunks, offlineDb.slots, () =>
    Promise.all([offlineDb.pages.get(key), readHeld(key)]),
  );
  if (!page) return null;
  remember(key, held, page.slices);
  if (held.changed.size >= FOLD_AT) foldSoon(key);
  return {
    ...withParts(page.data as SheetPageData),
    stock_count: (page.data as SheetPageData).stock_count,
    material_counts: linesOf(held),
    savedAt: page.savedAt,
  };
}

/**
 * Past this many lines changed on their slots (a whole count typed in without signal: no read of
 * the server folds them), a read of the sheet folds them into the slices: a 10,000-line sheet
 * with 10,000 changed lines read 4× slower (#22); with 1,000 as fast as with none.
 */
export const FOLD_AT = 1000;
const folding = new Set<string>();

function foldSoon(key: string): void {
  if (folding.has(key)) return;
  folding.add(key);
  // Outside the read's transaction and after its answer: the screen draws first.
  setTimeout(() => {
    foldChangedLines(key)
      .catch((error: unknown) => console.warn(`The changed lines of ${key} stay on their slots:`, error))
      .finally(() => folding.delete(key));
  }, 0);
}

/** Writes the lines changed on their slots into their slices, in one transaction; the sheet reads the same after. */
export async function foldChangedLines(key: string): Promise<void> {
  await guardQuota(() =>
    offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.slots, async () => {
      const changed = await offlineDb.slots.where('edited').equals(key).toArray();
      if (changed.length === 0) return;
      const bySlice = new Map<number, Map<number, MaterialCountRow>>();
      for (const slot of changed) {
        const lines = bySlice.get(slot.chunk) ?? new Map<number, MaterialCountRow>();
        bySlice.set(slot.chunk, lines.set(slot.id, slot.row as MaterialCountRow));
      }
      const slices = await offlineDb.chunks.bulkGet([...bySlice.keys()].map((chunk): [string, number] => [key, chunk]));
      const folded = new Set<number>();
      const rewritten = slices.flatMap((slice) => {
        const lines = slice && bySlice.get(slice.chunk);
        if (!slice || !lines) return [];
        const rows = (slice.rows as MaterialCountRow[]).map((row) => {
          const line = lines.get(row.id);
          if (!line) return row;
          folded.add(row.id);
          return line;
        });
        return [{ ...slice, rows }];
      });
      await offlineDb.chunks.bulkPut(rewritten);
      await restamp(key);
      // Only a line now in its slice leaves its slot: nothing the mechanic typed is dropped.
      await offlineDb.slots.bulkPut(changed.filter((slot) => folded.has(slot.id)).map(({ row: _row, edited: _edited, ...slot }) => slot));
      // Their next edit reads their slice again: ask for it with the slot.
      const seen = lastSeen.get(key);
      for (const id of folded) seen?.onSlot.delete(id);
    }),
  );
}

function withParts(data: SheetPageData): Pick<CountSheet, 'part' | 'parts' | 'elsewhere'> {
  return { ...(data.part ? { part: data.part } : {}), ...(data.parts ? { parts: data.parts } : {}), ...(data.elsewhere ? { elsewhere: data.elsewhere } : {}) };
}

/** Reads the server and writes it to the device; a read overtaken by a confirmation is read again. */
export async function refreshCountSheet(userEmail: string, stockCountId: number): Promise<Mirrored<CountSheet>> {
  const scope = sheetScope(stockCountId);
  for (let read = 1; ; read += 1) {
    const readFrom = await readMark(userEmail, scope);
    const sheet = await fetchCountSheet(stockCountId);
    const written = await writeCountSheet(userEmail, sheet, read < STALE_READS ? readFrom : undefined);
    if (written) return written;
  }
}

const fromDevice = ({ savedAt, ...data }: NonNullable<Awaited<ReturnType<typeof readCountSheet>>>): Mirrored<CountSheet> => ({ data, savedAt, source: 'mirror' });

/**
 * Network first; the device's copy when the network fails (ARCHITECTURE §3), or at once when it
 * gives no answer while the call is retried (`answerOrSavedCopy`, #22): the late answer is
 * written to the device like any other, and `onLateAnswer` hears of it.
 */
export async function loadCountSheet(
  userEmail: string,
  stockCountId: number,
  onLateAnswer?: (fresh: Mirrored<CountSheet>) => void,
  onLateFailure?: (error: unknown) => void,
): Promise<Mirrored<CountSheet>> {
  const key = sheetKey(userEmail, stockCountId);
  if (!isOffline()) {
    try {
      const outcome = await answerOrSavedCopy(
        refreshCountSheet(userEmail, stockCountId),
        async () => (await readCountSheet(key)) ?? undefined,
        (fresh) => onLateAnswer?.(fresh),
        // The count gone from the caller (handed to someone else, cancelled) after the device's copy was shown.
        (error) => onLateFailure?.(error),
      );
      return 'fresh' in outcome ? outcome.fresh : fromDevice(outcome.saved);
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
    }
  }
  const saved = await readCountSheet(key);
  if (!saved) throw new NothingSavedError();
  return fromDevice(saved);
}

async function sheetPage(key: string) {
  const page = await offlineDb.pages.get(key);
  return page ? { page, data: page.data as SheetPageData } : undefined;
}

/** Where a line sits on the device: its sheet page, slot, slice (unless read from its slot) and row. */
interface Located {
  sheet: NonNullable<Awaited<ReturnType<typeof sheetPage>>>;
  slot: LineSlot;
  chunk?: MirrorChunk;
  row: MaterialCountRow;
}

/** Whether the sheet `key` holds line `id` (its slot). */
async function holds(key: string, id: number): Promise<boolean> {
  return (await offlineDb.slots.get([key, id])) !== undefined;
}

async function locate(key: string, id: number): Promise<Located | undefined> {
  // The page, the line's slot and the slice this tab last saw it in together: one round trip (#22).
  // A line changed since its slice was written is on its slot: no slice to read.
  const seen = sliceSeen(key, id);
  const [sheet, slot, guessed] = await Promise.all([
    sheetPage(key),
    offlineDb.slots.get([key, id]),
    seen === undefined ? undefined : offlineDb.chunks.get([key, seen]),
  ]);
  if (!sheet || !slot) return undefined;
  if (slot.row) return { sheet, slot, row: slot.row as MaterialCountRow };
  const chunk = guessed?.chunk === slot.chunk ? guessed : await offlineDb.chunks.get([key, slot.chunk]);
  const row = (chunk?.rows as MaterialCountRow[] | undefined)?.find((r) => r.id === id);
  return chunk && row ? { sheet, slot, chunk, row } : undefined;
}

/** One line as the device holds it now. */
async function readLine(key: string, id: number): Promise<MaterialCountRow | undefined> {
  return (await locate(key, id))?.row;
}

/**
 * Changes one line. `change` returns null to remove the line. A line that keeps its id rides on
 * its slot (one small record, whatever the size of the count); a removal or a new id rewrites the
 * one slice holding it. `located` (read in the same transaction) spares reading them again.
 */
async function changeLine(
  key: string,
  id: number,
  change: (line: MaterialCountRow) => MaterialCountRow | null,
  located?: Located,
): Promise<void> {
  const found = located ?? (await locate(key, id));
  if (!found) return;
  const { slot, row: before } = found;
  const after = change(before);
  if (after?.id === id) {
    await offlineDb.slots.put({ page: key, id, chunk: slot.chunk, row: after, edited: key });
    lastSeen.get(key)?.onSlot.add(id);
    return;
  }
  const chunk = found.chunk ?? (await offlineDb.chunks.get([key, slot.chunk]));
  if (!chunk) return;
  const rows = chunk.rows as MaterialCountRow[];
  await offlineDb.chunks.put({ ...chunk, rows: after ? rows.map((row) => (row.id === id ? after : row)) : rows.filter((row) => row.id !== id) });
  await restamp(key);
  await offlineDb.slots.delete([key, id]);
  if (after) await offlineDb.slots.put({ page: key, id: after.id, chunk: chunk.chunk });
}

async function updateLine(key: string, id: number, change: (line: MaterialCountRow) => MaterialCountRow): Promise<void> {
  await changeLine(key, id, change);
}

async function deleteLine(key: string, id: number): Promise<void> {
  await changeLine(key, id, () => null);
}

/** A new line goes at the end of the list: into the last slice, or a new one when it is full. */
async function appendLine(key: string, line: MaterialCountRow): Promise<void> {
  if (!(await sheetPage(key)) || (await holds(key, line.id))) return;
  // The page index orders one page's slices by their key [page+chunk]: the last is the highest.
  const last = await offlineDb.chunks.where('page').equals(key).last();
  const slice = last && last.rows.length < CHUNK_SIZE ? { ...last, rows: [...last.rows, line] } : { page: key, chunk: last ? last.chunk + 1 : 0, rows: [line] };
  await offlineDb.chunks.put(slice);
  await restamp(key);
  await offlineDb.slots.put({ page: key, id: line.id, chunk: slice.chunk });
}

async function updateHeader(key: string, change: (count: StockCountRow) => StockCountRow): Promise<void> {
  const sheet = await sheetPage(key);
  if (sheet) await offlineDb.pages.put({ ...sheet.page, data: { ...sheet.data, stock_count: change(sheet.data.stock_count) } });
}

// ───────────── changes the mechanic makes ─────────────

/**
 * The request of a quantity edit: to the count (§7), or on a split count to the counter's part
 * (#18), which takes no book decision (that is the planner's on a split count).
 */
function editRequest(edit: Edit, partOf?: number): OutboxRequest {
  if (partOf === undefined) return { service: 'stock', method: 'PUT', path: 'my_material_count', json: { modifiedMaterials: [edit] } };
  return { service: 'stock', method: 'PUT', path: PART_QUANTITIES, json: { stockCountId: partOf, quantities: [partQuantity(edit)] } };
}
const partQuantity = (edit: Edit): PartQuantity => ({ materialCountId: edit.id, quantity: edit.quantity, ...(edit.version === undefined ? {} : { version: edit.version }) });
/** The count whose part an edit goes to; undefined for an edit of the count itself. */
const partOfRequest = (request: OutboxRequest) => (request.path === PART_QUANTITIES ? (request.json as EditJson).stockCountId : undefined);
/** The same kind of request as `like`, carrying `edit`. */
const rewriteEdit = (like: OutboxRequest, edit: Edit) => editRequest(edit, partOfRequest(like));

/** One request for several edits of one count (the outbox's batch): to the count, or to the counter's part. */
export function combineEdits(entries: OutboxEntry[]): OutboxRequest {
  const first = entries[0]!.request;
  const edits = entries.map((entry) => editOf(entry)!);
  const partOf = partOfRequest(first);
  return partOf === undefined ? { ...first, json: { modifiedMaterials: edits } } : { ...first, json: { stockCountId: partOf, quantities: edits.map(partQuantity) } };
}

const makeEdit = (id: number, quantity: number, version: number | undefined, accepted: { bookQuantity: number | null } | undefined): Edit => ({
  id,
  quantity,
  ...(version === undefined ? {} : { version }),
  ...(accepted === undefined ? {} : { acceptBookQuantity: accepted.bookQuantity }),
});

/**
 * The line the screen meant, as the device holds it now: a screen one render behind may still
 * name the provisional id of a line whose add was just confirmed (then the sheet's line of the
 * same material). With `gone`, also a line removed since whose material was added again: an edit
 * lands on the new line (a count holds one line per material); a removal does not follow it, as
 * it would take the new line's add and edits with it. The row itself when the device holds neither.
 */
async function currentLine(key: string, line: MaterialCountRow, gone = false): Promise<MaterialCountRow> {
  const byId = await readLine(key, line.id);
  if (byId || (!gone && !isProvisional(line.id))) return byId ?? line;
  const sheet = await readCountSheet(key);
  return sheet?.material_counts.find((row) => row.material_code === line.material_code) ?? line;
}

/**
 * Sets a counted quantity. The edit carries the version the DEVICE holds for the line (read in
 * the change's transaction, never the screen's props); a later edit of a waiting line merges
 * into it and keeps its version; an edit of a line in conflict supersedes the conflict, based on
 * the server's version the mechanic was shown. `acceptBook` (after the book quantity moved during
 * the count) makes the current book quantity the line's reference, so the flag clears.
 */
export async function setQuantity(
  userEmail: string,
  shown: MaterialCountRow,
  quantity: number,
  acceptBook?: { bookQuantity: number | null },
  from?: TypedFrom,
  at = Date.now(),
) {
  // Written down synchronously first: a page closed right after Enter replays it on its next start.
  const journal = writeAhead(KIND.quantity, {
    userEmail,
    shown,
    quantity,
    at,
    ...(acceptBook === undefined ? {} : { acceptBook }),
    ...(from === undefined ? {} : { from }),
  } satisfies QuantityJournal);
  // Settled once queued. Not queued (storage full, the database closed), the journal keeps it: the
  // field keeps the value and saves it again on the next Enter or blur, and a page closed meanwhile
  // replays it at its next start.
  const entry = await queueQuantity(userEmail, shown, quantity, acceptBook, from, false, at);
  settle(journal);
  // Earlier records of this line left unsettled (a save that failed, then was made again) are moot.
  settleEarlier(KIND.quantity, at, (payload) => {
    const earlier = payload as QuantityJournal;
    return earlier.userEmail === userEmail && earlier.shown.id === shown.id;
  });
  return entry;
}

/**
 * The line as the mechanic saw it when they began typing over it: its version and the quantity
 * the field showed. Typing can take a while (a shelf to count, the keyboard up); meanwhile a
 * read of the server may bring another counter's new value, which the field does not show while
 * it holds typing.
 */
export interface TypedFrom {
  version: number;
  quantity: number | null;
  /** The server's version of the line's conflict shown when typing began; absent when there was none. */
  theirs?: number;
}

/**
 * The version an edit builds on: the one the device holds, unless the line changed under the
 * typing, to a value the mechanic was never shown (another counter's, from a read of the server).
 * Then the version the typing began from: the server answers with a conflict, showing both
 * values, instead of silently overwriting the other counter's count. A change of version alone
 * (this device's own edit confirmed, or the same value counted elsewhere) is not a change under
 * the typing.
 */
/**
 * The line as the mechanic saw it when they began typing over it: the field's text, with the
 * line's version. The text runs ahead of the line the screen was given by what this field itself
 * just saved (the device's copy renders a moment later): a quick correction (Enter, then typing
 * again at once) began from the value typed, never from the one before it. Taken from the line,
 * it made the correction look typed over a change the mechanic never saw: sent with an old
 * version (a conflict with one's own count) or, replayed after a closed page, dropped as older
 * than that count (browser chaos, CHAOS_SEED=1457065507: 167 typed, 166 kept).
 */
export function typingFrom(line: MaterialCountRow, shownText: string, theirs?: number): TypedFrom {
  const shown = parseQuantityInput(shownText);
  const quantity = shown !== null && Number.isNaN(shown) ? line.quantity : shown;
  return { version: line.version, quantity, ...(theirs === undefined ? {} : { theirs }) };
}

function baseVersion(held: MaterialCountRow, from: TypedFrom | undefined): number {
  return from && held.version !== from.version && held.quantity !== from.quantity ? from.version : held.version;
}

export interface QuantityJournal {
  userEmail: string;
  shown: MaterialCountRow;
  quantity: number;
  acceptBook?: { bookQuantity: number | null };
  from?: TypedFrom;
  /** When the screen accepted it (absent in journals of older releases). */
  at?: number;
}

/**
 * Queues again an edit a closed page accepted (the write-ahead journal) unless the device holds
 * it already or holds a later one. The page may have died after the edit's transaction committed
 * and before the journal was settled, and the line may have been edited since (in another tab):
 * replaying then would overwrite the later edit with the older one. A line changed since by a read
 * of the server (no change of this device's waiting) gets the edit based on what the mechanic saw:
 * the server decides, with a conflict if the values differ.
 */
export async function replayQuantity(journal: QuantityJournal): Promise<OutboxEntry | undefined> {
  const { userEmail, shown, quantity, acceptBook } = journal;
  const from = journal.from ?? { version: shown.version, quantity: shown.quantity };
  if (!isProvisional(shown.id)) {
    const key = sheetKey(userEmail, shown.stock_count_id);
    const held = await readLine(key, shown.id);
    // Already queued before the page died (with its accepted book quantity, if it carried one).
    if (held?.quantity === quantity && (acceptBook === undefined || held.book_quantity === acceptBook.bookQuantity)) return undefined;
    if (held && held.quantity !== from.quantity) {
      // The line changed since the typing began. A change of this device waiting for it, made
      // after the journaled one (another tab typed since), stays. One made before it (not yet on
      // the field when the typing began: a scan, a quick correction) is overtaken by the journaled
      // edit, as it was on the screen. Journals of older releases carry no time: any waiting
      // change, or a value changed without a new version (only a waiting change of this device
      // does that), was taken as the later one.
      const { at } = journal;
      const waiting = await offlineDb.outbox
        .where('target')
        .equals(lineTarget(shown.id))
        // Travelling too: an entry stays `sending` after a round that found no connection.
        .filter((entry) => entry.kind === KIND.quantity && entry.userEmail === userEmail)
        .toArray();
      if (at === undefined ? waiting.length > 0 || held.version === from.version : waiting.some((entry) => (entry.changedAt ?? entry.createdAt) > at)) return undefined;
    }
  }
  // Queued under the time the screen accepted it, not the replay's: a later journaled edit of the
  // line, replayed next, orders itself against it. Not journaled again: the record being replayed
  // is the journal's copy, kept until this succeeds (a second record would outlive its tries).
  return queueQuantity(userEmail, shown, quantity, acceptBook, from, false, journal.at);
}

/** Thrown inside an edit's transaction (nothing written) when the line it names is gone from the sheet. */
class LineGone extends Error {}

/**
 * A quantity edit of `line`, whichever way it is written (`quickQuantity` or `enqueue`): its
 * request from the line as the device holds it, its merge into a waiting edit of the line, and
 * the line it leaves.
 */
function quantityChange(userEmail: string, line: MaterialCountRow, quantity: number, acceptBook?: { bookQuantity: number | null }, from?: TypedFrom, at?: number) {
  return {
    userEmail,
    ...(at === undefined ? {} : { at }),
    kind: KIND.quantity,
    scope: sheetScope(line.stock_count_id),
    target: lineTarget(line.id),
    /** The request, from the line as the device holds it (read in the change's transaction). */
    requestFrom: (held: Located | undefined) => {
      const partOf = held?.sheet.data.part ? line.stock_count_id : undefined;
      // A provisional line has no version yet: the add creates it, and its confirmation sets it.
      const version = isProvisional(line.id) ? undefined : baseVersion(held?.row ?? line, from);
      return editRequest(makeEdit(line.id, quantity, version, partOf === undefined ? acceptBook : undefined), partOf);
    },
    edited: (held: MaterialCountRow) => withEdit(held, { quantity, ...(acceptBook === undefined ? {} : { acceptBookQuantity: acceptBook.bookQuantity }) }),
    coalesce: (open: OutboxEntry) => {
      const earlier = editOf(open);
      const theirs = open.status === 'conflict' ? (open.theirs as MaterialCountRow | undefined) : undefined;
      // Typing over a line in conflict supersedes the conflict it was typed over, based on the
      // server's side shown. A conflict that arrived during the typing was not seen: the edit
      // stays based on what was seen, and the server shows the conflict again with the new value.
      const unseen = theirs && from && from.theirs !== theirs.version && theirs.quantity !== from.quantity;
      const version = theirs ? (unseen ? from.version : theirs.version) : earlier?.version;
      const partOf = partOfRequest(open.request);
      // An accepted book quantity the server refused (it moved again, decision 0054) is not
      // carried into the new value: it would be refused again. The choice is made again.
      const refusedAccept = theirs !== undefined && earlier?.acceptBookQuantity !== undefined && theirs.book_quantity_now !== earlier.acceptBookQuantity;
      const carried = earlier?.acceptBookQuantity === undefined || refusedAccept ? undefined : { bookQuantity: earlier.acceptBookQuantity };
      const accepted = partOf !== undefined ? undefined : (acceptBook ?? carried);
      return editRequest(makeEdit(line.id, quantity, isProvisional(line.id) ? undefined : version, accepted), partOf);
    },
    undo: { ...line },
  };
}

/**
 * The edit of a line the device simply holds (its sheet, its slot, its row), as ONE native
 * IndexedDB transaction (native.ts, decision 0058): the reads of `locate` and of `enqueue`'s open
 * entry together, then the line's slot and the entry written, by the same rules as the general
 * way. Undefined, with nothing written, for anything else (no sheet, a line gone, a provisional
 * id): the general way handles every case.
 */
async function quickQuantity(key: string, change: ReturnType<typeof quantityChange>, id: number): Promise<OutboxEntry | undefined> {
  // The slice is asked for only when this tab holds no copy of the slices it may take the line from.
  const seen = holdsSlices(key) ? undefined : sliceSeen(key, id);
  const entry = await guardQuota(() =>
    nativeChange(['pages', 'chunks', 'slots', 'outbox'], async (tx) => {
      const [page, slot, guessed, targets] = await Promise.all([
        requested<MirrorPage | undefined>(tx.objectStore('pages').get(key)),
        requested<LineSlot | undefined>(tx.objectStore('slots').get([key, id])),
        seen === undefined ? undefined : requested<MirrorChunk | undefined>(tx.objectStore('chunks').get([key, seen])),
        requested<OutboxEntry[]>(tx.objectStore('outbox').index('target').getAll(change.target)),
      ]);
      if (!page || !slot) return undefined;
      let chunk: MirrorChunk | undefined;
      let row = (slot.row as MaterialCountRow | undefined) ?? rowSeen(key, page, slot.chunk, id);
      if (!row) {
        chunk = guessed?.chunk === slot.chunk ? guessed : await requested<MirrorChunk | undefined>(tx.objectStore('chunks').get([key, slot.chunk]));
        row = (chunk?.rows as MaterialCountRow[] | undefined)?.find((r) => r.id === id);
        if (!row) return undefined;
      }
      const held: Located = { sheet: { page, data: page.data as SheetPageData }, slot, ...(chunk ? { chunk } : {}), row };
      // The open entry: the last of the target's (in the order they were queued), as `enqueue` asks.
      const open = targets.filter(opensFor(change)).at(-1);
      const next = entryFor(change, change.requestFrom(held), open);
      const outbox = tx.objectStore('outbox');
      const edited: LineSlot = { page: key, id, chunk: slot.chunk, row: change.edited(row), edited: key };
      const [, seq] = await Promise.all([
        requested(tx.objectStore('slots').put(edited)),
        requested(next.seq === undefined ? outbox.add(next) : outbox.put(next)),
      ]);
      const entry = next.seq === undefined ? { ...next, seq: seq as number } : next;
      const wrote: Written[] = [
        { table: 'slots', before: slot, after: edited },
        { table: 'outbox', ...(next.seq === undefined ? {} : { before: open! }), after: entry },
      ];
      return { value: entry, wrote };
    }),
  );
  if (!entry) return undefined;
  lastSeen.get(key)?.onSlot.add(id);
  notifyEnqueued();
  return entry;
}

async function queueQuantity(
  userEmail: string,
  shown: MaterialCountRow,
  quantity: number,
  acceptBook?: { bookQuantity: number | null },
  from?: TypedFrom,
  asShown = false,
  at?: number,
): Promise<OutboxEntry> {
  const key = sheetKey(userEmail, shown.stock_count_id);
  const line = isProvisional(shown.id) ? await currentLine(key, shown) : shown;
  const change = quantityChange(userEmail, line, quantity, acceptBook, from, at);
  if (!isProvisional(line.id) && !asShown) {
    // A change's patch of saved pages goes after copies still waiting to be saved (mirror.ts).
    await saveWaitingCopies();
    const quick = await quickQuantity(key, change, line.id);
    if (quick) return quick;
  }
  // Read once in the change's transaction: the version to send and the slice to patch.
  let held: Located | undefined;
  try {
    return await enqueue({
      ...change,
      request: async () => {
        held = await locate(key, line.id);
        // A screen a render behind can name a line removed since (and its material added again
        // as a new line): the edit would name a line the server no longer has (404). Found out
        // here, where the line is read anyway, so an edit of a held line costs no extra read.
        // So can a line added on this device whose add was confirmed after the screen's line was
        // looked up (it now has the server's id): queued under the provisional id, the edit would
        // wait for an add that is no longer there, and never leave.
        if (!held && !asShown && (await sheetPage(key))) throw new LineGone();
        return change.requestFrom(held);
      },
      apply: () => changeLine(key, line.id, change.edited, held),
    });
  } catch (error) {
    if (!(error instanceof LineGone)) throw error;
    // The sheet's line of the same material (a count holds one line per material). With none,
    // the edit goes as shown, and the server's answer says the line is gone: seen, not dropped.
    const current = await currentLine(key, shown, true);
    return queueQuantity(userEmail, current, quantity, acceptBook, current.id === shown.id ? from : undefined, current.id === shown.id, at);
  }
}

let lastProvisional = 0;

/**
 * The id of a line added on this device until the server gives it one: below zero, and unique.
 * `-(Date.now() + a random 0–999)` could repeat for two adds up to a second apart (1 in 1,000 when
 * 1 ms apart): the second add then shared the first's target, and removing one line dropped the
 * other's add with it (the offline chaos property's seed 20261124 at 2,000 operations, now and
 * then). Milliseconds × 1,000 plus a random tail, and strictly falling within a tab: two tabs
 * repeat one only in the same millisecond with the same tail.
 */
function provisionalId(): number {
  lastProvisional = Math.min(-(Date.now() * 1000 + Math.floor(Math.random() * 1000)), lastProvisional - 1);
  return lastProvisional;
}

export function addLine(
  userEmail: string,
  stockCountId: number,
  material: { material_code: string; material_description_english: string; unit: string },
) {
  const provisional: MaterialCountRow = {
    id: provisionalId(),
    stock_count_id: stockCountId,
    material_code: material.material_code,
    material_description_english: material.material_description_english,
    quantity: null,
    unit: material.unit,
    book_quantity: null,
    book_quantity_at: null,
    book_quantity_now: null,
    version: 0,
    updated_by: userEmail,
    updated_at: new Date().toISOString(),
  };
  return enqueue({
    userEmail,
    kind: KIND.add,
    scope: sheetScope(stockCountId),
    target: lineTarget(provisional.id),
    request: { service: 'stock', method: 'POST', path: 'my_material_count', json: { stockCountId, materialCode: material.material_code } },
    apply: () => appendLine(sheetKey(userEmail, stockCountId), provisional),
    undo: provisional,
  });
}

/**
 * Removes a line. A line added on this device whose add has not left yet simply disappears with
 * its queued changes (nothing reaches the server); once the add travels, the removal queues
 * behind it and goes to the server under the real id, so the line cannot come back.
 */
export async function removeLine(userEmail: string, line: MaterialCountRow) {
  const key = sheetKey(userEmail, line.stock_count_id);
  const remove = (id: number) =>
    enqueue({
      userEmail,
      kind: KIND.remove,
      scope: sheetScope(line.stock_count_id),
      target: lineTarget(id),
      request: { service: 'stock', method: 'DELETE', path: 'my_material_count', searchParams: { materialCountId: String(id) } },
      apply: () => deleteLine(key, id),
      undo: { ...line, id },
    });
  await offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.slots, offlineDb.outbox, async () => {
    const current = await currentLine(key, line);
    // Quantities not yet sent for a line being removed are moot: they would only count it first.
    await offlineDb.outbox
      .where('target')
      .equals(lineTarget(current.id))
      // This user's only: another user's waiting count of the line (a shared phone) is theirs to
      // send or discard (decision 0052), and stays if this removal is refused.
      .filter((entry) => entry.kind === KIND.quantity && entry.status !== 'sending' && entry.userEmail === userEmail)
      .delete();
    if (!isProvisional(current.id)) return remove(current.id);
    const add = await offlineDb.outbox
      .where('target')
      .equals(lineTarget(current.id))
      .filter((entry) => entry.kind === KIND.add)
      .first();
    if (add?.status === 'sending') return remove(current.id);
    await offlineDb.outbox.where('target').equals(lineTarget(current.id)).delete();
    await deleteLine(key, current.id);
  });
}

export function submitCount(userEmail: string, stockCountId: number) {
  return enqueue({
    userEmail,
    kind: KIND.submit,
    scope: sheetScope(stockCountId),
    target: `count:${stockCountId}`,
    request: { service: 'stock', method: 'GET', path: 'my_stock_count/submit', searchParams: { stockCountId: String(stockCountId) } },
    apply: async () => undefined,
    coalesce: (open) => open.request,
  });
}

const partStatusOf = (entry: OutboxEntry) => (entry.request.json as { status: StockCountPartRow['status'] }).status;

/** The counter's part on the device, changed (the lines stay as they are). */
async function updatePart(key: string, change: (part: StockCountPartRow) => StockCountPartRow): Promise<void> {
  const sheet = await sheetPage(key);
  const current = sheet?.data.part;
  if (!sheet || !current) return;
  const part = change(current);
  const parts = sheet.data.parts?.map((row) => (row.id === part.id ? part : row));
  await offlineDb.pages.put({ ...sheet.page, data: { ...sheet.data, part, ...(parts ? { parts } : {}) } });
}

/**
 * #18 "my part is done" (or open again), through the outbox like the counter's quantities, and
 * behind them: the server takes "done" only once every line of the part is counted there.
 */
export async function setPartStatus(userEmail: string, stockCountId: number, status: StockCountPartRow['status']) {
  const key = sheetKey(userEmail, stockCountId);
  const before = (await sheetPage(key))?.data.part;
  return enqueue({
    userEmail,
    kind: KIND.partStatus,
    scope: sheetScope(stockCountId),
    target: `part:${stockCountId}`,
    request: { service: 'stock', method: 'PUT', path: 'my_stock_count/part/status', json: { stockCountId, status } },
    apply: () => updatePart(key, (part) => ({ ...part, status, done_at: status === 'done' ? new Date().toISOString() : null })),
    coalesce: (open) => ({ ...open.request, json: { stockCountId, status } }),
    ...(before ? { undo: before } : {}),
  });
}

// ───────────── what the sync engine does with the server's answers ─────────────

/** A quantity edit confirmed: the server's row becomes the device's, with newer edits of the line on top. */
async function confirmQuantity(entry: OutboxEntry, row: MaterialCountRow | undefined, status: StockCountRow['status'] | undefined) {
  const key = sheetKey(entry.userEmail, stockCountIdOf(entry));
  await offlineDb.outbox.delete(entry.seq!);
  if (status) await updateHeader(key, (count) => ({ ...count, status }));
  if (!row) return;
  const others = await offlineDb.outbox
    .where('target')
    .equals(lineTarget(row.id))
    .filter((e) => e.kind === KIND.quantity && e.userEmail === entry.userEmail)
    .sortBy('seq');
  // An older edit of the line that was refused (failed, in conflict) is overtaken by this later one,
  // now on the server: laid over the line, it showed the refused value again, and its Retry would
  // have sent it over the later one.
  const overtaken = others.filter((e) => e.seq! < entry.seq! && (e.status === 'failed' || e.status === 'conflict'));
  if (overtaken.length > 0) await offlineDb.outbox.bulkDelete(overtaken.map((e) => e.seq!));
  const newer = others.filter((e) => !overtaken.includes(e));
  let shown = row;
  for (const waiting of newer) {
    const edit = editOf(waiting);
    if (!edit) continue;
    // A newer edit of the same line now builds on the server's version (a conflict keeps the version it was shown).
    if (waiting.status === 'pending' || waiting.status === 'failed') {
      await offlineDb.outbox.update(waiting.seq!, { request: rewriteEdit(waiting.request, { ...edit, version: row.version }) });
    }
    shown = withEdit(shown, edit);
  }
  await updateLine(key, row.id, () => shown);
}

async function confirmQuantities(entries: OutboxEntry[], body: unknown): Promise<void> {
  const result = body as {
    material_counts?: MaterialCountRow[];
    stock_counts?: Array<{ id: number; status: StockCountRow['status'] }>;
    // #18: the answer of a part's quantities.
    part?: StockCountPartRow;
    lines?: PartLineRow[];
    stock_count?: { id: number; status: StockCountRow['status'] };
  } | null;
  const stockCountId = stockCountIdOf(entries[0]!);
  const rows = result?.material_counts ?? result?.lines?.map((line) => partLineAsRow(stockCountId, line));
  for (const entry of entries) {
    const row = rows?.find((r) => r.id === editOf(entry)?.id);
    const status = result?.stock_counts?.find((c) => c.id === stockCountIdOf(entry))?.status ?? result?.stock_count?.status;
    await confirmQuantity(entry, row, status);
  }
  if (result?.part) {
    // The server's status of the part (a correction reopens a done part), unless the counter's own
    // "done" or "open again" still waits to be sent: the screen shows what they set.
    const userEmail = entries[0]!.userEmail;
    const statusWaits = await offlineDb.outbox
      .where('scope')
      .equals(sheetScope(stockCountId))
      .filter((entry) => entry.userEmail === userEmail && entry.kind === KIND.partStatus)
      .count();
    await updatePart(sheetKey(userEmail, stockCountId), (current) => ({ ...result.part!, status: statusWaits > 0 ? current.status : result.part!.status }));
  }
}

/** A line added offline confirmed: it takes the real id, and the changes queued for it name it. */
async function confirmAdd(entry: OutboxEntry, row: MaterialCountRow): Promise<void> {
  const key = sheetKey(entry.userEmail, stockCountIdOf(entry));
  const provisionalId = targetId(entry.target);
  await offlineDb.outbox.delete(entry.seq!);
  const dependents = await offlineDb.outbox.where('target').equals(entry.target).toArray();
  // The server answers an add of a line already there with that line (added meanwhile by someone
  // else). Counted already, it is not what this device counted from: the waiting edits go as made
  // from the new line (version 0), so the server answers a differing quantity with a conflict the
  // counter sees and decides, never an overwrite.
  const madeFrom = row.quantity === null ? row.version : 0;
  for (const dependent of dependents) {
    const edit = editOf(dependent);
    await offlineDb.outbox.update(dependent.seq!, {
      target: lineTarget(row.id),
      request: {
        ...dependent.request,
        // On a split count the new line's part version starts afresh: the edit goes without one.
        ...(edit ? { json: rewriteEdit(dependent.request, { ...edit, id: row.id, version: partOfRequest(dependent.request) === undefined ? madeFrom : undefined }).json } : {}),
        ...(dependent.request.searchParams ? { searchParams: { ...dependent.request.searchParams, materialCountId: String(row.id) } } : {}),
      },
      ...(dependent.undo ? { undo: { ...(dependent.undo as MaterialCountRow), id: row.id } } : {}),
    });
  }
  // A read of the server may already list the real line: it shows once.
  if ((await holds(key, row.id)) && (await holds(key, provisionalId))) await deleteLine(key, row.id);
  await changeLine(key, provisionalId, (local) => {
    // Counted while its unit was not known ("?"): the counter is told the unit the count is in (decision 0076).
    if (local.unit === '' && row.unit !== '' && local.quantity !== null) noteUnitLearned(unitScope(entry.userEmail, stockCountIdOf(entry)), row.material_code, row.unit);
    return { ...row, quantity: local.quantity ?? row.quantity };
  });
}

export async function confirmCountEntries(entries: OutboxEntry[], body: unknown): Promise<void> {
  const first = entries[0]!;
  if (first.kind === KIND.quantity) return confirmQuantities(entries, body);
  if (first.kind === KIND.add) return confirmAdd(first, body as MaterialCountRow);
  if (first.kind === KIND.partStatus) {
    await offlineDb.outbox.bulkDelete(entries.map((entry) => entry.seq!));
    const row = stockCountPartRow.safeParse(body);
    if (row.success) await updatePart(sheetKey(first.userEmail, stockCountIdOf(first)), () => row.data);
    return;
  }
  await offlineDb.outbox.bulkDelete(entries.map((entry) => entry.seq!));
  if (first.kind === KIND.submit) await updateHeader(sheetKey(first.userEmail, stockCountIdOf(first)), () => body as StockCountRow);
}

/** A 409 with the server's rows is a conflict to resolve; any other 409 is a refusal. A part's lines (#18) read as rows. */
export function conflictRows(body: unknown, stockCountId?: number): MaterialCountRow[] | null {
  const conflicts = (body as Partial<MaterialCountConflict> | null)?.conflicts as Array<MaterialCountRow | PartLineRow> | undefined;
  if (!Array.isArray(conflicts) || conflicts.length === 0) return null;
  return conflicts.map((row) => ('material_count_id' in row ? partLineAsRow(stockCountId ?? 0, row) : row));
}

/**
 * After an accepted book quantity was refused because the book moved again (decision 0054): my
 * quantity goes again without the acceptance, on the server's version, and the line takes the
 * server's book quantities, so "book moved" is asked again with the new one. Nothing typed is lost.
 */
export async function chooseBookAgain(entry: OutboxEntry): Promise<void> {
  const theirs = entry.theirs as MaterialCountRow;
  const edit = editOf(entry);
  if (!edit) return;
  const { acceptBookQuantity: _refused, ...quantity } = edit;
  const request = rewriteEdit(entry.request, { ...quantity, version: theirs.version });
  await offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.slots, offlineDb.outbox, async () => {
    if (!(await asShown(entry))) return;
    await updateLine(sheetKey(entry.userEmail, stockCountIdOf(entry)), theirs.id, (line) => ({
      ...line,
      book_quantity: theirs.book_quantity,
      book_quantity_at: theirs.book_quantity_at,
      book_quantity_now: theirs.book_quantity_now,
    }));
    await resendAs(entry, request);
  });
  notifyEnqueued();
}

/**
 * The entry is still the one the screen showed (same key, same status), read in the caller's
 * transaction. A button acts on the entry of its render: a value typed meanwhile (the field's blur
 * commits it as the button is tapped) merges into the entry, under a new key, and a double tap acts
 * twice. Acting on the old copy would send the old value over the new one, or drop the new one.
 */
async function asShown(entry: OutboxEntry): Promise<boolean> {
  const now = await offlineDb.outbox.get(entry.seq!);
  return now?.id === entry.id && now.status === entry.status;
}

/** A refused entry goes again as `request`: pending, under a new key, the refusal forgotten. */
function resendAs(entry: OutboxEntry, request: OutboxRequest) {
  return offlineDb.outbox.update(entry.seq!, { request, status: 'pending', id: crypto.randomUUID(), theirs: undefined, lastError: undefined, batchId: undefined });
}

/** Keep mine: send my value again, now based on the server's version, under a new key. */
export async function keepMine(entry: OutboxEntry): Promise<void> {
  const theirs = entry.theirs as MaterialCountRow;
  const edit = editOf(entry);
  const request = edit ? rewriteEdit(entry.request, { ...edit, version: theirs.version }) : entry.request;
  await offlineDb.transaction('rw', offlineDb.outbox, async () => {
    if (await asShown(entry)) await resendAs(entry, request);
  });
  notifyEnqueued();
}

/** Take theirs: the server's row replaces mine, and my change is dropped. */
export async function takeTheirs(entry: OutboxEntry): Promise<void> {
  const theirs = entry.theirs as MaterialCountRow;
  await offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.slots, offlineDb.outbox, async () => {
    if (!(await asShown(entry))) return;
    await updateLine(sheetKey(entry.userEmail, stockCountIdOf(entry)), theirs.id, () => theirs);
    await offlineDb.outbox.delete(entry.seq!);
  });
}

/** Discard a refused change: the mirror gets back what the change replaced. */
export async function discardEntry(entry: OutboxEntry): Promise<void> {
  const key = sheetKey(entry.userEmail, stockCountIdOf(entry));
  const discarded = await offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.slots, offlineDb.outbox, offlineDb.marks, async () => {
    if (!(await asShown(entry))) return false;
    // What the change replaced is put back as the screen had it then, which the server may have
    // moved on from (a removed line comes back without the values typed before its removal): the
    // count is read from the server again at the next round, as after a confirmation.
    await markUnverified(entry.userEmail, entry.scope, 0);
    const undo = entry.undo as MaterialCountRow | undefined;
    if (entry.kind === KIND.quantity && undo) {
      await updateLine(key, undo.id, (line) => ({ ...line, quantity: undo.quantity, book_quantity: undo.book_quantity, book_quantity_at: undo.book_quantity_at }));
    } else if (entry.kind === KIND.add && undo) {
      await offlineDb.outbox.where('target').equals(entry.target).delete();
      await deleteLine(key, undo.id);
    } else if (entry.kind === KIND.remove && undo) {
      await appendLine(key, undo);
    } else if (entry.kind === KIND.partStatus && undo) {
      await updatePart(key, () => entry.undo as StockCountPartRow);
    }
    await offlineDb.outbox.delete(entry.seq!);
    return true;
  });
  if (discarded) notifyEnqueued();
}
