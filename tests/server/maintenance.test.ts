/**
 * Table maintenance for PGlite, which has no autovacuum (server/db/maintenance.ts): a table whose
 * rows were rewritten is vacuumed and analyzed, one with enough changes analyzed, and a table with
 * nothing to do is left alone. PostgreSQL runs its own autovacuum, so this is PGlite's test only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { maintainTables } from '../../server/db/maintenance';
import { rowsOf } from '../../server/db/client';
import { createTestProduct, type TestProduct } from './harness';

describe('table maintenance on pglite', () => {
  let product: TestProduct;
  const db = () => product.database.db;
  const stats = async (table: string) => {
    await db().execute(sql`select pg_stat_force_next_flush()`);
    return readStats(table);
  };
  const readStats = async (table: string) =>
    rowsOf<{ dead: number; modified: number; vacuumed: boolean }>(
      await db().execute(sql`select n_dead_tup::int as dead, n_mod_since_analyze::int as modified, last_vacuum is not null as vacuumed
        from pg_stat_user_tables where relname = ${table}`),
    )[0]!;

  beforeAll(async () => {
    product = await createTestProduct('pglite');
    // Whatever the seed left due is done first.
    await maintainTables(db());
  });
  afterAll(async () => product?.close());

  it('vacuums and analyzes a table whose rows were rewritten, and leaves it alone after', async () => {
    await db().execute(sql`update orders set destination = destination`);
    expect((await stats('orders')).dead).toBeGreaterThan(50);

    const pass = await maintainTables(db());
    expect(pass.vacuumed).toContain('orders');
    expect(pass.analyzed).toContain('orders');
    expect(await stats('orders')).toMatchObject({ dead: 0, modified: 0, vacuumed: true });
    // The summary triggers rewrote nothing else: the count tables are not due.
    expect(pass.vacuumed).not.toContain('stock_items');

    expect((await maintainTables(db())).analyzed).not.toContain('orders');
  });

  it('only analyzes a table that grew without leaving dead rows', async () => {
    const n = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from important_messages`))[0]!.n;
    await db().execute(sql`insert into important_messages (position, text, created_by) select 1000 + g, 'maintenance probe ' || g, 'test' from generate_series(1, 80) g`);
    const pass = await maintainTables(db());
    expect(pass.analyzed).toContain('important_messages');
    expect(pass.vacuumed).not.toContain('important_messages');
    expect((await stats('important_messages')).modified).toBe(0);
    await db().execute(sql`delete from important_messages where text like 'maintenance probe %'`);
    const after = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from important_messages`))[0]!.n;
    expect(after).toBe(n);
  });
});
