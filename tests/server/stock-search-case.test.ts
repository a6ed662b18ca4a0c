/** Stock search (§5) by storage location: codes are written in capitals, and a code typed in small letters finds them too. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

describe.each(ENGINES)('stock search by storage location on %s', (engine) => {
  let product: TestProduct;
  let token = '';
  const search = async (query: string) => {
    const res = await product.app.inject({ method: 'GET', url: `/api/v2/my_plant_stock?maxResults=500&page=1&query=${encodeURIComponent(query)}`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { total: number; stock_items: Array<{ plant: string; storage_location: string; material_code: string }> };
  };

  beforeAll(async () => {
    product = await createTestProduct(engine);
    token = await product.token('mechanic@example.com');
  });
  afterAll(async () => product?.close());

  it('finds a van’s rows whether its code is typed in capitals or not', async () => {
    const upper = await search('V001');
    expect(upper.stock_items.some((row) => row.storage_location === 'V001')).toBe(true);
    const lower = await search('v001');
    expect(lower.total).toBe(upper.total);
    expect(lower.stock_items).toEqual(upper.stock_items);
  });
});
