/**
 * The chaos runner behind the offline property test and `npm run bench`. Issue #15's promise: the real sync core and count sheet (src/offline,
 * src/features/stock-count/offline) on a real IndexedDB implementation (fake-indexeddb), against
 * the real server handlers (app.inject on PGlite), behind a fake network that drops requests,
 * loses answers, answers 503, duplicates requests and delivers stale copies later. Random quick
 * edits (from screens one render behind), corrections, adds, removes, offline periods, refreshes
 * delivered late, rounds running while the mechanic types, and restarts. At the end, online and
 * drained: every line the server holds is what the screen last accepted (0 lost), no request was
 * applied twice, the device shows exactly the server (0 divergent), and the mechanic's own edits
 * never conflicted.
 */
import 'fake-indexeddb/auto';
import { and, eq, notInArray } from 'drizzle-orm';
import type { MaterialCountRow } from '../../src/contract/stock';
import { offlineDb } from '../../src/offline/db';
import { runRound, verifyScopes, type Answer, type SyncDeps } from '../../src/offline/sync';
import {
  addLine,
  readCountSheet,
  refreshCountSheet,
  removeLine,
  setQuantity,
  setSheetReader,
  sheetKey,
  sheetScope,
  fetchCountSheet,
  writeCountSheet,
  isProvisional,
  partLineAsRow,
  type CountSheet,
} from '../../src/features/stock-count/offline/count-sheet';
import '../../src/features/stock-count/offline/register';
import { readMark } from '../../src/offline/db';
import { materialCounts, materials, stockCountParts, stockCounts } from '../../server/db/schema';
import type { PartLines } from '../../src/contract/stock-count-parts';
import { bearer, type TestProduct } from './harness';
import { seededRandom as rng } from '../seeded-random';


const USER = 'mechanic@example.com';
const COUNT_ID = 27; // the demo mechanic's initiated count (seed): 52 lines
/** #18 split mode: the count's planner and the other counter (a mechanic of the same plant). */
const PLANNER = 'supervisor@example.com';
const OTHER_COUNTER = 'mikko.virtanen@lift.example';


export type Op =
  | { type: 'edit'; pick: number; quantity: number; stale: boolean }
  | { type: 'correct'; pick: number; first: number; second: number }
  | { type: 'add'; pick: number }
  | { type: 'remove'; pick: number }
  | { type: 'offline' }
  | { type: 'online' }
  | { type: 'round' }
  | { type: 'await-round' }
  | { type: 'refresh' }
  | { type: 'refresh-start' }
  | { type: 'refresh-deliver' }
  | { type: 'render' }
  | { type: 'restart' }
  | { type: 'deliver-late' };

export function generate(seed: number, count: number): Op[] {
  const random = rng(seed);
  const ops: Op[] = [];
  const q = () => Math.floor(random() * 300);
  while (ops.length < count) {
    const r = random();
    if (r < 0.4) ops.push({ type: 'edit', pick: random(), quantity: q(), stale: random() < 0.5 });
    else if (r < 0.5) ops.push({ type: 'correct', pick: random(), first: q(), second: q() });
    else if (r < 0.54) ops.push({ type: 'add', pick: random() });
    else if (r < 0.57) ops.push({ type: 'remove', pick: random() });
    else if (r < 0.61) ops.push({ type: 'offline' });
    else if (r < 0.66) ops.push({ type: 'online' });
    else if (r < 0.76) ops.push({ type: 'round' });
    else if (r < 0.8) ops.push({ type: 'await-round' });
    else if (r < 0.83) ops.push({ type: 'refresh' });
    else if (r < 0.87) ops.push({ type: 'refresh-start' });
    else if (r < 0.91) ops.push({ type: 'refresh-deliver' });
    else if (r < 0.96) ops.push({ type: 'render' });
    else if (r < 0.98) ops.push({ type: 'restart' });
    else ops.push({ type: 'deliver-late' });
  }
  return ops;
}

export interface Outcome {
  lost: string[];
  doubled: string[];
  divergent: string[];
  selfConflicts: number;
  failed: string[];
  drainMs: number;
}

/**
 * A runner on `product` (a test product whose rate limit allows thousands of calls a minute):
 * `run(seed, ops)` plays one run from a reset count; `shrink` finds the shortest failing prefix.
 */
export async function chaosRunner(product: TestProduct, options: { split?: boolean } = {}) {
  const seeded = await product.database.db.select().from(materialCounts).where(eq(materialCounts.stockCountId, COUNT_ID));
  const token = await product.token(USER);
  const plannerToken = options.split ? await product.token(PLANNER) : '';
  const originalIds = seeded.map((line) => line.id);
  const codes = seeded.map((line) => line.materialCode);
  const spare = (await product.database.db.select({ code: materials.code }).from(materials).where(notInArray(materials.code, codes)).limit(30)).map(
    (row) => row.code,
  );

  async function reset() {
    const { db } = product.database;
    await db.delete(materialCounts).where(and(eq(materialCounts.stockCountId, COUNT_ID), notInArray(materialCounts.id, originalIds)));
    await db
      .update(materialCounts)
      .set({ quantity: null, version: 0, updatedBy: null })
      .where(eq(materialCounts.stockCountId, COUNT_ID));
    await db.update(stockCounts).set({ status: 'initiated' }).where(eq(stockCounts.id, COUNT_ID));
    await db.delete(stockCountParts).where(eq(stockCountParts.stockCountId, COUNT_ID));
    await db.update(materialCounts).set({ resolvedPartId: null, resolvedBy: null, resolvedAt: null }).where(eq(materialCounts.stockCountId, COUNT_ID));
    await Promise.all([offlineDb.pages.clear(), offlineDb.chunks.clear(), offlineDb.slots.clear(), offlineDb.outbox.clear(), offlineDb.marks.clear()]);
    if (options.split) {
      // #18: the mechanic counts every line but three (another counter's), the first line twice (a control count).
      const res = await product.app.inject({
        method: 'PUT',
        url: '/api/v2/my_stock_count/parts',
        headers: bearer(plannerToken),
        payload: {
          stockCountId: COUNT_ID,
          parts: [
            { counter: USER, materialCodes: [codes[0]], rest: true },
            { counter: OTHER_COUNTER, materialCodes: codes.slice(0, 4) },
          ],
          controlMaterialCodes: [codes[0]],
        },
      });
      if (res.statusCode !== 200) throw new Error(`split refused: ${res.statusCode} ${res.body}`);
    }
  }

  async function inject(method: string, path: string, key: string | undefined, searchParams?: Record<string, string | number>, json?: unknown) {
    const query = searchParams ? `?${new URLSearchParams(Object.entries(searchParams).map(([k, v]) => [k, String(v)]))}` : '';
    return product.app.inject({
      method: method as 'GET',
      url: `/api/v2/${path}${query}`,
      headers: { ...bearer(token), ...(key ? { 'idempotency-key': key } : {}) },
      ...(json === undefined ? {} : { payload: json as object }),
    });
  }

  async function serverLines(): Promise<MaterialCountRow[]> {
    if (options.split) {
      // The mechanic's part as the server holds it: their own quantities and versions.
      const part = (await inject('GET', 'my_stock_count/part', undefined, { stockCountId: COUNT_ID })).json() as PartLines;
      return part.lines.map((line) => partLineAsRow(COUNT_ID, line));
    }
    const all: MaterialCountRow[] = [];
    for (let page = 1; ; page += 1) {
      const res = await inject('GET', 'my_material_count', undefined, { stockCountId: COUNT_ID, page, maxResults: 200, orderByColumn: 'id' });
      const body = res.json();
      all.push(...body.material_counts);
      if (!body.has_next) return all;
    }
  }

  /** One run of `ops`; returns what broke (empty lists when nothing did). */
  async function run(seed: number, ops: Op[]): Promise<Outcome> {
    await reset();
    const faults = rng(seed ^ 0x9e3779b9);
    let online = true;
    let closing = false;
    const applied = new Map<string, number>();
    const late: Array<() => Promise<unknown>> = [];
    let selfConflicts = 0;

    const deliver = async (entry: { id: string; request: { method: string; path: string; searchParams?: Record<string, string>; json?: unknown } }) => {
      const res = await inject(entry.request.method, entry.request.path, entry.id, entry.request.searchParams, entry.request.json);
      if (res.statusCode < 300 && res.headers['idempotent-replayed'] !== 'true') applied.set(entry.id, (applied.get(entry.id) ?? 0) + 1);
      const body = res.body ? res.json() : null;
      if (res.statusCode === 409 && body?.conflicts) selfConflicts += 1;
      return { status: res.statusCode, body, message: body?.message ?? '' } satisfies Answer;
    };
    const offlineError = () => new TypeError('Failed to fetch');
    const deps: SyncDeps = {
      async send(entry) {
        if (!online || closing) throw offlineError();
        const r = faults();
        if (r < 0.08) throw offlineError(); // the request never arrives
        if (r < 0.16) {
          await deliver(entry); // the answer is lost
          throw offlineError();
        }
        if (r < 0.2) return { status: 503, body: { message: 'Service Unavailable' }, message: 'Service Unavailable' };
        if (r < 0.26) await deliver(entry); // a duplicate arrives first
        if (r < 0.32) {
          const copy = structuredClone(entry);
          late.push(() => deliver(copy)); // a stale copy arrives much later
        }
        return deliver(entry);
      },
      sleep: async () => undefined,
    };
    setSheetReader(async (path, params) => {
      if (!online) throw offlineError();
      const res = await inject('GET', path, undefined, params);
      if (res.statusCode >= 400) throw new Error(`${res.statusCode} ${res.body}`);
      return res.json();
    });

    const key = sheetKey(USER, COUNT_ID);
    const accepted = new Map<string, number | null>();
    const present = new Set<string>();
    const sheet0 = await refreshCountSheet(USER, COUNT_ID);
    for (const line of sheet0.data.material_counts) {
      present.add(line.material_code);
      accepted.set(line.material_code, line.quantity);
    }
    let rendered: MaterialCountRow[] = sheet0.data.material_counts;
    let round: Promise<unknown> | null = null;
    let pendingRefresh: { readFrom: number; sheet: CountSheet } | null = null;
    const lines = async () => (await readCountSheet(key))?.material_counts ?? [];
    const pickOf = <T,>(items: T[], pick: number) => items[Math.floor(pick * items.length)];
    const startRound = () => {
      round ??= (async () => {
        try {
          await runRound(USER, deps);
        } finally {
          round = null;
        }
      })();
    };
    const edit = async (pick: number, quantity: number, stale: boolean) => {
      const current = await lines();
      const line = pickOf(current, pick);
      if (!line) return;
      const shown = stale ? (rendered.find((row) => row.material_code === line.material_code) ?? line) : line;
      await setQuantity(USER, shown, quantity);
      accepted.set(line.material_code, quantity);
    };

    for (const op of ops) {
      switch (op.type) {
        case 'edit':
          await edit(op.pick, op.quantity, op.stale);
          break;
        case 'correct':
          await edit(op.pick, op.first, true);
          startRound();
          await edit(op.pick, op.second, true);
          break;
        case 'add': {
          const candidates = spare.filter((code) => !present.has(code));
          const code = pickOf(candidates, op.pick);
          if (!code) break;
          await addLine(USER, COUNT_ID, { material_code: code, material_description_english: code, unit: 'PC' });
          present.add(code);
          accepted.set(code, null);
          break;
        }
        case 'remove': {
          const removable = (await lines()).filter((line) => isProvisional(line.id) || (line.version === 0 && line.quantity === null && line.updated_by === USER));
          const line = pickOf(removable, op.pick);
          if (!line) break;
          await removeLine(USER, line);
          present.delete(line.material_code);
          accepted.delete(line.material_code);
          break;
        }
        case 'offline':
          online = false;
          break;
        case 'online':
          online = true;
          startRound();
          break;
        case 'round':
          startRound();
          break;
        case 'await-round':
          await round;
          break;
        case 'refresh':
          await refreshCountSheet(USER, COUNT_ID).catch(() => undefined);
          break;
        case 'refresh-start':
          if (online) pendingRefresh = { readFrom: await readMark(USER, sheetScope(COUNT_ID)), sheet: await fetchCountSheet(COUNT_ID) };
          break;
        case 'refresh-deliver':
          if (pendingRefresh) await writeCountSheet(USER, pendingRefresh.sheet, pendingRefresh.readFrom);
          pendingRefresh = null;
          break;
        case 'render':
          rendered = await lines();
          break;
        case 'restart':
          // The tab closes mid-flight: what it was sending gets no answer; a new tab starts.
          closing = true;
          await round;
          closing = false;
          rendered = await lines();
          pendingRefresh = null;
          break;
        case 'deliver-late':
          await late.shift()?.();
          break;
      }
    }

    // Back in the yard: online, nothing fails any more; drain, then read the server (pull after push).
    await round;
    online = true;
    const t0 = performance.now();
    for (const copy of late.splice(0)) await copy();
    for (let i = 0; i < 50 && (await offlineDb.outbox.where('status').anyOf('pending', 'sending').count()) > 0; i += 1) {
      const reliable: SyncDeps = { send: deliver, sleep: async () => undefined };
      await runRound(USER, reliable);
    }
    await verifyScopes(USER);
    const drainMs = performance.now() - t0;

    const server = await serverLines();
    const device = await lines();
    const left = await offlineDb.outbox.toArray();
    const lost: string[] = [];
    const byCode = new Map(server.map((line) => [line.material_code, line]));
    for (const code of present) {
      const line = byCode.get(code);
      if (!line) lost.push(`${code}: missing on the server`);
      else if (line.quantity !== accepted.get(code)) lost.push(`${code}: server ${line.quantity}, accepted ${accepted.get(code)}`);
    }
    for (const line of server) if (!present.has(line.material_code)) lost.push(`${line.material_code}: on the server, removed on the device`);
    const divergent: string[] = [];
    const deviceIds = device.map((line) => line.id);
    if (new Set(deviceIds).size !== deviceIds.length) divergent.push('a line is listed twice on the device');
    if (device.length !== server.length) divergent.push(`device ${device.length} lines, server ${server.length}`);
    const onDevice = new Map(device.map((line) => [line.id, line]));
    for (const line of server) {
      const mine = onDevice.get(line.id);
      if (!mine || mine.quantity !== line.quantity || mine.version !== line.version) divergent.push(`${line.material_code}: device ${mine?.quantity}, server ${line.quantity}`);
    }
    if ((await offlineDb.marks.toArray()).some((mark) => mark.unverified)) divergent.push('a scope stays unverified');
    return {
      lost,
      doubled: [...applied].filter(([, times]) => times > 1).map(([id]) => id),
      divergent,
      selfConflicts: selfConflicts + left.filter((entry) => entry.status === 'conflict').length,
      failed: left.map((entry) => `${entry.kind} ${entry.target} ${entry.status} ${entry.lastError ?? ''}`),
      drainMs,
    };
  }

  const broken = (outcome: Outcome) =>
    outcome.lost.length + outcome.doubled.length + outcome.divergent.length + outcome.selfConflicts + outcome.failed.length > 0;

  /** The shortest failing prefix (binary search over prefix lengths). */
  async function shrink(seed: number, ops: Op[]): Promise<Op[]> {
    let low = 1;
    let high = ops.length;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (broken(await run(seed, ops.slice(0, middle)))) high = middle;
      else low = middle + 1;
    }
    return ops.slice(0, high);
  }

  return { run, shrink, broken };
}
