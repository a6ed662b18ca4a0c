/**
 * Decision 0053: a stock count is booked in the ERP system once, whatever fails around the call.
 * The submission is committed as `submitted` under an ERP reference before the ERP is asked; the
 * outcome is written after. A connector that books a reference once (as a company's must) is
 * played here by a fake that can lose its answer after booking, or refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../server/db/client';
import { stockCounts } from '../../server/db/schema';
import type { ErpAdapter, PhysicalInventoryRequest } from '../../server/erp/adapter';
import { finishSubmittedCounts, SUBMITTED_SWEEP_MINUTES } from '../../server/periodic';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

/** What the fake ERP does with one call: book (or answer the booking of) the reference, refuse, or book and lose the answer. */
interface Step {
  outcome: 'book' | 'refuse' | 'lose';
  /** Called when the call arrives; the answer waits for `until`. */
  arrived?: () => void;
  until?: () => Promise<void>;
}

/** An ERP connector that books each reference once; each call takes the next planned step (booking by default). */
function connector() {
  const booked = new Map<string, string>();
  const calls: PhysicalInventoryRequest[] = [];
  const plan: Step[] = [];
  const adapter: ErpAdapter = {
    async postPhysicalInventory(request) {
      calls.push(request);
      const step = plan.shift() ?? { outcome: 'book' };
      step.arrived?.();
      await step.until?.();
      if (step.outcome === 'refuse') return { ok: false, error: { type: 'E', code: 'M7/021', message: 'Blocked by a running posting' } };
      let document = booked.get(request.reference);
      if (!document) {
        document = `49${String(booked.size + 1).padStart(8, '0')}`;
        booked.set(request.reference, document);
      }
      if (step.outcome === 'lose') throw new Error('ERP gateway timeout');
      return { ok: true, documentNumber: document };
    },
  };
  return { adapter, booked, calls, plan };
}

describe.each(ENGINES)('booking a submitted count in the ERP on %s', (engine) => {
  let product: TestProduct;
  const erp = connector();
  const tokens: Record<string, string> = {};
  /** Counts of the demo mechanic still open, fully counted here before each test uses one. */
  let open: number[] = [];

  const api = (who: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>, key?: string) =>
    product.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: { ...bearer(tokens[who]!), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });
  const submit = (id: number, key?: string, who = 'mechanic') => api(who, 'GET', `/my_stock_count/submit?stockCountId=${id}`, undefined, key);
  const stored = async (id: number) => (await product.database.db.select().from(stockCounts).where(eq(stockCounts.id, id)))[0]!;

  /** Every line counted, on the current book quantity (nothing stands in the way of submitting). */
  async function countAll(id: number, who = 'mechanic') {
    const lines = (await api(who, 'GET', `/my_material_count?stockCountId=${id}&maxResults=500&page=1`)).json().material_counts as Array<{
      id: number;
      version: number;
      book_quantity_now: number | null;
    }>;
    const res = await api(who, 'PUT', '/my_material_count', {
      modifiedMaterials: lines.map((line) => ({ id: line.id, quantity: 3, version: line.version, acceptBookQuantity: line.book_quantity_now })),
    });
    expect(res.statusCode).toBe(200);
    return lines;
  }

  /** Materials of FI01/V001 with a known book quantity, for counts made here (the seed's open ones are few). */
  let materialCodes: string[] = [];
  /** A new count of the mechanic, planned by the supervisor, fully counted. */
  async function newCount() {
    const res = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes, conductedBy: 'mechanic@example.com' });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { id: number }).id;
    return { id, lines: await countAll(id) };
  }
  /** A promise the fake ERP waits on (`held`), and one that says a call arrived (`arrived`). */
  function hold() {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const withErp = new Promise<void>((resolve) => (arrived = resolve));
    return { release, held, arrived, withErp };
  }
  const callsOf = (id: number) => erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference);

  beforeAll(async () => {
    product = await createTestProduct(engine, {}, erp.adapter);
    for (const who of ['mechanic', 'supervisor']) tokens[who] = await product.token(`${who}@example.com`);
    materialCodes = rowsOf<{ material_code: string }>(
      await product.database.db.execute(
        sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V001' and unrestricted_count is not null and quality_inspection_count is not null and blocked_count is not null and restricted_count is not null and transfer_count is not null order by material_code limit 3`,
      ),
    ).map((row) => row.material_code);
    expect(materialCodes).toHaveLength(3);
    // The mechanic's open counts, then the other open single-counter counts the supervisor plans.
    const openOf = async (who: string) =>
      ((await api(who, 'GET', '/my_stock_count?maxResults=500&page=1')).json().stock_counts as Array<{ id: number; status: string; part_count?: number; planned_by_you?: boolean }>)
        .filter((count) => (count.status === 'initiated' || count.status === 'in_progress') && !count.part_count)
        .map((count) => count.id);
    const mine = await openOf('mechanic');
    const planned = (await openOf('supervisor')).filter((id) => !mine.includes(id));
    open = [...mine.slice(0, 4), ...planned];
    expect(mine.length).toBeGreaterThanOrEqual(4);
    expect(planned.length).toBeGreaterThanOrEqual(2);
  });
  afterAll(async () => product?.close());

  it('an answer lost after the ERP booked: the count stays submitted (edits refused), the retry finishes it, booked once', async () => {
    const id = open[0]!;
    const [first] = await countAll(id);
    erp.plan.push({ outcome: 'lose' });
    const lost = await submit(id, 'submit-lost-0001');
    expect(lost.statusCode).toBe(503);
    expect(lost.headers['retry-after']).toBe('5');
    expect(lost.json().message).toContain(`Stock count ${id} stays submitted`);
    expect(await stored(id)).toMatchObject({ status: 'submitted', physicalInventoryDocumentNumber: null, erpReference: expect.any(String) });
    expect((await api('mechanic', 'GET', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`)).json().stock_counts[0]).toMatchObject({
      status: 'submitted',
      being_booked: true,
    });
    const frozen = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: first!.id, quantity: 4 }] });
    expect(frozen.statusCode).toBe(409);

    // The phone's outbox sends the same request again, under the same key.
    const again = await submit(id, 'submit-lost-0001');
    expect(again.statusCode).toBe(200);
    const reference = (await stored(id)).erpReference!;
    expect(again.json()).toMatchObject({ id, status: 'completed', physical_inventory_document_number: erp.booked.get(reference) });
    expect(erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference)).toEqual([reference, reference]);
    expect([...erp.booked.keys()].filter((ref) => ref === reference)).toHaveLength(1);
    // Answered once more from the stored answer: the ERP is not asked a third time.
    const replay = await submit(id, 'submit-lost-0001');
    expect(replay.body).toBe(again.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(erp.calls.filter((call) => call.stockCountId === id)).toHaveLength(2);
  });

  it('a submission left unfinished is finished by the next one, by anyone allowed, under the same reference', async () => {
    const id = open[1]!;
    await countAll(id);
    erp.plan.push({ outcome: 'lose' });
    expect((await submit(id, 'submit-gone-0001')).statusCode).toBe(503);
    const reference = (await stored(id)).erpReference;
    // The phone was lost; the supervisor submits it (another user, another key).
    const finished = await submit(id, 'submit-other-0001', 'supervisor');
    expect(finished.statusCode).toBe(200);
    expect(finished.json()).toMatchObject({ status: 'completed', physical_inventory_document_number: erp.booked.get(reference!) });
    expect(new Set(erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference))).toEqual(new Set([reference]));
    // The lost phone's own resend, under its key: the outcome was committed by the supervisor's
    // submission, the phone's answer was never stored. A 409 ("completed and can no longer be
    // changed") would mark its submission failed for good: it gets the count as booked, as a
    // successful submission does, and the ERP is not asked again.
    const resent = await submit(id, 'submit-gone-0001');
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ id, status: 'completed', physical_inventory_document_number: erp.booked.get(reference!) });
    // So is any later submission of the booked count, by anyone allowed, with no key: submitting
    // a booked count has nothing left to do (it was a 409 before).
    const later = await submit(id, undefined, 'supervisor');
    expect(later.statusCode).toBe(200);
    expect(later.json()).toMatchObject({ status: 'completed', physical_inventory_document_number: erp.booked.get(reference!) });
    expect(callsOf(id)).toHaveLength(2);
  });

  it('a refusal books nothing; the next submission asks again under the count’s one reference', async () => {
    const id = open[2]!;
    await countAll(id);
    erp.plan.push({ outcome: 'refuse' });
    const refused = await submit(id, 'submit-refused-01');
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'error', physical_inventory_document_number: null, being_booked: false });
    expect(JSON.parse(refused.json().latest_sap_error)).toMatchObject({ code: 'M7/021' });
    // The refusal's key sent again (its answer lost on the way) is answered the refusal as it was,
    // and nothing is asked of the ERP: the ERP would book now, but only a new submission may.
    const calls = erp.calls.length;
    const replayed = await submit(id, 'submit-refused-01');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toMatchObject({ status: 'error', physical_inventory_document_number: null });
    expect(erp.calls).toHaveLength(calls);
    expect(await stored(id)).toMatchObject({ status: 'error' });
    const resubmitted = await submit(id, 'submit-refused-02');
    expect(resubmitted.json()).toMatchObject({ status: 'completed', latest_sap_error: null });
    const references = erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference);
    expect(references).toHaveLength(2);
    expect(references[1]).toBe(references[0]);
  });

  it('a resend refused while the first try is with the ERP leaves the count submitted and frozen; the first try books it', async () => {
    const { id, lines } = await newCount();
    const first = hold();
    // The first call books, slowly; the phone's resend (same key, after 20 s) is refused by the
    // ERP meanwhile: "blocked by a running posting".
    erp.plan.push({ outcome: 'book', arrived: first.arrived, until: () => first.held }, { outcome: 'refuse' });
    const booking = submit(id, 'submit-held-0001');
    await first.withErp;
    const resend = await submit(id, 'submit-held-0001');
    expect(resend.statusCode).toBe(503);
    expect(resend.headers['retry-after']).toBe('5');
    expect(resend.json()).toMatchObject({ code: 'submitStillBooking', params: { id } });
    expect(resend.json().message).toContain(`Stock count ${id} is still being booked`);
    // Not `error`: the count stays submitted and frozen under the try that may still book it.
    expect(await stored(id)).toMatchObject({ status: 'submitted', latestSapError: null, erpTries: 1 });
    expect((await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: lines[0]!.id, quantity: 9 }] })).statusCode).toBe(409);
    expect((await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: id, status: 'cancelled' })).statusCode).toBe(409);

    first.release();
    const booked = await booking;
    expect(booked.statusCode).toBe(200);
    const reference = (await stored(id)).erpReference!;
    expect(booked.json()).toMatchObject({ status: 'completed', physical_inventory_document_number: erp.booked.get(reference) });
    expect(await stored(id)).toMatchObject({ status: 'completed', erpTries: 0, erpTryStartedAt: null });
    expect(callsOf(id)).toEqual([reference, reference]);
    // The resend, sent again after its 503, gets the answer stored under its key.
    const again = await submit(id, 'submit-held-0001');
    expect(again.body).toBe(booked.body);
  });

  it('both tries refused: the last to end writes the refusal, and the count can be submitted again', async () => {
    const { id } = await newCount();
    const first = hold();
    erp.plan.push({ outcome: 'refuse', arrived: first.arrived, until: () => first.held }, { outcome: 'refuse' });
    const slow = submit(id, 'submit-both-0001');
    await first.withErp;
    const other = await submit(id, 'submit-both-0002', 'supervisor');
    expect(other.statusCode).toBe(503);
    expect((await stored(id)).status).toBe('submitted');
    first.release();
    const refused = await slow;
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'error', being_booked: false });
    expect(await stored(id)).toMatchObject({ status: 'error', erpTries: 0 });
    const resubmitted = await submit(id, 'submit-both-0003');
    expect(resubmitted.json()).toMatchObject({ status: 'completed', latest_sap_error: null });
    expect(new Set(callsOf(id)).size).toBe(1);
  });

  it('a try past its expiry no longer holds a refusal back, and its booking still wins over the refusal', async () => {
    const { id } = await newCount();
    const first = hold();
    erp.plan.push({ outcome: 'book', arrived: first.arrived, until: () => first.held }, { outcome: 'refuse' });
    const slow = submit(id, 'submit-stale-0001', 'supervisor');
    await first.withErp;
    // As if the first try's server had stopped an hour ago: its mark no longer counts.
    await product.database.db.update(stockCounts).set({ erpTryStartedAt: sql`now() - interval '1 hour'` }).where(eq(stockCounts.id, id));
    const refused = await submit(id, 'submit-stale-0002', 'supervisor');
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'error' });
    first.release();
    expect((await slow).statusCode).toBe(200);
    const reference = (await stored(id)).erpReference!;
    expect(await stored(id)).toMatchObject({ status: 'completed', physicalInventoryDocumentNumber: erp.booked.get(reference), latestSapError: null, erpTries: 0 });
    expect(callsOf(id)).toEqual([reference, reference]);
  });

  it('a count left submitted by a server that stopped is asked again by the periodic sweep, once, under its reference', async () => {
    const log = product.app.log;
    const { id } = await newCount();
    const refusedLater = (await newCount()).id;
    for (const count of [id, refusedLater]) {
      erp.plan.push({ outcome: 'lose' });
      expect((await submit(count, `submit-sweep-${count}-1`)).statusCode).toBe(503);
    }
    // Submitted only now: not yet the sweep's.
    expect(await finishSubmittedCounts(product.database.db, erp.adapter, log)).toEqual([]);
    const backdate = (count: number) =>
      product.database.db
        .update(stockCounts)
        .set({ submittedAt: sql`now() - make_interval(mins => ${SUBMITTED_SWEEP_MINUTES + 5})` })
        .where(eq(stockCounts.id, count));
    await backdate(id);
    await backdate(refusedLater);
    // A try of the first still with the ERP (another replica's sweep, a phone's submission):
    // a second sweep meanwhile leaves the count alone.
    const first = hold();
    erp.plan.push({ outcome: 'book', arrived: first.arrived, until: () => first.held }, { outcome: 'refuse' });
    const sweeping = finishSubmittedCounts(product.database.db, erp.adapter, log, 1);
    await first.withErp;
    expect(await stored(id)).toMatchObject({ status: 'submitted', erpTries: 1 });
    const meanwhile = finishSubmittedCounts(product.database.db, erp.adapter, log);
    expect(await meanwhile).toEqual([{ stockCountId: refusedLater, outcome: 'written' }]);
    first.release();
    expect(await sweeping).toEqual([{ stockCountId: id, outcome: 'written' }]);

    const reference = (await stored(id)).erpReference!;
    expect(await stored(id)).toMatchObject({ status: 'completed', physicalInventoryDocumentNumber: erp.booked.get(reference), erpTries: 0 });
    expect(callsOf(id)).toEqual([reference, reference]);
    // The refusal is written as the submit route writes it: error, with the ERP's message.
    expect(await stored(refusedLater)).toMatchObject({ status: 'error', erpTries: 0 });
    expect(JSON.parse((await stored(refusedLater)).latestSapError!)).toMatchObject({ code: 'M7/021' });
    // Nothing left to ask: the ERP is not asked again.
    const calls = erp.calls.length;
    expect(await finishSubmittedCounts(product.database.db, erp.adapter, log)).toEqual([]);
    expect(erp.calls).toHaveLength(calls);
    // The phone's late resend gets the booked count.
    const resent = await submit(id, `submit-sweep-${id}-1`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'completed', physical_inventory_document_number: erp.booked.get(reference) });
  });

  it('the same key sent again while the first is with the ERP: one booking, both answered completed', async () => {
    const id = open[5]!;
    await countAll(id, 'supervisor');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const withErp = new Promise<void>((resolve) => (arrived = resolve));
    erp.plan.push({ outcome: 'book', arrived, until: () => held });
    const first = submit(id, 'submit-twice-0001', 'supervisor');
    await withErp;
    const second = await submit(id, 'submit-twice-0001', 'supervisor');
    release();
    const answer = await first;
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ status: 'completed' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(second.body);
    const reference = (await stored(id)).erpReference!;
    expect(new Set(erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference))).toEqual(new Set([reference]));
    expect(erp.booked.has(reference)).toBe(true);
  });

  it('a line with no book when counting began and a book now is flagged before submit: no book at the start is 0', async () => {
    const [fresh] = rowsOf<{ code: string }>(
      await product.database.db.execute(
        sql`select code from materials m where not exists (select 1 from stock_items s where s.plant = 'FI01' and s.storage_location = 'V001' and s.material_code = m.code) order by code limit 1`,
      ),
    );
    const created = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: [fresh!.code], conductedBy: 'mechanic@example.com' });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    const [line] = (await api('mechanic', 'GET', `/my_material_count?stockCountId=${id}&maxResults=20&page=1`)).json().material_counts as Array<{ id: number; version: number; book_quantity: number | null }>;
    expect(line!.book_quantity).toBeNull();
    expect((await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line!.id, quantity: 3 }] })).statusCode).toBe(200);
    // An ERP stock upload brings the material's first stock row: 10 on the books.
    await product.database.db.execute(
      sql`insert into stock_items (plant, storage_location, material_code, unrestricted_count, quality_inspection_count, blocked_count, restricted_count, transfer_count) values ('FI01', 'V001', ${fresh!.code}, 10, 0, 0, 0, 0)`,
    );
    // Booking the 3 counted would write off the 10 unseen: the counter chooses first.
    const refused = await submit(id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'submitBookMoved', params: { codes: fresh!.code, count: 1 } });
    const [moved] = (await api('mechanic', 'GET', `/my_material_count?stockCountId=${id}&maxResults=20&page=1`)).json().material_counts as Array<{ id: number; version: number; book_quantity_now: number }>;
    expect(moved!.book_quantity_now).toBe(10);
    const kept = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: moved!.id, quantity: 3, version: moved!.version, acceptBookQuantity: 10 }] });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await submit(id)).json()).toMatchObject({ status: 'completed' });
  });

  it('a HEAD of the submission books nothing (HEAD is a safe method)', async () => {
    const id = open[3]!;
    await countAll(id);
    const calls = erp.calls.length;
    const head = await product.app.inject({ method: 'HEAD', url: `/api/v2/my_stock_count/submit?stockCountId=${id}`, headers: bearer(tokens.mechanic!) });
    expect(head.statusCode).toBe(404);
    expect(erp.calls).toHaveLength(calls);
    expect((await stored(id)).status).not.toMatch(/submitted|completed/);
  });

  it('a malformed Idempotency-Key is refused before anything is booked', async () => {
    const id = open[3]!;
    await countAll(id);
    const calls = erp.calls.length;
    const bad = await submit(id, 'bad key!');
    expect(bad.statusCode).toBe(400);
    expect(erp.calls).toHaveLength(calls);
    expect((await stored(id)).status).not.toBe('submitted');
  });

  it('two submissions at the same moment book the count once and answer the same document', async () => {
    const id = open[3]!;
    await countAll(id);
    // Both tries pass the check while the count waits for its booking: whichever reaches the ERP
    // first is held there until the other has arrived too (without the hold, a loaded machine
    // may finish the first before the second starts, and the second rightly meets a completed count).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstArrived!: () => void;
    let secondArrived!: () => void;
    const bothArrived = Promise.all([new Promise<void>((resolve) => (firstArrived = resolve)), new Promise<void>((resolve) => (secondArrived = resolve))]);
    erp.plan.push({ outcome: 'book', arrived: firstArrived, until: () => held }, { outcome: 'book', arrived: secondArrived });
    const tries = [submit(id, 'submit-race-0001'), submit(id, 'submit-race-0002', 'supervisor')] as const;
    await Promise.race([bothArrived, ...tries]); // a try answered without the ERP: released, and the assertion says how
    release();
    const [a, b] = await Promise.all(tries);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().physical_inventory_document_number).toBe(b.json().physical_inventory_document_number);
    expect(new Set(erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference)).size).toBe(1);
  });
});
