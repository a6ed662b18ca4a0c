/**
 * Decision 0053: a stock count is booked in the ERP system once, whatever fails around the call.
 * The submission is committed as `submitted` under an ERP reference before the ERP is asked; the
 * outcome is written after. A connector that books a reference once (as a company's must) is
 * played here by a fake that can lose its answer after booking, or refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { stockCounts } from '../../server/db/schema';
import type { ErpAdapter, PhysicalInventoryRequest } from '../../server/erp/adapter';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

/** An ERP connector that books each reference once; its next answer can be lost (after booking) or a refusal. */
function connector() {
  const booked = new Map<string, string>();
  const calls: PhysicalInventoryRequest[] = [];
  const next = { loseAnswer: false, refuse: false };
  const adapter: ErpAdapter = {
    async postPhysicalInventory(request) {
      calls.push(request);
      if (next.refuse) {
        next.refuse = false;
        return { ok: false, error: { type: 'E', code: 'M7/021', message: 'Blocked by a running posting' } };
      }
      let document = booked.get(request.reference);
      if (!document) {
        document = `49${String(booked.size + 1).padStart(8, '0')}`;
        booked.set(request.reference, document);
      }
      if (next.loseAnswer) {
        next.loseAnswer = false;
        throw new Error('ERP gateway timeout');
      }
      return { ok: true, documentNumber: document };
    },
  };
  return { adapter, booked, calls, next };
}

describe.each(ENGINES)('booking a submitted count in the ERP on %s', (engine) => {
  let product: TestProduct;
  const erp = connector();
  const tokens: Record<string, string> = {};
  /** Counts of the demo mechanic still open, fully counted here before each test uses one. */
  let open: number[] = [];

  const api = (who: string, method: 'GET' | 'PUT', url: string, payload?: Record<string, unknown>, key?: string) =>
    product.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: { ...bearer(tokens[who]!), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });
  const submit = (id: number, key?: string, who = 'mechanic') => api(who, 'GET', `/my_stock_count/submit?stockCountId=${id}`, undefined, key);
  const stored = async (id: number) => (await product.database.db.select().from(stockCounts).where(eq(stockCounts.id, id)))[0]!;

  /** Every line counted, on the current book quantity (nothing stands in the way of submitting). */
  async function countAll(id: number) {
    const lines = (await api('mechanic', 'GET', `/my_material_count?stockCountId=${id}&maxResults=500&page=1`)).json().material_counts as Array<{
      id: number;
      version: number;
      book_quantity_now: number | null;
    }>;
    const res = await api('mechanic', 'PUT', '/my_material_count', {
      modifiedMaterials: lines.map((line) => ({ id: line.id, quantity: 3, version: line.version, acceptBookQuantity: line.book_quantity_now })),
    });
    expect(res.statusCode).toBe(200);
    return lines;
  }

  beforeAll(async () => {
    product = await createTestProduct(engine, {}, erp.adapter);
    for (const who of ['mechanic', 'supervisor']) tokens[who] = await product.token(`${who}@example.com`);
    const counts = (await api('mechanic', 'GET', '/my_stock_count?maxResults=500&page=1')).json().stock_counts as Array<{ id: number; status: string }>;
    open = counts.filter((count) => count.status === 'initiated' || count.status === 'in_progress').map((count) => count.id);
    expect(open.length).toBeGreaterThanOrEqual(4);
  });
  afterAll(async () => product?.close());

  it('an answer lost after the ERP booked: the count stays submitted (edits refused), the retry finishes it, booked once', async () => {
    const id = open[0]!;
    const [first] = await countAll(id);
    erp.next.loseAnswer = true;
    const lost = await submit(id, 'submit-lost-0001');
    expect(lost.statusCode).toBe(503);
    expect(lost.headers['retry-after']).toBe('5');
    expect(lost.json().message).toContain(`Stock count ${id} stays submitted`);
    expect(await stored(id)).toMatchObject({ status: 'submitted', physicalInventoryDocumentNumber: null, erpReference: expect.any(String) });
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
    erp.next.loseAnswer = true;
    expect((await submit(id, 'submit-gone-0001')).statusCode).toBe(503);
    const reference = (await stored(id)).erpReference;
    // The phone was lost; the supervisor submits it (another user, another key).
    const finished = await submit(id, 'submit-other-0001', 'supervisor');
    expect(finished.statusCode).toBe(200);
    expect(finished.json()).toMatchObject({ status: 'completed', physical_inventory_document_number: erp.booked.get(reference!) });
    expect(new Set(erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference))).toEqual(new Set([reference]));
    expect((await submit(id)).statusCode).toBe(409); // completed: nothing more to submit
  });

  it('a refusal books nothing and ends the submission: the next one goes under a new reference', async () => {
    const id = open[2]!;
    await countAll(id);
    erp.next.refuse = true;
    const refused = await submit(id, 'submit-refused-01');
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'error', physical_inventory_document_number: null });
    expect(JSON.parse(refused.json().latest_sap_error)).toMatchObject({ code: 'M7/021' });
    expect((await stored(id)).erpReference).toBeNull();
    const resubmitted = await submit(id, 'submit-refused-02');
    expect(resubmitted.json()).toMatchObject({ status: 'completed', latest_sap_error: null });
    const references = erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference);
    expect(references).toHaveLength(2);
    expect(references[0]).not.toBe(references[1]);
  });

  it('two submissions at the same moment book the count once and answer the same document', async () => {
    const id = open[3]!;
    await countAll(id);
    const [a, b] = await Promise.all([submit(id, 'submit-race-0001'), submit(id, 'submit-race-0002', 'supervisor')]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().physical_inventory_document_number).toBe(b.json().physical_inventory_document_number);
    expect(new Set(erp.calls.filter((call) => call.stockCountId === id).map((call) => call.reference)).size).toBe(1);
  });
});
