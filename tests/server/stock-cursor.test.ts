/**
 * Keyset paging of the stock lists (docs/decisions/0035, addendum 2026-11-25): `next_cursor`
 * sent back as `after` reads the same rows as the page numbers do, for every list and search, and
 * — unlike an offset — neither repeats nor skips a row when a row on an earlier page goes away
 * meanwhile. A cursor that is not one is a 400; the OpenAPI document names both.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../server/db/client';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

vi.setConfig({ testTimeout: 300_000 });

interface Page {
  page: number;
  pages: number;
  has_next: boolean;
  total: number;
  next_cursor?: string | null;
  stock_items: Array<{ id: number }>;
}

describe.each(ENGINES)('stock list keyset cursor on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['manager', 'mechanic', 'supervisor', 'cs.admin']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => product?.close());

  const call = (who: string, type: string, query: Record<string, string | number>) =>
    product.app.inject({
      method: 'GET',
      url: `/api/v2/${type}?${new URLSearchParams({ query: '', page: '1', maxResults: '20', ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) })}`,
      headers: bearer(tokens[who]!),
    });
  const page = async (who: string, type: string, query: Record<string, string | number>) => {
    const res = await call(who, type, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };

  const byNumber = async (who: string, type: string, query: string, maxResults: number) => {
    const ids: number[] = [];
    for (let n = 1; n < 5000; n++) {
      const body = await page(who, type, { query, page: n, maxResults });
      ids.push(...body.stock_items.map((row) => row.id));
      if (!body.has_next) {
        expect(body.next_cursor ?? null).toBeNull();
        return ids;
      }
    }
    throw new Error('no last page');
  };
  const byCursor = async (who: string, type: string, query: string, maxResults: number) => {
    const ids: number[] = [];
    let after: string | undefined;
    for (let n = 1; n < 5000; n++) {
      const body = await page(who, type, { query, page: n, maxResults, ...(after ? { after } : {}) });
      expect(body.page).toBe(n);
      ids.push(...body.stock_items.map((row) => row.id));
      if (!body.has_next) {
        expect(body.next_cursor ?? null).toBeNull();
        return ids;
      }
      expect(typeof body.next_cursor).toBe('string');
      after = body.next_cursor!;
    }
    throw new Error('no last page');
  };

  it.each([
    ['mechanic', 'my_stock', ''],
    ['supervisor', 'my_team_stock', ''],
    ['cs.admin', 'my_plant_stock', ''],
    ['manager', 'my_plant_stock', ''],
    ['manager', 'my_plant_stock', 'door'],
    ['cs.admin', 'my_plant_stock', 'a'],
    ['supervisor', 'my_team_stock', '0'],
  ] as const)('%s %s "%s": by cursor as by page number', async (who, type, query) => {
    // Small pages where the list is short, large ones where it is long (page numbers cost n² here).
    const maxResults = type === 'my_plant_stock' || query === '0' ? 100 : 7;
    const numbered = await byNumber(who, type, query, maxResults);
    expect(numbered.length).toBeGreaterThan(maxResults);
    expect(await byCursor(who, type, query, maxResults)).toEqual(numbered);
    expect(new Set(numbered).size).toBe(numbered.length);
  });

  it('a row deleted on an earlier page neither repeats nor skips a row after the cursor (an offset skips one)', async () => {
    const db = product.database.db;
    const first = await page('cs.admin', 'my_plant_stock', { page: 1, maxResults: 10 });
    const second = await page('cs.admin', 'my_plant_stock', { page: 2, maxResults: 10, after: first.next_cursor! });
    const gone = first.stock_items[3]!.id;
    expect(rowsOf(await db.execute(sql`delete from stock_items where id = ${gone} returning id`))).toHaveLength(1);
    const again = await page('cs.admin', 'my_plant_stock', { page: 2, maxResults: 10, after: first.next_cursor! });
    expect(again.stock_items.map((r) => r.id)).toEqual(second.stock_items.map((r) => r.id));
    const byOffset = await page('cs.admin', 'my_plant_stock', { page: 2, maxResults: 10 });
    expect(byOffset.stock_items[0]!.id).toBe(second.stock_items[1]!.id);
  });

  it.each(['nonsense', Buffer.from('["FI01","0001"]').toString('base64url'), Buffer.from('[1,2,3]').toString('base64url')])(
    'answers 400 for an after that is not a cursor of this list (%s)',
    async (after) => {
      const res = await call('manager', 'my_plant_stock', { after, page: 2 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'after must be the next_cursor of a page of this list' });
    },
  );

  it('documents after and next_cursor in the OpenAPI document', async () => {
    const doc = (await product.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const parameters = (doc.paths['/api/v2/my_plant_stock'].get.parameters as Array<{ name: string }>).map((p) => p.name);
    expect(parameters).toContain('after');
    expect(Object.keys(doc.components.schemas.StockPage.properties)).toContain('next_cursor');
  });
});
