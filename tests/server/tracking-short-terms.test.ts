/**
 * §5 free terms of one or two characters (docs/decisions/0035): they have no trigram, so
 * migration 0030's order_short_grams() — the trigrams of the text with every character tripled,
 * runs of digits that touch no letter left out (decision 0049) — and its GIN index name the orders
 * of a letter pair, or a letter and a digit. These tests hold the index's condition to the
 * substring test it stands in for (no order holding a term may lack its grams, on both engines),
 * the list's answers for short terms (digits alone, walked, too) to a raw reading of the orders'
 * text, and a field term on items (which also names its orders through the items' indexes) to
 * the raw items.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { rowsOf } from '../../server/db/client';
import { orderItems } from '../../server/db/schema';
import { shortTermGrams } from '../../server/repositories/tracking';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { trackingListQuery } from './list-params';

vi.setConfig({ testTimeout: 300_000 });

describe('shortTermGrams', () => {
  it.each([
    ['q', ['qqq']],
    ['Q', ['qqq']],
    ['dj', ['ddj', 'djj']],
    ['aa', ['aaa', 'aaa']],
    ['4z', ['44z', '4zz']],
    ['M4', ['mm4', 'm44']],
  ])('%s → %o', (term, grams) => expect(shortTermGrams(term)).toEqual(grams));
  // Digits alone: the grams leave out runs of digits touching no letter, so the index cannot name them.
  it.each(['', 'abc', '-1', 'ä', 'a ', '%', '7', '84', '00', '\u212A'])('%o has none (walked)', (term) => expect(shortTermGrams(term)).toBeNull());
});

describe.each(ENGINES)('short search terms on %s', (engine) => {
  let product: TestProduct;
  let token: string;
  const db = () => product.database.db;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    token = await product.token('manager@example.com');
  });
  afterAll(async () => product?.close());

  /** Every letter and digit, and every pair the orders' texts hold, plus pairs nobody holds. */
  const terms = async () => {
    const [row] = rowsOf<{ pairs: string[] }>(
      await db().execute(sql`select array_agg(distinct substr(search_text, i, 2)) as pairs
        from (select search_text from orders order by id limit 200) o, generate_series(1, length(search_text) - 1) i
        where substr(search_text, i, 2) ~ '^[a-z0-9]{2}$'`),
    );
    return [...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''), ...row!.pairs, 'qj', 'xz', 'zq', '9q'];
  };

  it('every order holding a letter, a letter pair or a letter and a digit holds its grams (the index never misses one)', async () => {
    const all = (await terms()).filter((term) => shortTermGrams(term));
    expect(all.length).toBeGreaterThan(100);
    // Letters beside digits are among them ("km484719" holds "m4"), and so are the digits the grams leave out.
    expect(all.some((term) => /^[a-z][0-9]$/.test(term))).toBe(true);
    expect(all.some((term) => /^[0-9][a-z]$/.test(term))).toBe(true);
    for (const term of all) {
      const [row] = rowsOf<{ holding: number; missed: number }>(
        await db().execute(sql`select count(*)::int as holding,
          count(*) filter (where not (order_short_grams(search_text) @> ${sql.param(shortTermGrams(term))}::text[]))::int as missed
          from orders where strpos(search_text, ${term}) > 0`),
      );
      expect(row!.missed, term).toBe(0);
    }
  });

  it('leaves out the runs of digits that touch no letter, and keeps a digit beside a letter', async () => {
    const [row] = rowsOf<{ grams: string[] }>(await db().execute(sql`select order_short_grams('km484719 4500106088 x12y 7q 56a b123c') as grams`));
    const grams = new Set(row!.grams);
    // A run touching a letter on one side only loses the digits away from it ("56a" keeps "6a");
    // one between two letters keeps its ends ("b123c" keeps "b1" and "3c").
    for (const kept of ['kkm', 'mm4', 'm44', 'xx1', '22y', '2yy', '77q', 'qqq', '66a', '6aa', 'bb1', 'b11', '33c', '3cc']) expect(grams.has(kept), kept).toBe(true);
    for (const left of ['448', '455', '500', '888', '556', '566', '223', '233']) expect(grams.has(left), left).toBe(false);
  });

  /** Every page of a search, as the API answers it. */
  const listed = async (query: string) => {
    const ids: string[] = [];
    let after: string | undefined;
    for (let page = 1; page < 2000; page++) {
      const res = await product.app.inject({
        method: 'GET',
        url: `/parts/v1/users/me/tracking-status?${trackingListQuery({ query, page, maxResults: 50, ...(after ? { after } : {}) })}`,
        headers: bearer(token),
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { trackingStatus: Array<{ orderId: string }>; has_next: boolean; next_cursor: string | null };
      ids.push(...body.trackingStatus.map((row) => row.orderId));
      if (!body.has_next) return ids;
      after = body.next_cursor!;
    }
    throw new Error('no last page');
  };

  it('lists for short terms the orders whose text holds them, rare and common, in list order', async () => {
    const counted = rowsOf<{ term: string; n: number }>(
      await db().execute(sql`select t as term, (select count(*) from orders where item_count > 0 and strpos(search_text, t) > 0)::int as n
        from unnest(${sql.param(await terms())}::text[]) t`),
    );
    const rare = counted.filter((c) => c.n > 0 && c.n <= 20).slice(0, 6);
    const none = counted.filter((c) => c.n === 0).slice(0, 2);
    const common = counted.filter((c) => c.n > 100).slice(0, 2);
    // Digits alone are walked (no grams): one that few orders hold and one that many do.
    const digits = counted.filter((c) => /^[0-9]+$/.test(c.term) && c.n > 0).sort((a, b) => a.n - b.n);
    expect(rare.length).toBeGreaterThan(0);
    expect(digits.length).toBeGreaterThan(1);
    for (const { term } of [...rare, ...none, ...common, digits[0]!, digits[digits.length - 1]!, { term: 'Q' }]) {
      const expected = rowsOf<{ id: string }>(
        await db().execute(sql`select id from orders where item_count > 0 and strpos(search_text, lower(${term})) > 0 order by updated_at desc, id desc`),
      ).map((row) => row.id);
      expect(await listed(term), term).toEqual(expected);
    }
  });

  it('a field term on items lists the orders with such an item (rare and common documents)', async () => {
    const items = await db().select().from(orderItems).orderBy(asc(orderItems.id));
    const byCode = new Map<string, Set<string>>();
    for (const item of items) byCode.set(item.materialCode.toLowerCase(), (byCode.get(item.materialCode.toLowerCase()) ?? new Set()).add(item.orderId));
    const codes = [...byCode.entries()].sort((a, b) => a[1].size - b[1].size);
    for (const [code, owners] of [codes[0]!, codes[Math.floor(codes.length / 2)]!, codes[codes.length - 1]!]) {
      const expected = rowsOf<{ id: string }>(
        await db().execute(sql`select id from orders where item_count > 0 and id = any(${sql.param([...owners])}::text[]) order by updated_at desc, id desc`),
      ).map((row) => row.id);
      expect(await listed(`mat=${code.toUpperCase()}`), code).toEqual(expected);
    }
  });
});
