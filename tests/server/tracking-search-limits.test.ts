/**
 * Limits of the tracking search through the real app: a search of more than MAX_SEARCH_TERMS
 * different terms is refused before any statement (each range term is planned apart), a term
 * written twice is read once, and every refusal of the list carries a `code` the browser words in
 * the user's language (decision 0055). A page past the end of a capped tab says it is past the end.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { LIST_COUNT_CAP } from '../../src/contract/common';
import { MAX_SEARCH_TERMS } from '../../src/domain/search-language';
import { cappedPageOf } from '../../server/repositories/paging';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { trackingListQuery } from './list-params';

vi.setConfig({ testTimeout: 300_000 });

describe('cappedPageOf past the end', () => {
  it('answers fewer pages than the page number for an empty page, capped or not', () => {
    // 1,000+ rows by 50: 20 counted pages, a lower bound; page 40 holds nothing.
    expect(cappedPageOf(LIST_COUNT_CAP, true, 40, 50, false, 0).envelope).toEqual({ page: 40, pages: 20, has_next: false, has_prev: true });
    // Counted pages beyond it (the count and the page a moment apart): the empty page still ends the list before it.
    expect(cappedPageOf(LIST_COUNT_CAP, true, 5, 50, false, 0).envelope.pages).toBe(4);
    expect(cappedPageOf(120, false, 9, 50, false, 0).envelope.pages).toBe(3);
    expect(cappedPageOf(0, false, 2, 50, false, 0).envelope.pages).toBe(1);
  });

  it('keeps the pages of a page with rows as before', () => {
    expect(cappedPageOf(LIST_COUNT_CAP, true, 21, 50, false, 20).envelope.pages).toBe(21);
    expect(cappedPageOf(LIST_COUNT_CAP, true, 21, 50, true, 51).envelope.pages).toBe(22);
    expect(cappedPageOf(0, false, 1, 50, false, 0).envelope.pages).toBe(1);
  });
});

describe.each(ENGINES)('tracking search limits on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['manager', 'mechanic', 'cs.admin']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => product?.close());

  const get = (who: string, query: Record<string, string | number>) =>
    product.app.inject({ method: 'GET', url: `/parts/v1/users/me/tracking-status?${trackingListQuery(query)}`, headers: bearer(tokens[who]!) });
  const terms = (n: number, term: (i: number) => string) => Array.from({ length: n }, (_, i) => term(i)).join(' ');

  it(`refuses more than ${MAX_SEARCH_TERMS} different terms with a coded 400, before any statement`, async () => {
    const query = terms(MAX_SEARCH_TERMS + 1, (i) => `po>=${4500100000 + i}`);
    const spy = vi.spyOn(product.database.db, 'execute');
    try {
      const res = await get('manager', { query });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        message: expect.stringContaining(`at most ${MAX_SEARCH_TERMS}`),
        code: 'searchTerm',
        params: { index: MAX_SEARCH_TERMS + 1, term: `po>=${4500100000 + MAX_SEARCH_TERMS}`, reason: 'tooManyTerms', max: MAX_SEARCH_TERMS },
      });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    const allowed = await get('manager', { query: terms(MAX_SEARCH_TERMS, (i) => `po>=${4500100000 + i}`) });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('reads a term written many times once', async () => {
    const once = await get('manager', { query: 'dd>=2026-01-01' });
    const many = await get('manager', { query: terms(33, () => 'dd>=2026-01-01') });
    expect(many.statusCode, many.body).toBe(200);
    expect(many.json().count_total).toBe(once.json().count_total);
  });

  it.each([
    ['plant=FI.01', { index: 1, term: 'plant=FI.01', reason: 'badValue.code' }],
    ['door dl=shipped', { index: 2, term: 'dl=shipped', reason: 'badValue.deliveryStatus', statuses: 'delivered, failed, on_the_way, to_be_picked_up, at_access_point' }],
    ['dd=2026-02-30', { index: 1, term: 'dd=2026-02-30', reason: 'badValue.date' }],
    ['po=4500*', { index: 1, term: 'po=4500*', reason: 'wildcard' }],
    ['colour=red po=', { index: 1, term: 'colour=red', reason: 'unknownField' }],
  ])('refuses %s with code searchTerm and the first bad term', async (query, params) => {
    const res = await get('mechanic', { query });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message: expect.any(String), code: 'searchTerm', params });
  });

  it('refuses My orders to a role without it with code myOrdersNotAllowed', async () => {
    const res = await get('manager', { myOrders: 'true' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'myOrdersNotAllowed', message: expect.stringContaining('myOrders') });
  });

  it('answers fewer pages than the page asked past the end of a capped tab', async () => {
    const db = product.database.db;
    await db.execute(sql`insert into orders (id, plant, updated_at)
      select 'ZZ-LIM-' || lpad(g::text, 5, '0'), 'DE02', timestamptz '2020-01-01' + g * interval '1 minute' from generate_series(1, ${LIST_COUNT_CAP + 20}) g`);
    await db.execute(sql`insert into order_items (order_id, line_number, material_code, material_description, unit)
      select 'ZZ-LIM-' || lpad(g::text, 5, '0'), 10, 'LIM', 'Limit fixture', 'PC' from generate_series(1, ${LIST_COUNT_CAP + 20}) g`);
    for (const query of ['', 'limit fixture']) {
      const res = await get('cs.admin', { query, page: 60, maxResults: 50 });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { trackingStatus: unknown[]; pages: number; has_next: boolean; counts_capped: string[] };
      expect(body.trackingStatus, query).toEqual([]);
      expect(body.counts_capped, query).toContain('count_total');
      expect(body.has_next, query).toBe(false);
      // The client's "page past the end" fires on pages < page; the pages stay the capped count's lower bound.
      expect(body.pages, query).toBe(LIST_COUNT_CAP / 50);
    }
  });
});
