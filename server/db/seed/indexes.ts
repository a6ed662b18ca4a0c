/**
 * The seed fills EMPTY tables: their secondary indexes are built once after the rows are in,
 * instead of grown row by row (PostgreSQL's "Populating a Database": remove indexes, load,
 * create them again). For the trigram GIN indexes of orders and items that is the difference
 * between minutes and seconds at scale 500 (#16).
 *
 * The definitions are read from the catalog (pg_indexes) before the drop and replayed as they
 * were, so the migrations stay the one home of every index. Unique indexes and indexes behind
 * constraints stay: keys are checked as rows arrive, and the triggers find their rows through
 * them. Drop and create run in the seed's transaction: a failed seed leaves every index as it was.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../client';

/** The tables the seed writes in bulk (the scaled ones). */
const BULK_TABLES = ['orders', 'order_items', 'parcel_events', 'stock_items', 'material_counts'];

/** Memory for one index build in the seed's transaction: a GIN build sorts its keys in it. */
const BUILD_MEMORY = '256MB';

export interface DroppedIndex {
  name: string;
  definition: string;
}

/** Drops the secondary (non-unique, non-constraint) indexes of the bulk tables; answers their definitions. */
export async function dropSecondaryIndexes(tx: Tx): Promise<DroppedIndex[]> {
  const tables = sql.join(BULK_TABLES.map((t) => sql`${t}`), sql`, `);
  const dropped = rowsOf<DroppedIndex>(
    await tx.execute(sql`
      select ix.indexname as name, ix.indexdef as definition
        from pg_indexes ix
        join pg_namespace n on n.nspname = ix.schemaname
        join pg_class c on c.relname = ix.indexname and c.relnamespace = n.oid
        join pg_index i on i.indexrelid = c.oid
       where ix.schemaname = current_schema()
         and ix.tablename in (${tables})
         and not i.indisunique
         and not exists (select 1 from pg_constraint k where k.conindid = c.oid)
       order by ix.tablename, ix.indexname`),
  );
  for (const index of dropped) await tx.execute(sql`drop index ${sql.identifier(index.name)}`);
  return dropped;
}

/** Creates the dropped indexes again, each from its own definition, over the rows now in the tables. */
export async function createIndexes(tx: Tx, indexes: readonly DroppedIndex[]): Promise<void> {
  if (indexes.length === 0) return;
  await tx.execute(sql.raw(`set local maintenance_work_mem = '${BUILD_MEMORY}'`));
  for (const index of indexes) await tx.execute(sql.raw(index.definition));
}
