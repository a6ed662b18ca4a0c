/**
 * A stock count as the mechanic carries it: the count and ALL its material lines in one mirror
 * page, fetched whole when the count is opened (in the yard), so every line can be counted in a
 * basement. Changes go through the outbox: quantity edits (merged per line, sent with the
 * version they were made from), lines added (with a provisional negative id until the server
 * gives the real one), lines removed, and the submission, which queues behind the edits.
 */
import type { MaterialCountConflict, MaterialCountPage, MaterialCountRow, StockCountPage, StockCountRow } from '../contract/stock';
import { stockApi, toSearchParams } from '../lib/api-client';
import { offlineDb, type OutboxEntry } from './db';
import { mirrorKey, networkFirst, type Mirrored } from './mirror';
import { enqueue, patchScope } from './outbox';

export interface CountSheet {
  stock_count: StockCountRow;
  material_counts: MaterialCountRow[];
}

export const KIND = {
  quantity: 'material-count.quantity',
  add: 'material-count.add',
  remove: 'material-count.delete',
  submit: 'stock-count.submit',
} as const;

export const sheetScope = (stockCountId: number) => `stock-count:${stockCountId}`;
export const lineTarget = (id: number) => `line:${id}`;
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

type Json = { modifiedMaterials?: Array<{ id: number; quantity: number; version?: number }>; stockCountId?: number; materialCode?: string };
const json = (entry: OutboxEntry) => (entry.request.json ?? {}) as Json;

function withLine(sheet: CountSheet, id: number, change: (line: MaterialCountRow) => MaterialCountRow): CountSheet {
  return { ...sheet, material_counts: sheet.material_counts.map((line) => (line.id === id ? change(line) : line)) };
}

/** Re-applies queued changes to fresh server data (mirror.ts calls it inside its transaction). */
export function overlayPending(sheet: CountSheet, pending: OutboxEntry[]): CountSheet {
  return pending.reduce<CountSheet>((current, entry) => {
    switch (entry.kind) {
      case KIND.quantity: {
        const edit = json(entry).modifiedMaterials?.[0];
        return edit ? withLine(current, edit.id, (line) => ({ ...line, quantity: edit.quantity })) : current;
      }
      case KIND.add: {
        const provisional = entry.undo as MaterialCountRow | undefined;
        if (!provisional || current.material_counts.some((l) => l.material_code === provisional.material_code)) return current;
        return { ...current, material_counts: [...current.material_counts, provisional] };
      }
      case KIND.remove: {
        const id = Number(entry.target.split(':')[1]);
        return { ...current, material_counts: current.material_counts.filter((line) => line.id !== id) };
      }
      default:
        return current;
    }
  }, sheet);
}

export function loadCountSheet(userEmail: string, stockCountId: number): Promise<Mirrored<CountSheet>> {
  return networkFirst({
    key: mirrorKey(userEmail, ['count-sheet', stockCountId]),
    scope: sheetScope(stockCountId),
    fetcher: () => fetchCountSheet(stockCountId),
    overlay: overlayPending,
  });
}

const patchSheet = (change: (sheet: CountSheet) => CountSheet) => (data: unknown) => change(data as CountSheet);

export function setQuantity(userEmail: string, line: MaterialCountRow, quantity: number) {
  const request = (version: number | undefined) => ({
    service: 'stock' as const,
    method: 'PUT' as const,
    path: 'my_material_count',
    json: { modifiedMaterials: [{ id: line.id, quantity, ...(version === undefined ? {} : { version }) }] },
  });
  return enqueue({
    userEmail,
    kind: KIND.quantity,
    scope: sheetScope(line.stock_count_id),
    target: lineTarget(line.id),
    // A provisional line has no version yet: the add creates it at version 0.
    request: request(isProvisional(line.id) ? undefined : line.version),
    apply: patchSheet((sheet) => withLine(sheet, line.id, (l) => ({ ...l, quantity }))),
    // Later edits of a waiting line keep the version the FIRST edit was made from.
    coalesce: (waiting) => {
      const base = json(waiting).modifiedMaterials?.[0]?.version;
      return request(base);
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
    apply: patchSheet((sheet) => ({ ...sheet, material_counts: [...sheet.material_counts, provisional] })),
    undo: provisional,
  });
}

/**
 * Removes a line. A line added on this device and not yet sent simply disappears with its
 * queued changes (nothing reaches the server); a real line queues a delete.
 */
export async function removeLine(userEmail: string, line: MaterialCountRow) {
  const scope = sheetScope(line.stock_count_id);
  if (isProvisional(line.id)) {
    await offlineDb.transaction('rw', offlineDb.pages, offlineDb.outbox, async () => {
      await offlineDb.outbox.where('target').equals(lineTarget(line.id)).delete();
      await patchScope(scope, patchSheet((sheet) => ({ ...sheet, material_counts: sheet.material_counts.filter((l) => l.id !== line.id) })));
    });
    return;
  }
  await enqueue({
    userEmail,
    kind: KIND.remove,
    scope,
    target: lineTarget(line.id),
    request: { service: 'stock', method: 'DELETE', path: 'my_material_count', searchParams: { materialCountId: String(line.id) } },
    apply: patchSheet((sheet) => ({ ...sheet, material_counts: sheet.material_counts.filter((l) => l.id !== line.id) })),
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
    apply: (data) => data,
    coalesce: (waiting) => waiting.request,
  });
}

// ───────────── what the sync engine does with the server's answers ─────────────

/** The server confirmed an entry: its answer becomes the mirror's truth; the entry goes. */
export async function confirmEntry(entry: OutboxEntry, body: unknown): Promise<void> {
  const scope = entry.scope;
  if (entry.kind === KIND.quantity) {
    const rows = (body as { material_counts: MaterialCountRow[] }).material_counts;
    const status = (body as { stock_counts: Array<{ id: number; status: StockCountRow['status'] }> }).stock_counts[0]?.status;
    for (const row of rows) {
      // A newer edit of the same line waiting behind this one now builds on the server's version.
      await offlineDb.outbox
        .where('target')
        .equals(lineTarget(row.id))
        .filter((e) => e.kind === KIND.quantity && e.id !== entry.id)
        .modify((e) => {
          const edit = (e.request.json as Json).modifiedMaterials?.[0];
          if (edit) edit.version = row.version;
        });
      const waiting = await offlineDb.outbox.where('target').equals(lineTarget(row.id)).filter((e) => e.id !== entry.id).count();
      await patchScope(
        scope,
        patchSheet((sheet) => ({
          stock_count: status ? { ...sheet.stock_count, status } : sheet.stock_count,
          material_counts: sheet.material_counts.map((line) => (line.id === row.id ? (waiting ? { ...row, quantity: line.quantity } : row) : line)),
        })),
      );
    }
  } else if (entry.kind === KIND.add) {
    const row = body as MaterialCountRow;
    const provisionalId = Number(entry.target.split(':')[1]);
    // Changes queued for the provisional line now name the real one.
    await offlineDb.outbox
      .where('target')
      .equals(entry.target)
      .filter((e) => e.id !== entry.id)
      .modify((e) => {
        e.target = lineTarget(row.id);
        const edit = (e.request.json as Json | undefined)?.modifiedMaterials?.[0];
        if (edit) {
          edit.id = row.id;
          edit.version = row.version;
        }
        if (e.request.searchParams?.materialCountId) e.request.searchParams.materialCountId = String(row.id);
      });
    await patchScope(
      scope,
      patchSheet((sheet) => withLine(sheet, provisionalId, (line) => ({ ...row, quantity: line.quantity ?? row.quantity }))),
    );
  } else if (entry.kind === KIND.submit) {
    const row = body as StockCountRow;
    await patchScope(scope, patchSheet((sheet) => ({ ...sheet, stock_count: row })));
  }
  await offlineDb.outbox.where('id').equals(entry.id).delete();
}

/** A 409 with the server's rows is a conflict to resolve; any other 409 is a refusal. */
export function conflictRows(body: unknown): MaterialCountRow[] | null {
  const conflicts = (body as Partial<MaterialCountConflict> | null)?.conflicts;
  return Array.isArray(conflicts) && conflicts.length > 0 ? conflicts : null;
}

/** Keep mine: send my value again, now based on the server's version, under a new key. */
export async function keepMine(entry: OutboxEntry): Promise<void> {
  const theirs = entry.theirs as MaterialCountRow;
  const request = structuredClone(entry.request);
  const edit = (request.json as Json).modifiedMaterials?.[0];
  if (edit) edit.version = theirs.version;
  await offlineDb.outbox.update(entry.seq!, { request, status: 'pending', id: crypto.randomUUID(), theirs: undefined, lastError: undefined });
}

/** Take theirs: the server's row replaces mine, and my change is dropped. */
export async function takeTheirs(entry: OutboxEntry): Promise<void> {
  const theirs = entry.theirs as MaterialCountRow;
  await offlineDb.transaction('rw', offlineDb.pages, offlineDb.outbox, async () => {
    await patchScope(entry.scope, patchSheet((sheet) => withLine(sheet, theirs.id, () => theirs)));
    await offlineDb.outbox.delete(entry.seq!);
  });
}

/** Discard a refused change: the mirror gets back what the change replaced. */
export async function discardEntry(entry: OutboxEntry): Promise<void> {
  await offlineDb.transaction('rw', offlineDb.pages, offlineDb.outbox, async () => {
    const undo = entry.undo as MaterialCountRow | undefined;
    if (entry.kind === KIND.quantity && undo) {
      await patchScope(entry.scope, patchSheet((sheet) => withLine(sheet, undo.id, (line) => ({ ...line, quantity: undo.quantity }))));
    } else if (entry.kind === KIND.add && undo) {
      await offlineDb.outbox.where('target').equals(entry.target).delete();
      await patchScope(entry.scope, patchSheet((sheet) => ({ ...sheet, material_counts: sheet.material_counts.filter((l) => l.id !== undo.id) })));
    } else if (entry.kind === KIND.remove && undo) {
      await patchScope(entry.scope, patchSheet((sheet) => ({ ...sheet, material_counts: [...sheet.material_counts, undo] })));
    }
    await offlineDb.outbox.where('id').equals(entry.id).delete();
  });
}
