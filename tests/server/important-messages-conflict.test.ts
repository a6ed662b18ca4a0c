/**
 * Two super managers editing the broadcast messages at once (decision 0063 made their saves take
 * turns; the second one still undid the first unseen). A save naming the list it started from
 * (`expected`) is refused with 409 importantMessagesChangedMeanwhile when another list was stored
 * since, and nothing changes; a save without `expected` replaces the list as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { auditLog } from '../../server/db/schema';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

describe.each(ENGINES)('important messages changed meanwhile on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['mechanic', 'manager']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => product?.close());

  const put = (payload: unknown, key?: string) =>
    product.app.inject({
      method: 'PUT',
      url: '/parts/v1/users/important-message',
      headers: { ...bearer(tokens.manager!), ...(key ? { 'idempotency-key': key } : {}) },
      payload: payload as Record<string, unknown>,
    });
  const stored = async (): Promise<string[]> =>
    (await product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers: bearer(tokens.mechanic!) })).json().importantMessages;
  const auditCount = async () =>
    (await product.database.db.select({ id: auditLog.id }).from(auditLog).where(and(eq(auditLog.targetType, 'important_messages'), eq(auditLog.targetId, 'all')))).length;

  it('saves when the stored list is the one the edit started from', async () => {
    const start = await stored();
    const saved = await put({ important_messages: ['Depot closed Friday'], expected: start });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ important_messages: ['Depot closed Friday'] });
    expect(await stored()).toEqual(['Depot closed Friday']);
    // The next edit starts from what was saved; surrounding spaces and empty lines are no difference.
    const next = await put({ important_messages: ['Depot closed Friday', 'Lift 4 out of order'], expected: ['  Depot closed Friday ', ''] });
    expect(next.statusCode).toBe(200);
    expect(await stored()).toEqual(['Depot closed Friday', 'Lift 4 out of order']);
  });

  it('refuses with 409 and a code when another list was stored since, and changes nothing', async () => {
    // Both editors open the screen on the same list; the first sends, then the second.
    const opened = await stored();
    expect((await put({ important_messages: ['First editor'], expected: opened })).statusCode).toBe(200);
    const auditsBefore = await auditCount();
    const second = await put({ important_messages: ['Second editor'], expected: opened }, 'second-editor-1');
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'importantMessagesChangedMeanwhile' });
    expect(second.json().message).toMatch(/changed the important messages/);
    expect(await stored()).toEqual(['First editor']);
    expect(await auditCount()).toBe(auditsBefore);
    // The refusal did not use up its Idempotency-Key: the merged list goes through with it.
    const merged = await put({ important_messages: ['First editor', 'Second editor'], expected: ['First editor'] }, 'second-editor-1');
    expect(merged.statusCode).toBe(200);
    expect(await stored()).toEqual(['First editor', 'Second editor']);
  });

  it('compares order and an emptied list too', async () => {
    expect((await put({ important_messages: ['A', 'B'] })).statusCode).toBe(200);
    expect((await put({ important_messages: ['C'], expected: ['B', 'A'] })).statusCode).toBe(409);
    expect((await put({ important_messages: ['C'], expected: [] })).statusCode).toBe(409);
    expect((await product.app.inject({ method: 'DELETE', url: '/parts/v1/users/important-message', headers: bearer(tokens.manager!) })).statusCode).toBe(200);
    expect((await put({ important_messages: ['C'], expected: ['A', 'B'] })).statusCode).toBe(409);
    expect((await put({ important_messages: ['C'], expected: [] })).statusCode).toBe(200);
    expect(await stored()).toEqual(['C']);
  });

  it("clears with an empty list naming the list cleared (the screen's Clear), refused when another list was stored since", async () => {
    expect((await put({ important_messages: ['A', 'B'] })).statusCode).toBe(200);
    expect((await put({ important_messages: [], expected: ['A'] })).statusCode).toBe(409);
    expect(await stored()).toEqual(['A', 'B']);
    const cleared = await put({ important_messages: [], expected: ['A', 'B'] });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ important_messages: [] });
    expect(await stored()).toEqual([]);
    // Without naming a list, an empty save is still refused: DELETE clears.
    expect((await put({ important_messages: [] })).statusCode).toBe(400);
  });

  it('without expected, a save replaces whatever is stored (other callers work as before)', async () => {
    expect((await put({ important_messages: ['Someone else'] })).statusCode).toBe(200);
    const plain = await put({ important_messages: ['Without expected'] });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual({ important_messages: ['Without expected'] });
    expect(await stored()).toEqual(['Without expected']);
    const [audit] = await product.database.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.targetType, 'important_messages'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toEqual({ before: ['Someone else'], after: ['Without expected'] });
  });

  it('saves at once naming the same start: one goes through, the others are refused', async () => {
    const opened = await stored();
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => put({ important_messages: [`Editor ${i}`], expected: opened })));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json().important_messages;
    expect(await stored()).toEqual(winner);
  });

  it('refuses an expected that is not a list of messages with a 400', async () => {
    for (const expected of ['hi', [1], Array(21).fill('x'), ['x'.repeat(501)]]) {
      const res = await put({ important_messages: ['a'], expected });
      expect(res.statusCode, JSON.stringify(expected)).toBe(400);
      expect(res.json().message).toMatch(/expected/);
    }
  });
});
