/**
 * The statements every call or the home screen's list call makes are prepared on PostgreSQL
 * (docs/decisions/0044): the caller lookup (tests/server/auth.test.ts), an unsearched tracking
 * page from its start or a cursor with its rows, a search's look-ups of its common terms and of
 * its delivery statuses, and a stock page's locations and rows. Tracking
 * pages by number past the first and searches stay unnamed (their plans hang on the offset or the
 * pattern). On PGlite the same calls answer the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/client';
import { userIdentities, users } from '../../server/db/schema';
import { listStock } from '../../server/repositories/stock';
import { listTrackingStatus, type TrackingListOptions } from '../../server/repositories/tracking';
import { resolveUser, type CurrentUser } from '../../server/repositories/users';
import { parseSearch } from '../../src/domain/search-language';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

describe.each(ENGINES)('prepared list statements on %s', (engine) => {
  let product: TestProduct;
  let own: Database;
  let manager: CurrentUser;
  const list = (given: Partial<TrackingListOptions>) =>
    listTrackingStatus(own.db, manager, { terms: [], status: 'all', myOrders: false, page: 1, maxResults: 5, sideBySide: false, ...given });
  const prepared = async () => {
    const result = await own.db.execute(sql`select name from pg_prepared_statements where name like 'tracking%' or name like 'stock%' order by name`);
    return (result as unknown as { rows: Array<{ name: string }> }).rows.map((row) => row.name);
  };

  beforeAll(async () => {
    product = await createTestProduct(engine);
    expect((await product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers: bearer(await product.token('manager@example.com')) })).statusCode).toBe(200);
    const [bound] = await product.database.db
      .select({ issuer: userIdentities.issuer, subject: userIdentities.subject })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(eq(users.email, 'manager@example.com'));
    // A handle of its own on PostgreSQL: one connection, so pg_prepared_statements is that connection's.
    own = engine === 'postgres' ? await openDatabase({ databaseUrl: product.database.databaseUrl! }) : product.database;
    manager = await resolveUser(own.db, { issuer: bound!.issuer, subject: bound!.subject, email: 'manager@example.com', emailVerified: true, name: null }, 'support@example.com');
  });
  afterAll(async () => {
    if (own && own !== product?.database) await own.close();
    await product?.close();
  });

  it('prepares an unsearched page from its start and by cursor, each with its rows, and answers the same each time', async () => {
    const first = await list({});
    expect(first.trackingStatus).toHaveLength(5);
    expect(await list({})).toEqual(first);
    const [updatedAt, id] = JSON.parse(Buffer.from(first.next_cursor!, 'base64url').toString()) as [string, string];
    const second = await list({ page: 2, after: { updatedAt, id } });
    expect(second.trackingStatus.map((row) => row.orderId)).not.toContain(first.trackingStatus[0]!.orderId);
    // The same page by number: the same rows, through an unnamed statement.
    const byNumber = await list({ page: 2 });
    expect(byNumber.trackingStatus).toEqual(second.trackingStatus);
    if (engine !== 'postgres') return;
    const names = await prepared();
    // Page 1 and the cursor's page are two texts; their rows one (the ids are one array parameter).
    expect(names.filter((name) => name.startsWith('tracking_page_'))).toHaveLength(2);
    expect(names.filter((name) => name.startsWith('tracking_rows_'))).toHaveLength(1);

    // A search and a page by number add no page or rows statement; a search asks which of its
    // terms are common through one prepared statement (the terms are array parameters).
    await list({ terms: parseSearch('door').terms });
    await list({ terms: parseSearch('q "material description"=pump').terms });
    await list({ terms: parseSearch('dl=delivered').terms });
    await list({ terms: parseSearch('dl=on_the_way').terms });
    await list({ page: 3 });
    expect(await prepared()).toEqual(names);
    const lookups = await own.db.execute(sql`select name from pg_prepared_statements where name like 'common_terms%' or name like 'status_facts%' order by name`);
    const looked = (lookups as unknown as { rows: Array<{ name: string }> }).rows.map((row) => row.name);
    expect(looked).toHaveLength(2);
    expect(looked[0]).toMatch(/^common_terms_/);
    expect(looked[1]).toMatch(/^status_facts_/);
  });

  it('prepares the locations and rows of a stock page, by number and searched alike', async () => {
    const first = await listStock(own.db, manager, 'my_plant_stock', { page: 1, maxResults: 5 });
    expect(first.stock_items).toHaveLength(5);
    const second = await listStock(own.db, manager, 'my_plant_stock', { page: 2, maxResults: 5 });
    expect(await listStock(own.db, manager, 'my_plant_stock', { page: 2, maxResults: 5 })).toEqual(second);
    const searched = await listStock(own.db, manager, 'my_plant_stock', { query: first.stock_items[0]!.material_code, page: 1, maxResults: 5 });
    expect(searched.stock_items[0]!.material_code).toBe(first.stock_items[0]!.material_code);
    if (engine !== 'postgres') return;
    const names = (await prepared()).filter((name) => name.startsWith('stock'));
    // The search's page rows are read by the same prepared statement as the list's.
    expect(names.filter((name) => name.startsWith('stock_locations_'))).toHaveLength(1);
    expect(names.filter((name) => name.startsWith('stock_rows_'))).toHaveLength(1);
  });
});
