/**
 * One priority edit acts on what its editor was shown (decision 0065): a row someone else changed
 * since the editor opened is refused (409 priorityChangedMeanwhile, nothing written), never turned
 * on again or moved back unseen; a row as shown saves as before, and so does a client that sends
 * no expectation. Refusals carry codes the browser words (serverErrors.<code>).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, ne, sql } from 'drizzle-orm';
import { accessPointPriorities, auditLog } from '../../server/db/schema';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

interface Point {
  accessPointId: string;
  priority: number;
  isEnabled: boolean;
}

describe.each(ENGINES)('priority edits changed meanwhile on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['pm.writer', 'manager']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => {
    await product?.close();
  });

  const db = () => product.database.db;
  const put = (who: string, payload: Record<string, unknown>) =>
    product.app.inject({ method: 'PUT', url: '/user_api/v1/uap_priority', headers: bearer(tokens[who]!), payload });
  const stored = async (code: string, accessPointId: string) => {
    const [row] = await db()
      .select({ priority: accessPointPriorities.priority, isEnabled: accessPointPriorities.isEnabled })
      .from(accessPointPriorities)
      .where(and(eq(accessPointPriorities.shipToPartyCode, code), eq(accessPointPriorities.accessPointId, accessPointId)));
    return row;
  };
  // Changes only: a caller's first sign-in records its identity link whatever the call does.
  const audits = async () => (await db().select({ n: sql<number>`count(*)::int` }).from(auditLog).where(ne(auditLog.action, 'user.linkIdentity')))[0]!.n;

  /** A ship-to-party the writer holds and one of its enabled access points, as the list shows it. */
  async function shown(): Promise<{ code: string; point: Point; free: number }> {
    const res = await product.app.inject({ method: 'GET', url: '/user_api/v1/tracking/uap/priorities', headers: bearer(tokens['pm.writer']!) });
    const items = res.json().items as { shipToPartyCode: string; uapinfos: Point[] }[];
    const entry = items.find((e) => e.uapinfos.some((u) => u.isEnabled))!;
    const point = entry.uapinfos.find((u) => u.isEnabled)!;
    // A priority no access point of the number has: the edits below are never refused for a clash.
    const free = [...Array(99).keys()].map((i) => 99 - i).find((p) => !entry.uapinfos.some((u) => u.priority === p))!;
    return { code: entry.shipToPartyCode, point, free };
  }

  it('refuses a save that would turn on again an access point someone else disabled after the editor opened', async () => {
    const { code, point, free } = await shown();
    // The writer opens the editor (enabled); a super manager disables the access point meanwhile.
    expect((await put('manager', { shipToPartyCode: code, accessPointId: point.accessPointId, priority: point.priority, isEnabled: false })).statusCode).toBe(200);
    const before = await audits();

    // The writer saves a new priority, the checkbox as it was opened (on).
    const res = await put('pm.writer', {
      shipToPartyCode: code,
      accessPointId: point.accessPointId,
      priority: free,
      isEnabled: true,
      expectedPriority: point.priority,
      expectedIsEnabled: true,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'priorityChangedMeanwhile', params: { accessPoint: point.accessPointId, shipToParty: code } });
    expect(res.json().message).toContain('was changed by someone else after you opened it');
    expect(await stored(code, point.accessPointId)).toEqual({ priority: point.priority, isEnabled: false });
    expect(await audits()).toBe(before);

    // Put the seeded state back.
    expect((await put('manager', { shipToPartyCode: code, accessPointId: point.accessPointId, priority: point.priority, isEnabled: true })).statusCode).toBe(200);
  });

  it('refuses a save whose priority someone else changed after the editor opened', async () => {
    const { code, point, free } = await shown();
    expect((await put('manager', { shipToPartyCode: code, accessPointId: point.accessPointId, priority: free })).statusCode).toBe(200);
    const res = await put('pm.writer', {
      shipToPartyCode: code,
      accessPointId: point.accessPointId,
      priority: point.priority,
      isEnabled: false,
      expectedPriority: point.priority,
      expectedIsEnabled: true,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('priorityChangedMeanwhile');
    expect(await stored(code, point.accessPointId)).toEqual({ priority: free, isEnabled: true });
    expect((await put('manager', { shipToPartyCode: code, accessPointId: point.accessPointId, priority: point.priority })).statusCode).toBe(200);
  });

  it('saves a row as the editor was shown it, with its audit row; a client sending no expectation as before', async () => {
    const { code, point, free } = await shown();
    const before = await audits();
    const res = await put('pm.writer', {
      shipToPartyCode: code,
      accessPointId: point.accessPointId,
      priority: free,
      isEnabled: false,
      expectedPriority: point.priority,
      expectedIsEnabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accessPointId: point.accessPointId, priority: free, isEnabled: false });
    expect(await stored(code, point.accessPointId)).toEqual({ priority: free, isEnabled: false });
    expect(await audits()).toBe(before + 1);

    // Older clients: no expected fields, written as given.
    const back = await put('pm.writer', { shipToPartyCode: code, accessPointId: point.accessPointId, priority: point.priority, isEnabled: true });
    expect(back.statusCode, back.body).toBe(200);
    expect(await stored(code, point.accessPointId)).toEqual({ priority: point.priority, isEnabled: true });
  });

  it('answers an unknown pair and a number not held with one coded 404', async () => {
    const { code, point } = await shown();
    const unknown = await put('pm.writer', { shipToPartyCode: code, accessPointId: 'FI-AP-NOPE', priority: 3, expectedPriority: 3, expectedIsEnabled: true });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'priorityNotFound', params: { accessPoint: 'FI-AP-NOPE', shipToParty: code } });
    const foreign = await put('pm.writer', { shipToPartyCode: '0050030001', accessPointId: point.accessPointId, priority: 3 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'priorityNotFound', params: { accessPoint: point.accessPointId, shipToParty: '0050030001' } });
  });
});
