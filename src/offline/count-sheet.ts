/**
 * A stock count as the mechanic carries it: the count (a mirror page) and ALL its lines (one
 * mirror row each), fetched whole when the count is opened in the yard, so every line can be
 * counted in a basement. Changes go through the outbox: quantity edits (merged per line, sent
 * with the version they were made from), lines added (with a provisional negative id until the
 * server gives the real one), lines removed, and the submission, which queues behind the edits.
 */
import type { MaterialCountConflict, MaterialCountPage, MaterialCountRow, StockCountPage, StockCountRow } from '../contract/stock';
import { stockApi, toSearchParams } from '../lib/api-client';
import { CHUNK_SIZE, offlineDb, type OutboxEntry } from './db';
import { guardQuota, isNetworkFailure, isOffline } from './errors';
import { mirrorKey, NothingSavedError, type Mirrored } from './mirror';
import { enqueue } from './outbox';

export interface CountSheet {
  stock_count: StockCountRow;
  material_counts: MaterialCountRow[];
}

export const KIND = {
  quantity: 'material-count.quantity',
  add: 'material-count.add',
  remove: 'material-count.delete',
  submit: 'stock-count.submit',
  /** A planner's change to a count: create, edit, send, cancel, recount (see features/stock-count/api/count-planning). */
  plan: 'stock-count.plan',
} as const;

/** Planning changes wait in one scope: the stock-count screen lists them. */
export const PLANNING_SCOPE = 'stock-count-planning';

export const sheetScope = (stockCountId: number) => `stock-count:${stockCountId}`;
export const sheetKey = (userEmail: string, stockCountId: number) => mirrorKey(userEmail, ['count-sheet', stockCountId]);
export const lineTarget = (id: number) => `line:${id}`;
export const targetId = (target: string) => Number(target.split(':')[1]);
export const isProvisional = (id: number) => id < 0;
const FETCH_PAGE = 200;

/** Every page of lines, so the whole count is on the device before the mechanic walks away. */
export async function fetchCountSheet(stockCountId: number): Promise<CountSheet> {
  const header = await stockApi.get('my_stock_count', { searchParams: toSearchParams({ stockCountId }) }).json<StockCountPage>();
  const stockCount = header.stock_counts[0];
  if (!stockCount) throw new Error(`Stock count ${stockCountId} not found`);
  const lines: MaterialCountRow[] = [];
  for (let page = 1; ; page += 1) {
    const result = await stockApi
      .get('my_material_count', { searchParams: toSearchParams({ stockCountId, page, maxResults: FETCH_PAGE }) })
      .json<MaterialCountPage>();
    lines.push(...result.material_counts);
    if (!result.has_next) break;
  }
  return { stock_count: stockCount, material_counts: lines };
}

type EditJson = { modifiedMaterials?: Array<{ id: number; quantity: number; version?: number; acceptBookQuantity?: number | null }> };
export const editOf = (entry: OutboxEntry) => (entry.request.json as EditJson | undefined)?.modifiedMaterials?.[0];

/** A line as a queued edit leaves it: its quantity, and the book quantity it accepted, if any. */
function withEdit(line: MaterialCountRow, edit: { quantity: number; acceptBookQuantity?: number | null }): MaterialCountRow {
  return edit.acceptBookQuantity === undefined
    ? { ...line, quantity: edit.quantity }
    : { ...line, quantity: edit.quantity, book_quantity: edit.acceptBookQuantity, book_quantity_at: new Date().toISOString() };
}

/** Re-applies queued changes to fresh server data, so a refresh never hides what is queued. */
export function overlayPending(sheet: CountSheet, pending: OutboxEntry[]): CountSheet {
  let lines = sheet.material_counts;
  for (const entry of pending) {
    if (entry.kind === KIND.quantity) {
      const edit = editOf(entry);
      if (edit) lines = lines.map((line) => (line.id === edit.id ? withEdit(line, edit) : line));
    } else if (entry.kind === KIND.add) {
      const provisional = entry.undo as MaterialCountRow | undefined;
      if (provisional && !lines.some((l) => l.material_code === provisional.material_code)) lines = [...lines, provisional];
    } else if (entry.kind === KIND.remove) {
      lines = lines.filter((line) => line.id !== targetId(entry.target));
    }
  }
  return { ...sheet, material_counts: lines };
}

// ───────────── the sheet on the device ─────────────
// The page holds the count and the line ids in list order (null where a line was removed, so
// positions never shift); the lines live in slices of CHUNK_SIZE: position / CHUNK_SIZE.

interface SheetPageData {
  stock_count: StockCountRow;
  ids: Array<number | null>;
}

const sliceOf = (position: number) => Math.floor(position / CHUNK_SIZE);

export async function writeCountSheet(key: string, scope: string, sheet: CountSheet): Promise<Mirrored<CountSheet>> {
  const savedAt = Date.now();
  const merged = await guardQuota(() =>
    offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.outbox, async () => {
      const pending = await offlineDb.outbox.where('scope').equals(scope).sortBy('seq');
      const result = overlayPending(sheet, pending);
      const lines = result.material_counts;
      const data: SheetPageData = { stock_count: result.stock_count, ids: lines.map((line) => line.id) };
      await offlineDb.pages.put({ key, scope, savedAt, data });
      await offlineDb.chunks.where('page').equals(key).delete();
      const chunks = [];
      for (let i = 0; i < lines.length; i += CHUNK_SIZE) chunks.push({ page: key, chunk: sliceOf(i), rows: lines.slice(i, i + CHUNK_SIZE) });
      await offlineDb.chunks.bulkPut(chunks);
      return result;
    }),
  );
  return { data: merged, savedAt, source: 'network' };
}

export async function readCountSheet(key: string): Promise<(CountSheet & { savedAt: number }) | undefined> {
  const page = await offlineDb.pages.get(key);
  if (!page) return undefined;
  const chunks = await offlineDb.chunks.where('page').equals(key).sortBy('chunk');
  return {
    stock_count: (page.data as SheetPageData).stock_count,
    material_counts: chunks.flatMap((chunk) => chunk.rows as MaterialCountRow[]),
    savedAt: page.savedAt,
  };
}

/** Network first; the device's copy when the network fails (ARCHITECTURE §3). */
export async function loadCountSheet(userEmail: string, stockCountId: number): Promise<Mirrored<CountSheet>> {
  const key = sheetKey(userEmail, stockCountId);
  if (!isOffline()) {
    try {
      return await writeCountSheet(key, sheetScope(stockCountId), await fetchCountSheet(stockCountId));
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
    }
  }
  const saved = await readCountSheet(key);
  if (!saved) throw new NothingSavedError();
  const { savedAt, ...data } = saved;
  return { data, savedAt, source: 'mirror' };
}

async function sheetPage(key: string) {
  const page = await offlineDb.pages.get(key);
  return page ? { page, data: page.data as SheetPageData } : undefined;
}

/** Rewrites the one slice holding a line. `change` returns null to remove the line. */
async function changeLine(key: string, id: number, change: (line: MaterialCountRow) => MaterialCountRow | null): Promise<void> {
  const sheet = await sheetPage(key);
  const position = sheet?.data.ids.indexOf(id) ?? -1;
  if (!sheet || position < 0) return;
  const chunk = await offlineDb.chunks.get([key, sliceOf(position)]);
  const rows = (chunk?.rows ?? []) as MaterialCountRow[];
  const before = rows.find((row) => row.id === id);
  if (!chunk || !before) return;
  const after = change(before);
  await offlineDb.chunks.put({ ...chunk, rows: after ? rows.map((row) => (row.id === id ? after : row)) : rows.filter((row) => row.id !== id) });
  if (after?.id !== id) {
    const ids = [...sheet.data.ids];
    ids[position] = after ? after.id : null;
    await offlineDb.pages.put({ ...sheet.page, data: { ...sheet.data, ids } });
  }
}

async function updateLine(key: string, id: number, change: (line: MaterialCountRow) => MaterialCountRow): Promise<void> {
  await changeLine(key, id, change);
}

async function deleteLine(key: string, id: number): Promise<void> {
  await changeLine(key, id, () => null);
}

async function appendLine(key: string, line: MaterialCountRow): Promise<void> {
  const sheet = await sheetPage(key);
  if (!sheet) return;
  const ids = [...sheet.data.ids, line.id];
  const slice = sliceOf(ids.length - 1);
  const chunk = (await offlineDb.chunks.get([key, slice])) ?? { page: key, chunk: slice, rows: [] };
  await offlineDb.chunks.put({ ...chunk, rows: [...chunk.rows, line] });
  await offlineDb.pages.put({ ...sheet.page, data: { ...sheet.data, ids } });
}

async function updateHeader(key: string, change: (count: StockCountRow) => StockCountRow): Promise<void> {
  const sheet = await sheetPage(key);
  if (sheet) await offlineDb.pages.put({ ...sheet.page, data: { ...sheet.data, stock_count: change(sheet.data.stock_count) } });
}

// ───────────── changes the mechanic makes ─────────────

/**
 * Sets a counted quantity. `acceptBook` (after the book quantity moved during the count) makes the
 * current book quantity the line's reference, so the flag clears: with the counted quantity kept,
 * or with the difference kept (the caller passes counted + the book's move as the quantity).
 */
export function setQuantity(userEmail: string, line: MaterialCountRow, quantity: number, acceptBook?: { bookQuantity: number | null }) {
  const request = (version: number | undefined, accepted: { bookQuantity: number | null } | undefined) => ({
    service: 'stock' as const,
    method: 'PUT' as const,
    path: 'my_material_count',
    json: {
      modifiedMaterials: [
        {
          id: line.id,
          quantity,
          ...(version === undefined ? {} : { version }),
          ...(accepted === undefined ? {} : { acceptBookQuantity: accepted.bookQuantity }),
        },
      ],
    },
  });
  const key = sheetKey(userEmail, line.stock_count_id);
  return enqueue({
    userEmail,
    kind: KIND.quantity,
    scope: sheetScope(line.stock_count_id),
    target: lineTarget(line.id),
    // A provisional line has no version yet: the add creates it at version 0.
    request: request(isProvisional(line.id) ? undefined : line.version, acceptBook),
    apply: () =>
      updateLine(key, line.id, (l) =>
        withEdit(l, { quantity, ...(acceptBook === undefined ? {} : { acceptBookQuantity: acceptBook.bookQuantity }) }),
      ),
    // Later edits of a waiting line keep the version the FIRST edit was made from, and a book
    // quantity accepted by an earlier edit stays accepted.
    coalesce: (waiting) => {
      const earlier = editOf(waiting);
      const accepted = acceptBook ?? (earlier?.acceptBookQuantity === undefined ? undefined : { bookQuantity: earlier.acceptBookQuantity });
      return request(earlier?.version, accepted);
    },
    undo: { ...line },
  });
}

export function addLine(
  userEmail: string,
  stockCountId: number,
  material: { material_code: string; material_description_english: string; unit: string },
) {
  const provisional: MaterialCountRow = {
    id: -Date.now() - Math.floor(Math.random() * 1000),
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
 * Removes a line. A line added on this device and not yet sent simply disappears with its
 * queued changes (nothing reaches the server); a real line queues a delete.
 */
export async function removeLine(userEmail: string, line: MaterialCountRow) {
  const key = sheetKey(userEmail, line.stock_count_id);
  if (isProvisional(line.id)) {
    await offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.outbox, async () => {
      await offlineDb.outbox.where('target').equals(lineTarget(line.id)).delete();
      await deleteLine(key, line.id);
    });
    return;
  }
  await enqueue({
    userEmail,
    kind: KIND.remove,
    scope: sheetScope(line.stock_count_id),
    target: lineTarget(line.id),
    request: { service: 'stock', method: 'DELETE', path: 'my_material_count', searchParams: { materialCountId: String(line.id) } },
    apply: () => deleteLine(key, line.id),
    undo: { ...line },
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
    coalesce: (waiting) => waiting.request,
  });
}

// ───────────── what the sync engine does with the server's answers ─────────────

const stockCountIdOf = (entry: OutboxEntry) => Number(entry.scope.split(':')[1]);

/** A quantity edit confirmed: the server's row becomes the device's, unless a newer edit waits. */
async function confirmQuantity(entry: OutboxEntry, row: MaterialCountRow, status: StockCountRow['status'] | undefined) {
  const key = sheetKey(entry.userEmail, stockCountIdOf(entry));
  const newer = await offlineDb.outbox
    .where('target')
    .equals(lineTarget(row.id))
    .filter((e) => e.id !== entry.id && e.seq !== entry.seq)
    .toArray();
  for (const waiting of newer) {
    // A newer edit of the same line now builds on the server's version.
    const edit = editOf(waiting);
    if (waiting.kind === KIND.quantity && edit && waiting.status === 'pending') {
      await offlineDb.outbox.update(waiting.seq!, { request: { ...waiting.request, json: { modifiedMaterials: [{ ...edit, version: row.version }] } } });
    }
  }
  await updateLine(key, row.id, (line) => (newer.length > 0 ? { ...row, quantity: line.quantity } : row));
  if (status) await updateHeader(key, (count) => ({ ...count, status }));
  await offlineDb.outbox.delete(entry.seq!);
}

/** The server confirmed entries (one, or a batch of quantity edits): its answer becomes the mirror's truth. */
export async function confirmEntries(entries: OutboxEntry[], body: unknown): Promise<void> {
  const first = entries[0]!;
  if (first.kind === KIND.plan) {
    // The planning screens refetch when their waiting changes are gone; nothing is mirrored per row.
    await offlineDb.outbox.delete(first.seq!);
    return;
  }
  if (first.kind === KIND.quantity) {
    const result = body as { material_counts: MaterialCountRow[]; stock_counts: Array<{ id: number; status: StockCountRow['status'] }> };
    for (const entry of entries) {
      const row = result.material_counts.find((r) => r.id === editOf(entry)?.id);
      const status = result.stock_counts.find((c) => c.id === stockCountIdOf(entry))?.status;
      if (row) await confirmQuantity(entry, row, status);
    }
    return;
  }
  const key = sheetKey(first.userEmail, stockCountIdOf(first));
  if (first.kind === KIND.add) {
    const row = body as MaterialCountRow;
    const provisionalId = targetId(first.target);
    // Changes queued for the provisional line now name the real one.
    const dependents = await offlineDb.outbox.where('target').equals(first.target).filter((e) => e.seq !== first.seq).toArray();
    for (const dependent of dependents) {
      const edit = editOf(dependent);
      await offlineDb.outbox.update(dependent.seq!, {
        target: lineTarget(row.id),
        request: {
          ...dependent.request,
          ...(edit ? { json: { modifiedMaterials: [{ ...edit, id: row.id, version: row.version }] } } : {}),
          ...(dependent.request.searchParams ? { searchParams: { ...dependent.request.searchParams, materialCountId: String(row.id) } } : {}),
        },
      });
    }
    await changeLine(key, provisionalId, (local) => ({ ...row, quantity: local.quantity ?? row.quantity }));
  } else if (first.kind === KIND.submit) {
    await updateHeader(key, () => body as StockCountRow);
  }
  await offlineDb.outbox.delete(first.seq!);
}

/** A 409 with the server's rows is a conflict to resolve; any other 409 is a refusal. */
export function conflictRows(body: unknown): MaterialCountRow[] | null {
  const conflicts = (body as Partial<MaterialCountConflict> | null)?.conflicts;
  return Array.isArray(conflicts) && conflicts.length > 0 ? conflicts : null;
}

/** Keep mine: send my value again, now based on the server's version, under a new key. */
export async function keepMine(entry: OutboxEntry): Promise<void> {
  const theirs = entry.theirs as MaterialCountRow;
  const edit = editOf(entry);
  const request = edit ? { ...entry.request, json: { modifiedMaterials: [{ ...edit, version: theirs.version }] } } : entry.request;
  await offlineDb.outbox.update(entry.seq!, { request, status: 'pending', id: crypto.randomUUID(), theirs: undefined, lastError: undefined, batchId: undefined });
}

/** Take theirs: the server's row replaces mine, and my change is dropped. */
export async function takeTheirs(entry: OutboxEntry): Promise<void> {
  const theirs = entry.theirs as MaterialCountRow;
  await offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.outbox, async () => {
    await updateLine(sheetKey(entry.userEmail, stockCountIdOf(entry)), theirs.id, () => theirs);
    await offlineDb.outbox.delete(entry.seq!);
  });
}

/** Discard a refused change: the mirror gets back what the change replaced. */
export async function discardEntry(entry: OutboxEntry): Promise<void> {
  const key = sheetKey(entry.userEmail, stockCountIdOf(entry));
  await offlineDb.transaction('rw', offlineDb.pages, offlineDb.chunks, offlineDb.outbox, async () => {
    const undo = entry.undo as MaterialCountRow | undefined;
    if (entry.kind === KIND.quantity && undo) {
      await updateLine(key, undo.id, (line) => ({ ...line, quantity: undo.quantity, book_quantity: undo.book_quantity, book_quantity_at: undo.book_quantity_at }));
    } else if (entry.kind === KIND.add && undo) {
      await offlineDb.outbox.where('target').equals(entry.target).delete();
      await deleteLine(key, undo.id);
    } else if (entry.kind === KIND.remove && undo) {
      await appendLine(key, undo);
    }
    await offlineDb.outbox.delete(entry.seq!);
  });
}
