/**
 * #18 several counters on one stock count (decision 0033), through the real app on PGlite and
 * PostgreSQL: the split (bins, picked lines, the rest, control counts), row scope (a counter reads
 * and writes only their part; a supervisor outside the planner group does not see the count), the
 * merge (two counters' different quantities are a variance, never an overwrite), the planner's
 * resolution, the submit rules, blind counts, idempotent replays, the notification per counter,
 * and the single-counter count working as before.
 *
 * Seed facts: supervisor@example.com plans planner group F10 of FI01 (van V001 is in it);
 * juha.nieminen@lift.example supervises F20; mechanic@example.com, mikko.virtanen@lift.example
 * and aino.korhonen@lift.example are mechanics of FI01; lukas.mueller@lift.example works in DE02.
 * This file makes its own counts of six materials of FI01/V001 and gives those stock rows known bins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const MECHANIC = 'mechanic@example.com';
const MIKKO = 'mikko.virtanen@lift.example';
const AINO = 'aino.korhonen@lift.example';
const JUHA = 'juha.nieminen@lift.example';
const WHO = ['mechanic@example.com', 'supervisor@example.com', 'stock.admin@example.com', MIKKO, AINO, JUHA];

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

interface PartRow {
  id: number;
  counter: string;
  status: string;
  total_lines: number;
  counted_lines: number;
  control_lines: number;
  is_mine: boolean;
}
interface PartLine {
  material_count_id: number;
  material_code: string;
  quantity: number | null;
  version: number;
  book_quantity: number | null;
  book_quantity_now: number | null;
  is_control: boolean;
  counted_by: string | null;
}

describe.each(ENGINES)('several counters on one stock count on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  /** Six materials of FI01/V001: bins A-01, A-02, B-01, B-02, C-01 and none. */
  let codes: string[] = [];
  const code = (i: number) => codes[i]!;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const email of WHO) tokens[email] = await product.token(email);
    const found = rowsOf(
      await product.database.db.execute(
        sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V001' and unrestricted_count is not null and quality_inspection_count is not null and blocked_count is not null and restricted_count is not null and transfer_count is not null order by material_code limit 6`,
      ),
    );
    codes = found.map((row) => String(row.material_code));
    expect(codes).toHaveLength(6);
    const bins = ['A-01', 'A-02', 'B-01', 'B-02', 'C-01', null];
    for (const [i, code] of codes.entries()) {
      await product.database.db.execute(sql`update stock_items set bin = ${bins[i]} where plant = 'FI01' and storage_location = 'V001' and material_code = ${code}`);
    }
  });
  afterAll(async () => {
    await product?.close();
  });

  const api = (who: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>, key?: string) =>
    product.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: { ...bearer(tokens[who.includes('@') ? who : `${who}@example.com`]!), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });

  /** A sent count needs someone counting: without a counter, parts or draft named, the mechanic counts it. */
  const createCount = async (extra: Record<string, unknown> = {}) => {
    const named = 'conductedBy' in extra || 'parts' in extra || 'draft' in extra;
    const res = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, ...(named ? {} : { conductedBy: MECHANIC }), ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; part_count: number; is_blind: boolean };
  };
  /** mechanic: bins A, plus the C-01 line as a control count; Mikko: the C-01 line and the rest. */
  const standardSplit = () => ({
    parts: [
      { counter: MECHANIC, label: 'Bins A', bins: [{ from: 'A-00', to: 'A-99' }], materialCodes: [code(4)] },
      { counter: MIKKO, materialCodes: [code(4)], rest: true },
    ],
    controlMaterialCodes: [code(4)],
  });
  const split = async (id: number, body = standardSplit(), key?: string) => api('supervisor', 'PUT', '/my_stock_count/parts', { stockCountId: id, ...body }, key);
  const partOf = async (who: string, id: number) => {
    const res = await api(who, 'GET', `/my_stock_count/part?stockCountId=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { part: PartRow; lines: PartLine[]; stock_count: { status: string; is_blind: boolean }; elsewhere: Array<{ material_code: string; part_id: number | null }> };
  };
  const lineId = async (id: number, code: string) => {
    const rows = (await api('supervisor', 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500`)).json().material_counts as Array<{ id: number; material_code: string; quantity: number | null }>;
    return rows.find((row) => row.material_code === code)!.id;
  };
  const merged = async (id: number) =>
    (await api('supervisor', 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500`)).json().material_counts as Array<{ id: number; material_code: string; quantity: number | null; book_quantity: number | null }>;
  const count = async (who: string, id: number, quantities: Array<[string, number]>, key?: string) => {
    const lines = await Promise.all(quantities.map(async ([code, quantity]) => ({ materialCountId: await lineId(id, code), quantity })));
    return api(who, 'PUT', '/my_stock_count/part/quantities', { stockCountId: id, quantities: lines }, key);
  };
  const setStatus = (who: string, id: number, status: 'done' | 'open') => api(who, 'PUT', '/my_stock_count/part/status', { stockCountId: id, status });

  it('splits a count by bin range, picked lines and the rest; a line in two parts only as a declared control count', async () => {
    const { id } = await createCount();
    const overlap = await split(id, { ...standardSplit(), controlMaterialCodes: [] });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json().message).toContain(`${code(4)} is in more than one part`);
    expect(overlap.json().message).toContain('controlMaterialCodes');
    // With a code and parameters the app words in the user's language (decision 0055).
    expect(overlap.json()).toMatchObject({ code: 'splitOverlap', params: { codes: code(4), count: 1, first: code(4) } });

    const gap = await split(id, { parts: [{ counter: MECHANIC, bins: [{ from: 'A-00', to: 'B-99' }] }] } as never);
    expect(gap.statusCode).toBe(400);
    expect(gap.json().message).toMatch(/Every line needs a part: .*is in no part|Every line needs a part: .*are in no part/);
    expect(gap.json()).toMatchObject({ code: 'splitUnplaced' });
    const empty = await split(id, { parts: [{ counter: MECHANIC, bins: [{ from: 'X-00', to: 'X-99' }], rest: true }] } as never);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('No line of stock count');
    expect(empty.json()).toMatchObject({ code: 'splitNoLinesInBins', params: { id, from: 'X-00', to: 'X-99' } });
    const outsider = await split(id, { parts: [{ counter: 'lukas.mueller@lift.example', rest: true }] } as never);
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().message).toContain('does not work in plant FI01');
    expect(outsider.json()).toMatchObject({ code: 'counterNotInPlant', params: { email: 'lukas.mueller@lift.example', plant: 'FI01' } });
    const twice = await split(id, { parts: [{ counter: MECHANIC, rest: true }, { counter: MECHANIC.toUpperCase(), materialCodes: [code(0)] }] } as never);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('counts one part');

    const res = await split(id);
    expect(res.statusCode, res.body).toBe(200);
    const progress = res.json() as { parts: PartRow[]; total_lines: number; lines_in_no_part: number; variance_lines: number };
    expect(progress.total_lines).toBe(6);
    expect(progress.lines_in_no_part).toBe(0);
    const byCounter = Object.fromEntries(progress.parts.map((part) => [part.counter, part]));
    expect(byCounter[MECHANIC]).toMatchObject({ total_lines: 3, counted_lines: 0, control_lines: 1, status: 'open' });
    expect(byCounter[MIKKO]).toMatchObject({ total_lines: 4, counted_lines: 0, control_lines: 1, status: 'open' });
    const mine = await partOf('mechanic', id);
    expect(mine.lines.map((line) => line.material_code).sort()).toEqual([code(0), code(1), code(4)].sort());
    expect(mine.lines.find((line) => line.material_code === code(4))!.is_control).toBe(true);
    // The count's other codes, with the part that holds each: a scan of one says whose it is.
    const mikkoId = byCounter[MIKKO]!.id;
    expect(mine.elsewhere).toEqual([code(2), code(3), code(5)].sort().map((material_code) => ({ material_code, part_id: mikkoId })));
    expect((await partOf(MIKKO, id)).elsewhere).toEqual([code(0), code(1)].sort().map((material_code) => ({ material_code, part_id: byCounter[MECHANIC]!.id })));
    const row = (await api('supervisor', 'GET', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`)).json().stock_counts[0];
    expect(row.part_count).toBe(2);

    // Each counter is told about their part, in their language's text key (the mechanic's message of the count as created aside).
    const told = rowsOf(
      await product.database.db.execute(
        sql`select user_email, text_key, text_params from notifications where link = ${`/mechanic-view/${id}`} and notification_key = 'inventory_count_notification' and channel = 'email' and text_key is distinct from 'stockCountAssigned' order by user_email`,
      ),
    );
    expect(told.map((n) => [n.user_email, n.text_key])).toEqual([
      [MECHANIC, 'stockCountPartAssigned'],
      [MIKKO, 'stockCountPartAssigned'],
    ]);
    expect((told[0]!.text_params as { lines: number }).lines).toBe(3);
  });

  it('keeps a counter to their part: others’ lines are 403, other counts 404, and a supervisor of another planner group sees nothing', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    const mikkoPart = (await partOf(MIKKO, id)).part;
    const other = await api('mechanic', 'GET', `/my_stock_count/part?stockCountId=${id}&partId=${mikkoPart.id}`);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toContain('another counter');
    // The planner reads any part.
    expect((await api('supervisor', 'GET', `/my_stock_count/part?stockCountId=${id}&partId=${mikkoPart.id}`)).json().lines).toHaveLength(4);

    const notMine = await count('mechanic', id, [[code(2), 1]]);
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().message).toContain('not in your part');
    const foreign = await api('mechanic', 'PUT', '/my_stock_count/part/quantities', { stockCountId: id, quantities: [{ materialCountId: 1, quantity: 1 }] });
    expect(foreign.statusCode).toBe(404);
    // The whole list and the direct line writes are not the way into a split count for a counter.
    expect((await api('mechanic', 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=20`)).statusCode).toBe(403);
    const direct = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: await lineId(id, code(0)), quantity: 9 }] });
    expect(direct.statusCode).toBe(403);
    expect(direct.json().message).toContain('/my_stock_count/part/quantities');
    // The developer's text stays; the app words the refusal by its code (decision 0055).
    expect(direct.json()).toMatchObject({ code: 'countSplitWriteToPart', params: { id } });

    // A mechanic without a part does not see the count at all; neither does the supervisor of F20.
    for (const outsider of [AINO, JUHA]) {
      expect((await api(outsider, 'GET', `/my_stock_count/parts?stockCountId=${id}`)).statusCode).toBe(404);
      expect((await api(outsider, 'GET', `/my_stock_count/part?stockCountId=${id}`)).statusCode).toBe(404);
    }
    expect((await api(JUHA, 'PUT', '/my_stock_count/parts', { stockCountId: id, ...standardSplit() })).statusCode).toBe(404);
    expect((await api(JUHA, 'GET', `/my_stock_count/merge?stockCountId=${id}`)).statusCode).toBe(404);
    // Counters see progress, not the others' quantities, and do not split.
    expect((await api('mechanic', 'GET', `/my_stock_count/parts?stockCountId=${id}`)).json().parts).toHaveLength(2);
    expect((await api('mechanic', 'GET', `/my_stock_count/merge?stockCountId=${id}`)).statusCode).toBe(403);
    expect((await api('mechanic', 'PUT', '/my_stock_count/parts', { stockCountId: id, ...standardSplit() })).statusCode).toBe(403);
    expect((await api(AINO, 'PUT', '/my_stock_count/part/quantities', { stockCountId: id, quantities: [{ materialCountId: 1, quantity: 1 }] })).statusCode).toBe(404);
  });

  // Counters write their own parts side by side: a write in flight holds a share of the count and
  // its own part (what the route takes), held open here in a session of its own. PostgreSQL only:
  // PGlite has one session.
  it.skipIf(engine !== 'postgres')('lets a counter write their part while another counter’s write of the same count is in flight', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    expect((await count('mechanic', id, [[code(0), 1]])).statusCode).toBe(200);
    expect((await partOf('mechanic', id)).stock_count.status).toBe('in_progress');
    const inFlight = new pg.Client({ connectionString: product.database.databaseUrl });
    await inFlight.connect();
    try {
      await inFlight.query('begin');
      await inFlight.query('select id from stock_counts where id = $1 for share', [id]);
      await inFlight.query('select id from stock_count_parts where stock_count_id = $1 and counter = $2 for update', [id, MECHANIC]);
      const written = await Promise.race([
        count(MIKKO, id, [[code(2), 4]]).then((res) => res.statusCode),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 30 s'), 30_000).unref()),
      ]);
      // Under a FOR UPDATE of the count row, Mikko's write waited for the mechanic's.
      expect(written).toBe(200);
    } finally {
      await inFlight.query('rollback').catch(() => undefined);
      await inFlight.end();
    }
    expect((await partOf(MIKKO, id)).lines.find((line) => line.material_code === code(2))!.quantity).toBe(4);
  });

  it('merges: one counter’s quantity is the line’s, two different ones a variance the planner resolves or sends to recount', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    const first = await count('mechanic', id, [
      [code(0), 1],
      [code(1), 2],
      [code(4), 5],
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().stock_count.status).toBe('in_progress');
    // The control line counted once so far: its quantity stands (partly).
    expect((await merged(id)).find((line) => line.material_code === code(4))!.quantity).toBe(5);
    expect((await count(MIKKO, id, [[code(2), 3], [code(3), 4], [code(5), 6], [code(4), 7]])).statusCode).toBe(200);

    const lines = await merged(id);
    const quantityOf = (code: string) => lines.find((line) => line.material_code === code)!.quantity;
    expect([code(0), code(1), code(2), code(3), code(5)].map(quantityOf)).toEqual([1, 2, 3, 4, 6]);
    expect(quantityOf(code(4))).toBeNull(); // never the last writer's 7
    const merge = (await api('supervisor', 'GET', `/my_stock_count/merge?stockCountId=${id}`)).json();
    expect(merge.lines).toHaveLength(1);
    const variance = merge.lines[0];
    expect(variance).toMatchObject({ material_code: code(4), state: 'variance', quantity: null });
    expect(variance.counts.map((c: { counter: string; quantity: number }) => [c.counter, c.quantity])).toEqual([
      [MECHANIC, 5],
      [MIKKO, 7],
    ]);
    expect((await api('supervisor', 'GET', `/my_stock_count/parts?stockCountId=${id}`)).json().variance_lines).toBe(1);
    // A planner does not overwrite a counted line through the old call either.
    const overwrite = await api('supervisor', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: variance.material_count_id, quantity: 6 }] });
    expect(overwrite.statusCode).toBe(409);
    expect(overwrite.json().message).toContain('merge/resolve');
    expect(overwrite.json()).toMatchObject({ code: 'countSplitQuantityFromParts', params: { id, codes: variance.material_code, count: 1 } });

    const noVariance = await api('supervisor', 'POST', '/my_stock_count/merge/resolve', { stockCountId: id, materialCountId: await lineId(id, code(0)), action: 'take', partId: variance.counts[0].part_id });
    expect(noVariance.statusCode).toBe(409); // counted by one counter: nothing to resolve
    expect(noVariance.json().message).toContain('no difference');
    // Coded, so the app words it in the planner's language (decision 0055).
    expect(noVariance.json()).toMatchObject({ code: 'mergeNothingToResolve', params: { code: code(0) } });
    const mikkoPartId = variance.counts[1].part_id as number;
    const take = await api('supervisor', 'POST', '/my_stock_count/merge/resolve', { stockCountId: id, materialCountId: variance.material_count_id, action: 'take', partId: mikkoPartId });
    expect(take.statusCode, take.body).toBe(200);
    // The decider is named as people know them (the counters are), the e-mail kept beside.
    expect(take.json()).toMatchObject({ state: 'resolved', quantity: 7, resolved_part_id: mikkoPartId, resolved_by: 'supervisor@example.com', resolved_by_name: 'Sanna Heikkinen' });
    expect((await merged(id)).find((line) => line.material_code === code(4))!.quantity).toBe(7);
    const resolvedLines = (await api('supervisor', 'GET', `/my_stock_count/merge?stockCountId=${id}&state=resolved`)).json().lines;
    expect(resolvedLines).toMatchObject([{ material_code: code(4), resolved_by: 'supervisor@example.com', resolved_by_name: 'Sanna Heikkinen' }]);
    const audit = rowsOf(await product.database.db.execute(sql`select action, actor_email from audit_log where target_type = 'material_count' and target_id = ${String(variance.material_count_id)}`));
    expect(audit).toEqual([{ action: 'stock_count.line.take', actor_email: 'supervisor@example.com' }]);

    // Recount: both counters' quantities cleared (the audit keeps them), their parts open again.
    expect((await setStatus('mechanic', id, 'done')).statusCode).toBe(200);
    const recount = await api('supervisor', 'POST', '/my_stock_count/merge/resolve', { stockCountId: id, materialCountId: variance.material_count_id, action: 'recount' });
    expect(recount.statusCode, recount.body).toBe(200);
    expect(recount.json()).toMatchObject({ state: 'open', quantity: null, resolved_part_id: null });
    expect(recount.json().counts.map((c: { quantity: number | null }) => c.quantity)).toEqual([null, null]);
    expect((await partOf('mechanic', id)).part.status).toBe('open');
    // Both counters are told which material to count again; the planner is not told of their own decision.
    const recountTold = rowsOf(
      await product.database.db.execute(
        sql`select user_email, text_params->>'material' as material from notifications where link = ${`/mechanic-view/${id}`} and text_key = 'stockCountRecountLine' and channel = 'email' order by user_email`,
      ),
    );
    expect(recountTold.map((row) => row.user_email)).toEqual([MECHANIC, MIKKO].sort());
    expect(String(recountTold[0]!.material)).toContain(code(4));
    expect((await count('mechanic', id, [[code(4), 6]])).statusCode).toBe(200);
    expect((await count(MIKKO, id, [[code(4), 6]])).statusCode).toBe(200);
    const agreed = (await api('supervisor', 'GET', `/my_stock_count/merge?stockCountId=${id}`)).json().lines[0];
    expect(agreed).toMatchObject({ state: 'counted', quantity: 6 });
    const takeAgreed = await api('supervisor', 'POST', '/my_stock_count/merge/resolve', { stockCountId: id, materialCountId: agreed.material_count_id, action: 'take', partId: mikkoPartId });
    expect(takeAgreed.statusCode).toBe(409);
    expect(takeAgreed.json().message).toContain('no difference');
    expect(takeAgreed.json()).toMatchObject({ code: 'mergeNothingToResolve', params: { code: code(4), state: 'counted' } });
  });

  it('submits when every part is done, or by the planner confirming open parts; never with a variance', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    expect((await count('mechanic', id, [[code(0), 1], [code(1), 2], [code(4), 5]])).statusCode).toBe(200);
    const notYet = await setStatus(MIKKO, id, 'done');
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().message).toContain('not counted yet');
    // Coded, so the phone words it in the counter's language (decision 0055).
    expect(notYet.json()).toMatchObject({ code: 'partNotAllCounted', params: { count: 4 } });
    expect((await setStatus('mechanic', id, 'done')).json()).toMatchObject({ status: 'done', counted_lines: 3 });
    // A correction after "my part is done" goes through and reopens the part (as an added line
    // does): an offline correction queued behind the "done" is not refused.
    const afterDone = await count('mechanic', id, [[code(0), 9]]);
    expect(afterDone.statusCode, afterDone.body).toBe(200);
    expect(afterDone.json().part).toMatchObject({ status: 'open', done_at: null });
    expect((await partOf('mechanic', id)).part.status).toBe('open');
    expect((await count('mechanic', id, [[code(0), 1]])).statusCode).toBe(200);
    expect((await setStatus('mechanic', id, 'done')).json()).toMatchObject({ status: 'done' });
    // The same quantity again changes nothing: the part stays done.
    const same = await count('mechanic', id, [[code(0), 1]]);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().part.status).toBe('done');

    const open = await api('supervisor', 'GET', `/my_stock_count/submit?stockCountId=${id}`);
    expect(open.statusCode).toBe(409);
    expect(open.json().open_parts.map((part: PartRow) => part.counter)).toEqual([MIKKO]);
    expect(open.json().message).toContain('confirmOpenParts');
    const counterConfirms = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${id}&confirmOpenParts=true`);
    expect(counterConfirms.statusCode).toBe(403);

    expect((await count(MIKKO, id, [[code(2), 3], [code(3), 4], [code(5), 6], [code(4), 7]])).statusCode).toBe(200);
    const disagree = await api('supervisor', 'GET', `/my_stock_count/submit?stockCountId=${id}&confirmOpenParts=true`);
    expect(disagree.statusCode).toBe(409);
    expect(disagree.json().variances.map((line: { material_code: string }) => line.material_code)).toEqual([code(4)]);
    // Coded, so the app words it in the user's language (decision 0055).
    expect(disagree.json()).toMatchObject({ code: 'submitCountersDisagree', params: { codes: code(4), count: 1 } });
    const variance = disagree.json().variances[0];
    expect((await api('supervisor', 'POST', '/my_stock_count/merge/resolve', { stockCountId: id, materialCountId: variance.material_count_id, action: 'take', partId: variance.counts[0].part_id })).statusCode).toBe(200);
    const submitted = await api('supervisor', 'GET', `/my_stock_count/submit?stockCountId=${id}&confirmOpenParts=true`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().status).toBe('completed');
    // A submitted count takes no correction, done part or not.
    const late = await count('mechanic', id, [[code(0), 2]]);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('can no longer be changed');
    // The result holds every line once, the resolved one with the quantity taken.
    expect((await merged(id)).map((line) => [line.material_code, line.quantity]).sort()).toEqual(
      [[code(0), 1], [code(1), 2], [code(2), 3], [code(3), 4], [code(4), 5], [code(5), 6]].sort(),
    );
    const audit = rowsOf(await product.database.db.execute(sql`select after from audit_log where action = 'stock_count.submit_open_parts' and target_id = ${String(id)}`));
    expect(audit).toHaveLength(1);

    // Every part done: a counter may submit.
    const second = (await createCount()).id;
    expect((await split(second, { parts: [{ counter: MECHANIC, bins: [{ from: 'A', to: 'B-99' }] }, { counter: MIKKO, rest: true }] } as never)).statusCode).toBe(200);
    expect((await count('mechanic', second, [[code(0), 1], [code(1), 1], [code(2), 1], [code(3), 1]])).statusCode).toBe(200);
    expect((await count(MIKKO, second, [[code(4), 2], [code(5), 2]])).statusCode).toBe(200);
    expect((await setStatus('mechanic', second, 'done')).statusCode).toBe(200);
    expect((await setStatus(MIKKO, second, 'done')).statusCode).toBe(200);
    const done = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${second}`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().status).toBe('completed');
  });

  it('takes or clears only the quantities the planner saw: one changed since is a 409 with a code', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    expect((await count('mechanic', id, [[code(4), 5]])).statusCode).toBe(200);
    expect((await count(MIKKO, id, [[code(4), 7]])).statusCode).toBe(200);
    const shown = (await api('supervisor', 'GET', `/my_stock_count/merge?stockCountId=${id}`)).json().lines[0] as {
      material_count_id: number;
      counts: Array<{ part_id: number; quantity: number | null }>;
    };
    const [mechanicCount, mikkoCount] = shown.counts;
    // Mikko corrects his 7 to 9 while the planner looks at the 7.
    expect((await count(MIKKO, id, [[code(4), 9]])).statusCode).toBe(200);
    const resolve = (body: Record<string, unknown>) => api('supervisor', 'POST', '/my_stock_count/merge/resolve', { stockCountId: id, materialCountId: shown.material_count_id, ...body });
    const stale = await resolve({ action: 'take', partId: mikkoCount!.part_id, expectedQuantity: 7 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'mergeChangedMeanwhile', params: { code: code(4), who: 'Mikko Virtanen', shown: 7 } });
    expect(stale.json().message).toContain('changed after you opened the merge');
    expect((await merged(id)).find((line) => line.material_code === code(4))!.quantity).toBeNull();
    const audited = rowsOf(await product.database.db.execute(sql`select action from audit_log where action = 'stock_count.line.take' and target_id = ${String(shown.material_count_id)}`));
    expect(audited).toHaveLength(0);
    // Taken as it is now, it is booked.
    const taken = await resolve({ action: 'take', partId: mikkoCount!.part_id, expectedQuantity: 9 });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ state: 'resolved', quantity: 9 });
    // Clients that send no expected quantity keep working.
    expect((await resolve({ action: 'take', partId: mechanicCount!.part_id })).json()).toMatchObject({ state: 'resolved', quantity: 5 });

    // Recount: cleared only as shown.
    const staleRecount = await resolve({ action: 'recount', expectedCounts: [{ partId: mechanicCount!.part_id, quantity: 5 }, { partId: mikkoCount!.part_id, quantity: 7 }] });
    expect(staleRecount.statusCode).toBe(409);
    expect(staleRecount.json()).toMatchObject({ code: 'mergeRecountChangedMeanwhile', params: { code: code(4) } });
    expect((await partOf(MIKKO, id)).lines.find((line) => line.material_code === code(4))!.quantity).toBe(9);
    const recount = await resolve({ action: 'recount', expectedCounts: [{ partId: mechanicCount!.part_id, quantity: 5 }, { partId: mikkoCount!.part_id, quantity: 9 }] });
    expect(recount.statusCode, recount.body).toBe(200);
    expect(recount.json()).toMatchObject({ state: 'open', quantity: null });
  });

  it('acts only on the decision the planner saw: another planner’s Take or Send to recount since is a 409 with a code (decision 0068)', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    expect((await count('mechanic', id, [[code(4), 5]])).statusCode).toBe(200);
    expect((await count(MIKKO, id, [[code(4), 7]])).statusCode).toBe(200);
    const shown = (await api('supervisor', 'GET', `/my_stock_count/merge?stockCountId=${id}`)).json().lines[0] as {
      material_count_id: number;
      resolved_part_id: number | null;
      counts: Array<{ part_id: number; quantity: number | null }>;
    };
    expect(shown.resolved_part_id).toBeNull();
    const [mechanicCount, mikkoCount] = shown.counts;
    const resolve = (who: string, body: Record<string, unknown>) =>
      api(who, 'POST', '/my_stock_count/merge/resolve', { stockCountId: id, materialCountId: shown.material_count_id, ...body });
    const shownCounts = [
      { partId: mechanicCount!.part_id, quantity: 5 },
      { partId: mikkoCount!.part_id, quantity: 7 },
    ];
    // Another planner takes Mikko's 7 while this one looks at the line undecided.
    const other = await resolve('stock.admin', { action: 'take', partId: mikkoCount!.part_id, expectedQuantity: 7, expectedResolvedPartId: null });
    expect(other.statusCode, other.body).toBe(200);
    // This planner's Take of the mechanic's 5, and their Send to recount, would override that unseen: refused, nothing changed.
    const take = await resolve('supervisor', { action: 'take', partId: mechanicCount!.part_id, expectedQuantity: 5, expectedResolvedPartId: null });
    expect(take.statusCode).toBe(409);
    expect(take.json()).toMatchObject({ code: 'mergeDecidedMeanwhile', params: { code: code(4) } });
    expect(take.json().message).toContain('decided by someone else');
    const recount = await resolve('supervisor', { action: 'recount', expectedCounts: shownCounts, expectedResolvedPartId: null });
    expect(recount.statusCode).toBe(409);
    expect(recount.json()).toMatchObject({ code: 'mergeDecidedMeanwhile', params: { code: code(4) } });
    expect((await merged(id)).find((line) => line.material_code === code(4))!.quantity).toBe(7);
    expect((await partOf(MIKKO, id)).lines.find((line) => line.material_code === code(4))!.quantity).toBe(7);
    const audited = rowsOf(await product.database.db.execute(sql`select actor_email from audit_log where target_type = 'material_count' and target_id = ${String(shown.material_count_id)}`));
    expect(audited).toEqual([{ actor_email: 'stock.admin@example.com' }]);
    // Decided again on the decision as it is now, it goes.
    const changed = await resolve('supervisor', { action: 'take', partId: mechanicCount!.part_id, expectedQuantity: 5, expectedResolvedPartId: mikkoCount!.part_id });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ state: 'resolved', quantity: 5, resolved_part_id: mechanicCount!.part_id });
    // Clients that name no decision keep working as before.
    expect((await resolve('supervisor', { action: 'take', partId: mikkoCount!.part_id })).json()).toMatchObject({ state: 'resolved', quantity: 7 });
    const cleared = await resolve('supervisor', { action: 'recount', expectedCounts: shownCounts, expectedResolvedPartId: mikkoCount!.part_id });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ state: 'open', quantity: null, resolved_part_id: null });
    // Sent to recount meanwhile: a counter's quantity to take is gone, and the refusal is coded.
    const gone = await resolve('stock.admin', { action: 'take', partId: mikkoCount!.part_id });
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ code: 'mergeNothingToTake', params: { code: code(4), who: 'Mikko Virtanen' } });
  });

  it('does not check again a kept counter whose lines stay as they are: their expired access blocks no other change of the split', async () => {
    const { id } = await createCount();
    const base = (mechanic: string[], aino: string[]) =>
      split(id, { parts: [{ counter: MECHANIC, materialCodes: mechanic }, { counter: AINO, materialCodes: aino }, { counter: MIKKO, rest: true }] } as never);
    expect((await base([code(0)], [code(1)])).statusCode).toBe(200);
    const [before] = rowsOf(await product.database.db.execute(sql`select expiration_date::text as expiration from users where email = ${AINO}`));
    await product.database.db.execute(sql`update users set expiration_date = '2000-01-01' where email = ${AINO}`);
    try {
      // Aino's part unchanged: the mechanic gets another line.
      const others = await base([code(0), code(2)], [code(1)]);
      expect(others.statusCode, others.body).toBe(200);
      expect((await partOf('mechanic', id)).lines.map((line) => line.material_code).sort()).toEqual([code(0), code(2)].sort());
      // Giving her more to count is refused: she cannot count it.
      const more = await base([code(0), code(2)], [code(1), code(3)]);
      expect(more.statusCode).toBe(400);
      expect(more.json().message).toContain(`${AINO} cannot count: their access expired`);
      // Nor is a new counter let in unchecked.
      const newcomer = await split(id, { parts: [{ counter: 'lukas.mueller@lift.example', materialCodes: [code(5)] }, { counter: MECHANIC, materialCodes: [code(0), code(2)] }, { counter: AINO, materialCodes: [code(1)] }, { counter: MIKKO, rest: true }] } as never);
      expect(newcomer.statusCode).toBe(400);
      expect(newcomer.json().message).toContain('does not work in plant FI01');
    } finally {
      await product.database.db.execute(sql`update users set expiration_date = ${(before?.expiration as string | null) ?? null} where email = ${AINO}`);
    }
  });

  it('confirms only the open parts the planner was shown', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    const parts = (await api('supervisor', 'GET', `/my_stock_count/parts?stockCountId=${id}`)).json().parts as PartRow[];
    const idOf = (counter: string) => parts.find((part) => part.counter === counter)!.id;
    const submit = (shown?: number[]) =>
      api('supervisor', 'GET', `/my_stock_count/submit?stockCountId=${id}&confirmOpenParts=true${(shown ?? []).map((part) => `&openPartIds=${part}`).join('')}`);
    // The planner was shown the mechanic's part only: Mikko's, open too, is not confirmed unseen.
    const unseen = await submit([idOf(MECHANIC)]);
    expect(unseen.statusCode).toBe(409);
    expect(unseen.json()).toMatchObject({ code: 'openPartsChangedMeanwhile', params: { counters: 'Mikko Virtanen', count: 1 } });
    expect(unseen.json().message).toContain('Mikko Virtanen');
    expect((unseen.json().open_parts as PartRow[]).map((part) => part.counter).sort()).toEqual([MECHANIC, MIKKO].sort());
    // Both shown (or no list: other API clients), the parts are confirmed; what stops the submit
    // then is the uncounted lines.
    for (const shown of [[idOf(MECHANIC), idOf(MIKKO)], undefined]) {
      const confirmed = await submit(shown);
      expect(confirmed.statusCode).toBe(409);
      // Not openPartsChangedMeanwhile: the lines' own refusal, coded for the app's wording.
      expect(confirmed.json()).toMatchObject({ code: 'submitNotCounted', params: { count: 6 } });
      expect(confirmed.json().message).toContain('not counted yet');
    }
    // A part shown open and done since needs no confirmation.
    expect((await count('mechanic', id, [[code(0), 1], [code(1), 1], [code(4), 1]])).statusCode).toBe(200);
    expect((await setStatus('mechanic', id, 'done')).statusCode).toBe(200);
    expect((await submit([idOf(MECHANIC), idOf(MIKKO)])).json().message).toContain('not counted yet');
  });

  it('lets no counter of a blind count accept a book quantity: it is not shown one, and a refusal on a guess would tell it', async () => {
    const { id } = await createCount({ blind: true, conductedBy: 'mechanic@example.com' });
    const [line] = (await api('mechanic', 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500`)).json().material_counts as Array<{ id: number; version: number }>;
    for (const guess of [0, 5, null]) {
      const res = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line!.id, quantity: 3, version: line!.version, acceptBookQuantity: guess }] });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(`Stock count ${id} is counted blind: its book quantities are not shown to you, so none can be accepted`);
      expect(res.json()).toMatchObject({ code: 'blindNoBookAccept', params: { id } });
    }
    // Counting it is theirs.
    expect((await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line!.id, quantity: 3, version: line!.version }] })).statusCode).toBe(200);
    // When the book moves, the submit says the choice is the planner's (the counter has no buttons for it).
    const all = (await api('supervisor', 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500`)).json().material_counts as Array<{ id: number; version: number; material_code: string }>;
    const rest = all.filter((row) => row.id !== line!.id).map((row) => ({ id: row.id, quantity: 1, version: row.version }));
    expect((await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: rest })).statusCode).toBe(200);
    const moved = all.find((row) => row.id === line!.id)!;
    await product.database.db.execute(
      sql`update stock_items set unrestricted_count = coalesce(unrestricted_count, 0) + 5 where plant = 'FI01' and storage_location = 'V001' and material_code = ${moved.material_code}`,
    );
    const refused = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `The book quantity changed after counting started for ${moved.material_code}: this count is blind, so its planner chooses which book quantity to keep before it can be submitted`,
    );
    expect(refused.json()).toMatchObject({ code: 'submitBookMovedBlind', params: { codes: moved.material_code, count: 1 } });
    const planners = await api('supervisor', 'GET', `/my_stock_count/submit?stockCountId=${id}`);
    expect(planners.json().message).toContain('keep the counted quantity or keep the difference');
    expect(planners.json()).toMatchObject({ code: 'submitBookMoved', params: { codes: moved.material_code, count: 1 } });
  });

  it('hides the book quantity from the counters of a blind count, split or not', async () => {
    const { id, is_blind } = await createCount({ blind: true, parts: [{ counter: MECHANIC, rest: true }] });
    expect(is_blind).toBe(true);
    const mine = await partOf('mechanic', id);
    expect(mine.stock_count.is_blind).toBe(true);
    expect(mine.lines).toHaveLength(6);
    expect(mine.lines.every((line) => line.book_quantity === null && line.book_quantity_now === null)).toBe(true);
    const planner = (await api('supervisor', 'GET', `/my_stock_count/part?stockCountId=${id}&partId=${mine.part.id}`)).json();
    expect(planner.lines.some((line: PartLine) => line.book_quantity !== null)).toBe(true);
    const printed = (await api('mechanic', 'GET', `/relationship/print_materials?stockCountId=${id}`)).json();
    expect(printed.lines).toHaveLength(6);
    expect(printed.lines.every((line: { book_quantity: number | null }) => line.book_quantity === null)).toBe(true);
    const written = await count('mechanic', id, [[code(0), 3]]);
    expect(written.json().lines[0].book_quantity).toBeNull();
    const late = await split(id, { parts: [{ counter: MECHANIC, rest: true }], blind: false } as never);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('blind');

    // A blind single-counter count: the old calls hide it from the mechanic too.
    const single = await createCount({ blind: true, conductedBy: MECHANIC });
    const list = (await api('mechanic', 'GET', `/my_material_count?stockCountId=${single.id}&page=1&maxResults=500`)).json().material_counts as Array<{ book_quantity: number | null; id: number }>;
    expect(list).toHaveLength(6);
    expect(list.every((line) => line.book_quantity === null)).toBe(true);
    expect((await merged(single.id)).some((line) => line.book_quantity !== null)).toBe(true);
    const put = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: list[0]!.id, quantity: 2 }] });
    expect(put.json().material_counts[0].book_quantity).toBeNull();

    // Nor does the stock screen tell it: the storage location's counts add up to the book quantity.
    type Stock = { storage_location: string; total_quantity: number | null; unrestricted_count: number | null; blind_count_id?: number };
    const stockOf = async (who: string) =>
      ((await api(who, 'GET', `/my_plant_stock?page=1&maxResults=100&query=${code(0)}`)).json().stock_items as Stock[]).filter((row) => row.storage_location === 'V001');
    const counted = await stockOf('mechanic');
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.every((row) => row.total_quantity === null && row.unrestricted_count === null && row.blind_count_id !== undefined)).toBe(true);
    // Its planner still reads them.
    // Only what the count holds: another material of the same storage location stays readable.
    const [other] = rowsOf(
      await product.database.db.execute(
        sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V001' and unrestricted_count > 0 and material_code > ${code(5)} order by material_code limit 1`,
      ),
    );
    expect(other).toBeDefined();
    const outside = ((await api('mechanic', 'GET', `/my_plant_stock?page=1&maxResults=100&query=${String(other!.material_code)}`)).json().stock_items as Stock[]).filter(
      (row) => row.storage_location === 'V001',
    );
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.every((row) => row.blind_count_id === undefined && row.total_quantity !== null)).toBe(true);
    const planned = await stockOf('supervisor');
    expect(planned.length).toBeGreaterThan(0);
    expect(planned.every((row) => row.blind_count_id === undefined && row.total_quantity !== null)).toBe(true);
  });

  it('replays a repeated write with the same Idempotency-Key, once', async () => {
    const { id } = await createCount();
    const key = `split-${engine}-${id}`;
    const first = await split(id, standardSplit(), key);
    const again = await split(id, standardSplit(), key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    // One message per counter and channel (the mechanic has e-mail and push), and none more for the replay (the message of the count as created aside).
    const told = rowsOf(await product.database.db.execute(sql`select user_email, channel from notifications where link = ${`/mechanic-view/${id}`} and text_key is distinct from 'stockCountAssigned' order by user_email, channel`));
    expect(told.map((row) => `${row.user_email} ${row.channel}`)).toEqual([`${MECHANIC} email`, `${MECHANIC} push`, `${MIKKO} email`]);

    const countKey = `count-${engine}-${id}`;
    const once = await count('mechanic', id, [[code(0), 4]], countKey);
    const twice = await count('mechanic', id, [[code(0), 4]], countKey);
    expect(twice.headers['idempotent-replayed']).toBe('true');
    expect(twice.body).toBe(once.body);
    expect((await partOf('mechanic', id)).lines.find((line) => line.material_code === code(0))!.version).toBe(1);
    const audit = rowsOf(await product.database.db.execute(sql`select count(*)::int as n from audit_log where action = 'stock_count.part.count' and actor_email = ${MECHANIC} and after::text like ${`%${await lineId(id, code(0))}%`}`));
    expect(Number(audit[0]!.n)).toBe(1);
    const different = await count('mechanic', id, [[code(0), 5]], countKey);
    expect(different.statusCode).toBe(422);
    // A stale version whose value differs is a conflict, not an overwrite.
    const stale = await api('mechanic', 'PUT', '/my_stock_count/part/quantities', { stockCountId: id, quantities: [{ materialCountId: await lineId(id, code(0)), quantity: 8, version: 0 }] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().conflicts[0]).toMatchObject({ quantity: 4, version: 1 });
  });

  it('changes a split without losing a count: counted lines stay, new lines reopen a done part, a counter’s added line joins their part', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    expect((await count('mechanic', id, [[code(0), 1]])).statusCode).toBe(200);
    const losing = await split(id, { parts: [{ counter: MIKKO, rest: true }, { counter: AINO, materialCodes: [code(4)] }] } as never);
    expect(losing.statusCode).toBe(409);
    expect(losing.json().message).toContain(MECHANIC);
    expect(losing.json()).toMatchObject({ code: 'splitCountedLinesStay', params: { lines: `${MECHANIC} (${code(0)})` } });
    // Mechanic finishes A-01 only... give A-02 to Aino, mark the mechanic's part done, then give them B-01.
    const moved = await split(id, {
      parts: [
        { counter: MECHANIC, materialCodes: [code(0)] },
        { counter: AINO, materialCodes: [code(1)] },
        { counter: MIKKO, rest: true },
      ],
    } as never);
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await setStatus('mechanic', id, 'done')).statusCode).toBe(200);
    const more = await split(id, {
      parts: [
        { counter: MECHANIC, materialCodes: [code(0), code(2)] },
        { counter: AINO, materialCodes: [code(1)] },
        { counter: MIKKO, rest: true },
      ],
    } as never);
    expect(more.statusCode).toBe(200);
    const mine = await partOf('mechanic', id);
    expect(mine.part).toMatchObject({ status: 'open', total_lines: 2, counted_lines: 1 });
    expect((await partOf(AINO, id)).lines.map((line) => line.material_code)).toEqual([code(1)]);
    // Aino was told about her part; the mechanic again about the line taken (A-02) and the line added.
    const told = rowsOf(await product.database.db.execute(sql`select user_email from notifications where link = ${`/mechanic-view/${id}`} and text_key = 'stockCountPartAssigned' and channel = 'email'`));
    expect(told.filter((row) => row.user_email === AINO)).toHaveLength(1);
    expect(told.filter((row) => row.user_email === MECHANIC)).toHaveLength(3);

    const other = rowsOf(await product.database.db.execute(sql`select code from materials where code not in (select material_code from material_counts where stock_count_id = ${id}) order by code limit 1`));
    const added = await api(AINO, 'POST', '/my_material_count', { stockCountId: id, materialCode: String(other[0]!.code) });
    expect(added.statusCode, added.body).toBe(201);
    expect((await partOf(AINO, id)).lines.map((line) => line.material_code)).toContain(String(other[0]!.code));
    // Her add again (its answer lost) is answered with her line; another counter's add of it stays refused.
    const resent = await api(AINO, 'POST', '/my_material_count', { stockCountId: id, materialCode: String(other[0]!.code) });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ id: added.json().id, material_code: String(other[0]!.code) });
    const notHis = await api(MIKKO, 'POST', '/my_material_count', { stockCountId: id, materialCode: String(other[0]!.code) });
    expect(notHis.statusCode, notHis.body).toBe(409);
    expect(notHis.json().message).toBe(`Material ${String(other[0]!.code)} is already in stock count ${id}`);
    expect(notHis.json()).toMatchObject({ code: 'materialAlreadyOnCount', params: { code: String(other[0]!.code), id } });
    // Counted in her part since, the line is not answered again: a part's quantity is written
    // without a version, so a device's waiting count would overwrite hers.
    expect((await count(AINO, id, [[String(other[0]!.code), 2]])).statusCode).toBe(200);
    expect((await api(AINO, 'POST', '/my_material_count', { stockCountId: id, materialCode: String(other[0]!.code) })).statusCode).toBe(409);
    // A line the planner adds after the split is in no part yet: its counters are told it is on the count.
    const later = rowsOf(await product.database.db.execute(sql`select code from materials where code not in (select material_code from material_counts where stock_count_id = ${id}) order by code limit 1`));
    const laterCode = String(later[0]!.code);
    expect((await api('supervisor', 'POST', '/my_material_count', { stockCountId: id, materialCode: laterCode })).statusCode).toBe(201);
    expect((await partOf('mechanic', id)).elsewhere).toContainEqual({ material_code: laterCode, part_id: null });
    expect((await partOf('mechanic', id)).elsewhere.map((line) => line.material_code)).not.toContain(code(0));
  });

  it('refuses a split saved over one changed since the planner read it (expectedPartIds), and keeps the split that stands', async () => {
    const { id } = await createCount();
    // Two planners open "Share among counters" on the same count, not split yet.
    const first = await split(id, { ...standardSplit(), expectedPartIds: [] } as never);
    expect(first.statusCode, first.body).toBe(200);
    const stands = (first.json() as { parts: PartRow[] }).parts;
    const second = await api('stock.admin', 'PUT', '/my_stock_count/parts', { stockCountId: id, parts: [{ counter: AINO, rest: true }], expectedPartIds: [] });
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json()).toMatchObject({ code: 'splitChangedMeanwhile', params: { id } });
    expect(second.json().message).toContain('changed by someone else');
    // Nothing moved: the first planner's parts stand, and Aino has none.
    const progress = (await api('supervisor', 'GET', `/my_stock_count/parts?stockCountId=${id}`)).json() as { parts: PartRow[] };
    expect(progress.parts.map((part) => [part.id, part.counter, part.total_lines])).toEqual(stands.map((part) => [part.id, part.counter, part.total_lines]));
    // Ids of a split that is no longer (a part removed since) are refused too; the ids as they are go through.
    const shown = stands.map((part) => part.id);
    const mikkoOnly = await split(id, { parts: [{ counter: MIKKO, rest: true }], expectedPartIds: shown } as never);
    expect(mikkoOnly.statusCode, mikkoOnly.body).toBe(200);
    const stale = await split(id, { ...standardSplit(), expectedPartIds: shown } as never);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('splitChangedMeanwhile');
    const now = (mikkoOnly.json() as { parts: PartRow[] }).parts.map((part) => part.id);
    expect((await split(id, { ...standardSplit(), expectedPartIds: now } as never)).statusCode).toBe(200);
    // Clients that do not send it are not checked.
    expect((await split(id, standardSplit())).statusCode).toBe(200);
  });

  it('refuses a split saved over uncounted lines moved meanwhile between the same counters (expectedSplitRevision); counting does not count as a change', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    const revisionNow = async () => {
      const res = await api('supervisor', 'GET', `/my_stock_count/parts?stockCountId=${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { parts: PartRow[]; split_revision: string };
    };
    const read = await revisionNow();
    expect(read.split_revision).toMatch(/^[0-9a-f]{32}$/);
    // A part read names the same revision (the split editor reads each part's lines).
    const mine = await partOf('mechanic', id);
    expect((mine as unknown as { split_revision: string }).split_revision).toBe(read.split_revision);
    // The mechanic counts a line: the split is the same.
    const first = mine.lines.find((line) => line.material_code !== code(4))!;
    const counted = await api('mechanic', 'PUT', '/my_stock_count/part/quantities', { stockCountId: id, quantities: [{ materialCountId: first.material_count_id, quantity: 2 }] });
    expect(counted.statusCode, counted.body).toBe(200);
    expect((await revisionNow()).split_revision).toBe(read.split_revision);

    // Two planners opened the editor on that revision. The first moves an uncounted line to Mikko.
    const moved = mine.lines.find((line) => line.material_code !== code(4) && line.material_count_id !== first.material_count_id)!;
    const keep = mine.lines.filter((line) => line.material_count_id !== moved.material_count_id).map((line) => line.material_code);
    const ids = read.parts.map((part) => part.id);
    const byFirst = await split(id, {
      parts: [
        { counter: MECHANIC, label: 'Bins A', materialCodes: keep },
        { counter: MIKKO, materialCodes: [code(4), moved.material_code], rest: true },
      ],
      controlMaterialCodes: [code(4)],
      expectedPartIds: ids,
      expectedSplitRevision: read.split_revision,
    } as never);
    expect(byFirst.statusCode, byFirst.body).toBe(200);
    const after = (byFirst.json() as { split_revision: string }).split_revision;
    expect(after).not.toBe(read.split_revision);
    // The second saves the split as they read it: the same parts, so only the revision tells; refused, nothing moved back.
    const bySecond = await api('stock.admin', 'PUT', '/my_stock_count/parts', { stockCountId: id, ...standardSplit(), expectedPartIds: ids, expectedSplitRevision: read.split_revision });
    expect(bySecond.statusCode, bySecond.body).toBe(409);
    expect(bySecond.json()).toMatchObject({ code: 'splitChangedMeanwhile', params: { id } });
    expect((await partOf(MIKKO, id)).lines.map((line) => line.material_code)).toContain(moved.material_code);
    expect((await revisionNow()).split_revision).toBe(after);
    // Read again, the same save goes through.
    const again = await api('stock.admin', 'PUT', '/my_stock_count/parts', { stockCountId: id, ...standardSplit(), expectedPartIds: ids, expectedSplitRevision: after });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('tells a counter whose uncounted lines are taken away, and words the refusal of a quantity for such a line', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    const toldMechanic = async () =>
      rowsOf(
        await product.database.db.execute(
          sql`select text_params->>'lines' as lines from notifications where link = ${`/mechanic-view/${id}`} and user_email = ${MECHANIC} and text_key = 'stockCountPartAssigned' and channel = 'email' order by id`,
        ),
      ).map((row) => Number(row.lines));
    expect(await toldMechanic()).toEqual([3]);
    // The mechanic's A-02 line goes to Mikko; the mechanic gets nothing new.
    const moved = await split(id, {
      parts: [
        { counter: MECHANIC, materialCodes: [code(0), code(4)] },
        { counter: MIKKO, materialCodes: [code(4)], rest: true },
      ],
      controlMaterialCodes: [code(4)],
    } as never);
    expect(moved.statusCode, moved.body).toBe(200);
    // The mechanic is told again, with the lines their part has now: their phone reads it again.
    expect(await toldMechanic()).toEqual([3, 2]);
    // A quantity their phone counted offline for the line taken away is refused with a code the phone words.
    const refused = await count('mechanic', id, [[code(1), 2]]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'lineLeftYourPart', params: { code: code(1), count: 1, id } });
    expect(refused.json().message).toContain(`${code(1)} is not in your part of stock count ${id}`);
    // All or none: a line of theirs sent with it is not written either.
    const mixed = await count('mechanic', id, [[code(0), 1], [code(1), 2]]);
    expect(mixed.statusCode).toBe(403);
    expect((await partOf('mechanic', id)).lines.find((line) => line.material_code === code(0))!.quantity).toBeNull();
  });

  it('refuses to delete a line a counter has counted in a part, and deletes one nobody counted (decision 0033)', async () => {
    const { id } = await createCount();
    expect((await split(id)).statusCode).toBe(200);
    expect((await count('mechanic', id, [[code(0), 4]])).statusCode).toBe(200);
    const counted = await lineId(id, code(0));
    const refused = await api('supervisor', 'DELETE', `/my_material_count?materialCountId=${counted}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(`Line ${code(0)} is already counted in a part (by ${MECHANIC}) and cannot be deleted: send it to recount first`);
    expect(refused.json()).toMatchObject({ code: 'lineCountedInPart', params: { code: code(0), by: MECHANIC } });
    expect((await partOf('mechanic', id)).lines.find((line) => line.material_code === code(0))).toMatchObject({ quantity: 4 });
    const uncounted = await lineId(id, code(1));
    const removed = await api('supervisor', 'DELETE', `/my_material_count?materialCountId=${uncounted}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await merged(id)).map((line) => line.material_code)).not.toContain(code(1));
  });

  it('keeps what was counted before the split: each counted line goes into the part that takes it, and merge and submit work on it', async () => {
    const { id } = await createCount({ conductedBy: MECHANIC });
    const lines = (await api('mechanic', 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500`)).json().material_counts as Array<{ id: number; material_code: string }>;
    const lineOf = (material: string) => lines.find((line) => line.material_code === material)!.id;
    // Counted the single-counter way (PUT /my_material_count) before the planner splits the count.
    const counted = await api('mechanic', 'PUT', '/my_material_count', {
      modifiedMaterials: [
        { id: lineOf(code(0)), quantity: 4 },
        { id: lineOf(code(4)), quantity: 7 },
        { id: lineOf(code(5)), quantity: 2 },
      ],
    });
    expect(counted.statusCode, counted.body).toBe(200);
    // The mechanic: bins A (codes 0, 1) and code 4 as a control count; Mikko: code 4 and the rest (2, 3, 5).
    expect((await split(id)).statusCode).toBe(200);
    // Nothing counted is lost: the count's lines keep their quantities (they were cleared before).
    const quantities = async () =>
      (await merged(id))
        .filter((line) => line.quantity !== null)
        .map((line) => [line.material_code, line.quantity])
        .sort();
    expect(await quantities()).toEqual([[code(0), 4], [code(4), 7], [code(5), 2]].sort());
    const line = (part: { lines: PartLine[] }, material: string) => part.lines.find((row) => row.material_code === material)!;
    const mine = await partOf('mechanic', id);
    const mikkos = await partOf(MIKKO, id);
    expect(line(mine, code(0))).toMatchObject({ quantity: 4, counted_by: MECHANIC });
    // A control line keeps its count in the part of whoever counted it; the other counter counts it again.
    expect(line(mine, code(4))).toMatchObject({ quantity: 7, counted_by: MECHANIC });
    expect(line(mikkos, code(4)).quantity).toBeNull();
    // A line the mechanic counted goes with its quantity (and who counted it) to the part that takes it.
    expect(line(mikkos, code(5))).toMatchObject({ quantity: 2, counted_by: MECHANIC });
    expect([mine.part.counted_lines, mikkos.part.counted_lines]).toEqual([2, 1]);
    // Recorded with the split, and from now on as any counted part line: it cannot leave its part.
    const audit = rowsOf(await product.database.db.execute(sql`select after from audit_log where action = 'stock_count.split' and target_id = ${String(id)}`));
    expect((audit[0]!.after as { carried: unknown[] }).carried).toHaveLength(3);
    const moveCounted = await split(id, { parts: [{ counter: MECHANIC, rest: true }, { counter: MIKKO, materialCodes: [code(2)] }] } as never);
    expect(moveCounted.statusCode).toBe(409);
    expect(moveCounted.json()).toMatchObject({ code: 'splitCountedLinesStay' });

    // The merge and the submit go on as for any split count.
    expect((await count('mechanic', id, [[code(1), 1]])).statusCode).toBe(200);
    expect((await count(MIKKO, id, [[code(2), 3], [code(3), 3], [code(4), 7]])).statusCode).toBe(200);
    expect((await setStatus('mechanic', id, 'done')).statusCode).toBe(200);
    expect((await setStatus(MIKKO, id, 'done')).statusCode).toBe(200);
    const submitted = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${id}`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().status).toBe('completed');
    expect(await quantities()).toEqual([[code(0), 4], [code(1), 1], [code(2), 3], [code(3), 3], [code(4), 7], [code(5), 2]].sort());
  });

  it('leaves the single-counter count as it was', async () => {
    const { id, part_count } = await createCount({ conductedBy: MECHANIC });
    expect(part_count).toBe(0);
    const lines = (await api('mechanic', 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500`)).json().material_counts as Array<{ id: number; book_quantity: number | null }>;
    expect(lines).toHaveLength(6);
    expect(lines.some((line) => line.book_quantity !== null)).toBe(true);
    const put = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: lines.map((line) => ({ id: line.id, quantity: 1 })) });
    expect(put.statusCode, put.body).toBe(200);
    expect((await api('mechanic', 'GET', `/my_stock_count/parts?stockCountId=${id}`)).json()).toMatchObject({ parts: [], lines_in_no_part: 0, variance_lines: 0 });
    expect((await api('mechanic', 'GET', `/my_stock_count/part?stockCountId=${id}`)).statusCode).toBe(404);
    expect((await api('mechanic', 'PUT', '/my_stock_count/part/quantities', { stockCountId: id, quantities: [{ materialCountId: lines[0]!.id, quantity: 2 }] })).statusCode).toBe(403);
    expect((await api('supervisor', 'POST', '/my_stock_count/merge/resolve', { stockCountId: id, materialCountId: lines[0]!.id, action: 'recount' })).statusCode).toBe(409);
    const submitted = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${id}`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().status).toBe('completed');
  });

  it('gives each counter of a part a task on the front-liner dashboard, once even when they also conduct the count', async () => {
    const report = async () =>
      (await api('supervisor', 'GET', `/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2099-12-31&planner_group=F10&conducted_by=${AINO}`)).json() as {
        rows: Array<{ conducted_by: string; total_tasks: number; completed_count: number }>;
      };
    const tasks = async () => (await report()).rows.find((row) => row.conducted_by === AINO)?.total_tasks ?? 0;
    const before = await tasks();
    await createCount({ parts: [{ counter: AINO, rest: true }] });
    expect(await tasks()).toBe(before + 1);
    await createCount({ conductedBy: AINO, parts: [{ counter: AINO, materialCodes: [code(0)] }, { counter: MIKKO, rest: true }] });
    expect(await tasks()).toBe(before + 2);
    // A draft is nobody's task yet.
    await createCount({ draft: true, parts: [{ counter: AINO, rest: true }] });
    expect(await tasks()).toBe(before + 2);
    // Aino's part of the second count done: her task is completed there, once, though the count is not.
    const completed = async () => (await report()).rows.find((row) => row.conducted_by === AINO)?.completed_count ?? 0;
    const done = await completed();
    const { id } = await createCount({ conductedBy: AINO, parts: [{ counter: AINO, materialCodes: [code(1)] }, { counter: MIKKO, rest: true }] });
    const mine = await partOf(AINO, id);
    const counted = await api(AINO, 'PUT', '/my_stock_count/part/quantities', { stockCountId: id, quantities: mine.lines.map((line) => ({ materialCountId: line.material_count_id, quantity: 1 })) });
    expect(counted.statusCode, counted.body).toBe(200);
    expect((await api(AINO, 'PUT', '/my_stock_count/part/status', { stockCountId: id, status: 'done' })).statusCode).toBe(200);
    expect(await tasks()).toBe(before + 3);
    expect(await completed()).toBe(done + 1);
  });

  it('prints a split count only by parts: the person it was handed to before the split, holding no part, prints nothing', async () => {
    const { id } = await createCount({ conductedBy: MECHANIC });
    expect((await split(id, { parts: [{ counter: MIKKO, rest: true }] } as never)).statusCode).toBe(200);
    const listed = await api('mechanic', 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500`);
    expect(listed.statusCode).toBe(403);
    const printed = await api('mechanic', 'GET', `/relationship/print_materials?stockCountId=${id}`);
    expect(printed.statusCode).toBe(403);
    expect(printed.json().message).toBe(`Stock count ${id} is split among counters and you have no part in it`);
    expect(printed.json()).toMatchObject({ code: 'splitNoPartForYou', params: { id } });
    expect((await api(MIKKO, 'GET', `/relationship/print_materials?stockCountId=${id}`)).json().lines).toHaveLength(6);
    expect((await api('supervisor', 'GET', `/relationship/print_materials?stockCountId=${id}`)).json().lines).toHaveLength(6);
  });

  it('keeps the recount of a blind count blind, and tells its counter about it', async () => {
    const { id } = await createCount({ blind: true, conductedBy: MECHANIC });
    const books = await merged(id);
    const counted = await api('mechanic', 'PUT', '/my_material_count', {
      modifiedMaterials: books.map((line, i) => ({ id: line.id, quantity: i < 2 ? Number(line.book_quantity ?? 0) + 1 : Number(line.book_quantity ?? 0) })),
    });
    expect(counted.statusCode, counted.body).toBe(200);
    const submitted = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${id}`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const recount = await api('supervisor', 'POST', '/my_stock_count/recount', { stockCountId: id });
    expect(recount.statusCode, recount.body).toBe(201);
    const again = recount.json() as { id: number; is_blind: boolean; total_lines: number };
    expect(again).toMatchObject({ is_blind: true, total_lines: 2 });
    const lines = (await api('mechanic', 'GET', `/my_material_count?stockCountId=${again.id}&page=1&maxResults=500`)).json().material_counts as Array<{ book_quantity: number | null }>;
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.book_quantity === null)).toBe(true);
    const printed = (await api('mechanic', 'GET', `/relationship/print_materials?stockCountId=${again.id}`)).json();
    expect(printed.lines.every((line: { book_quantity: number | null }) => line.book_quantity === null)).toBe(true);
    expect((await merged(again.id)).every((line) => line.book_quantity !== null)).toBe(true);
    const told = rowsOf(await product.database.db.execute(sql`select distinct user_email from notifications where link = ${`/mechanic-view/${again.id}`}`));
    expect(told.map((row) => row.user_email)).toEqual([MECHANIC]);
  });

  it('says what is wrong with a malformed request', async () => {
    const noParts = await api('supervisor', 'PUT', '/my_stock_count/parts', { stockCountId: 1, parts: [] });
    expect(noParts.statusCode).toBe(400);
    expect(noParts.json().message).toContain('at least one part');
    const nothing = await api('supervisor', 'PUT', '/my_stock_count/parts', { stockCountId: 1, parts: [{ counter: MECHANIC }] });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toContain('bins, materialCodes or rest');
    const action = await api('supervisor', 'POST', '/my_stock_count/merge/resolve', { stockCountId: 1, materialCountId: 1, action: 'overwrite' });
    expect(action.statusCode).toBe(400);
    expect(action.json().message).toContain('take');
    const quantity = await api('mechanic', 'PUT', '/my_stock_count/part/quantities', { stockCountId: 1, quantities: [{ materialCountId: 1, quantity: -1 }] });
    expect(quantity.statusCode).toBe(400);
    const doc = (await product.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, unknown> };
    for (const path of ['/api/v2/my_stock_count/parts', '/api/v2/my_stock_count/part', '/api/v2/my_stock_count/part/quantities', '/api/v2/my_stock_count/part/status', '/api/v2/my_stock_count/merge', '/api/v2/my_stock_count/merge/resolve']) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    const paths = doc.paths as Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ name: string }> }>>;
    expect(paths['/api/v2/my_stock_count/parts']!.put!.requestBody).toBeDefined();
    expect(paths['/api/v2/my_stock_count/merge/resolve']!.post!.requestBody).toBeDefined();
    expect(paths['/api/v2/my_stock_count/submit']!.get!.parameters!.map((p) => p.name)).toContain('confirmOpenParts');
  });
});
