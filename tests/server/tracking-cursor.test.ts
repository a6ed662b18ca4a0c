/**
 * Keyset paging of the tracking list (docs/decisions/0035): `next_cursor` sent back as `after`
 * reads the same rows as the page numbers do, reaches every order of a tab, and — unlike an offset
 * — neither repeats nor skips an order when an order on an earlier page changes meanwhile. A
 * cursor that is not one is a 400.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { trackingListQuery } from './list-params';

vi.setConfig({ testTimeout: 300_000 });

interface Page {
  trackingStatus: Array<{ orderId: string }>;
  page: number;
  has_next: boolean;
  next_cursor?: string | null;
}

describe.each(ENGINES)('tracking list keyset cursor on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['manager', 'mechanic']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => product?.close());

  const list = async (who: string, query: Record<string, string | number>) => {
    const res = await product.app.inject({ method: 'GET', url: `/parts/v1/users/me/tracking-status?${trackingListQuery(query)}`, headers: bearer(tokens[who]!) });
    return res;
  };
  const page = async (who: string, query: Record<string, string | number>) => {
    const res = await list(who, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };

  /** Every page by cursor, then every page by number: the same orders in the same order. */
  it.each([
    ['manager', { status: 'all' }],
    ['manager', { status: 'arrived' }],
    ['mechanic', { status: 'incoming' }],
    ['manager', { query: 'door' }],
    ['mechanic', { query: 'plant=FI01' }],
  ] as const)('%s %o: by cursor as by page number', async (who, filter) => {
    const byNumber: string[] = [];
    for (let n = 1; n < 400; n++) {
      const body = await page(who, { ...filter, page: n, maxResults: 7 });
      byNumber.push(...body.trackingStatus.map((row) => row.orderId));
      if (!body.has_next) {
        expect(body.next_cursor).toBeNull();
        break;
      }
    }
    const byCursor: string[] = [];
    let after: string | undefined;
    for (let n = 1; n < 400; n++) {
      const body = await page(who, { ...filter, page: n, maxResults: 7, ...(after ? { after } : {}) });
      expect(body.page).toBe(n);
      byCursor.push(...body.trackingStatus.map((row) => row.orderId));
      if (!body.has_next) break;
      expect(typeof body.next_cursor).toBe('string');
      after = body.next_cursor!;
    }
    expect(byNumber.length).toBeGreaterThan(7);
    expect(byCursor).toEqual(byNumber);
    expect(new Set(byCursor).size).toBe(byCursor.length);
  });

  it('an order changed meanwhile is neither repeated nor skipped by the cursor (an offset would repeat one)', async () => {
    const first = await page('manager', { page: 1, maxResults: 10 });
    const second = await page('manager', { page: 2, maxResults: 10 });
    // An order further down the list changes: it moves to the top, and every order above its old
    // place one down. Page 2 by number then starts with page 1's last order again.
    const moved = second.trackingStatus[5]!.orderId;
    await product.database.db.execute(sql`update orders set updated_at = now() + interval '1 minute' where id = ${moved}`);
    const byNumber = await page('manager', { page: 2, maxResults: 10 });
    expect(byNumber.trackingStatus[0]!.orderId).toBe(first.trackingStatus[9]!.orderId);
    const byCursor = await page('manager', { page: 2, maxResults: 10, after: first.next_cursor! });
    const expected = second.trackingStatus.map((row) => row.orderId).filter((id) => id !== moved);
    expect(byCursor.trackingStatus.map((row) => row.orderId).slice(0, expected.length)).toEqual(expected);
    expect(byCursor.trackingStatus.map((row) => row.orderId)).not.toContain(first.trackingStatus[9]!.orderId);
  });

  it.each([
    'not-a-cursor',
    Buffer.from('["yesterday","X"]').toString('base64url'),
    Buffer.from('[1,2]').toString('base64url'),
    // Shaped like a cursor, but no instant: PostgreSQL's cast would have failed (a 500).
    Buffer.from('["2026-13-45T00:00:00.000000Z","X"]').toString('base64url'),
    Buffer.from('["2026-02-30T00:00:00.000000Z","X"]').toString('base64url'),
  ])(
    'after=%s is a 400 naming it',
    async (after) => {
      const res = await list('manager', { after });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/after must be the next_cursor/);
    },
  );
});
