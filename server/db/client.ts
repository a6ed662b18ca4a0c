/**
 * One schema, two engines: PostgreSQL through `pg` when DATABASE_URL is set, otherwise PGlite
 * persisted in DATA_DIR (or in memory for tests). PGlite is single-user: it serialises every
 * query on one connection by itself, so the app never opens a second one.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgDialect, PgQueryResultHKT, PgSession } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL: the connection string (tests open sessions of their own). */
  databaseUrl?: string;
  migrate(): Promise<void>;
  /** PGlite only: the data directory as a tarball, to start other databases from (`{ memory: true, from }`). */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** `from`: an in-memory PGlite starts as a copy of a `snapshot()` (the test template) instead of empty. */
export type DatabaseTarget = { databaseUrl: string } | { dataDir: string } | { memory: true; from?: Blob };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if ('databaseUrl' in target) {
    // JIT off (docs/decisions/0031): the lists' plans stop early (LIMIT, capped counts) while their
    // estimated cost is of the whole walk, so JIT compiled them for 150 ms to 3.6 s per call to
    // save a few; nothing this API asks runs long enough to gain from it.
    // No parallel workers (docs/decisions/0038): for the same reason PostgreSQL started two
    // workers for a capped count that stops after a few thousand rows (~20 ms to start them, on
    // cores that the other connections of a loaded server need); each call is one backend.
    // random_page_cost 1.1, the value PostgreSQL's documentation gives for solid-state storage
    // (the default 4 models spinning disks): with it the tab counts read the narrow list indexes
    // (index-only) instead of walking the wide order rows (page 1 at scale 500: 17 -> 9-11 ms).
    // Each connection lives at most 30 minutes (ended when next released, then opened anew): a
    // connection keeps every statement it prepared (executeNamed), and the texts of the prepared
    // lists vary with the shape of the callers' scopes (how many plants, work centres …).
    const pool = new pg.Pool({
      connectionString: target.databaseUrl,
      max: 10,
      maxLifetimeSeconds: 30 * 60,
      options: '-c jit=off -c max_parallel_workers_per_gather=0 -c random_page_cost=1.1',
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      engine: 'postgres',
      databaseUrl: target.databaseUrl,
      migrate: () => migratePg(db as never, { migrationsFolder }),
      close: async () => {
        // pool.end() resolves once every connection was asked to end, not once it has: wait for
        // each one's 'remove' (its socket closed), so a DROP DATABASE right after finds no session
        // to terminate under a client that would then report an uncaught error. Bounded, never hangs.
        let open = pool.totalCount;
        const closed = new Promise<void>((resolve) => {
          if (open === 0) return resolve();
          pool.on('remove', () => {
            open -= 1;
            if (open <= 0) resolve();
          });
          setTimeout(resolve, 5000).unref();
        });
        await pool.end();
        await closed;
      },
    };
  }
  let client: PGlite;
  if ('dataDir' in target) {
    mkdirSync(target.dataDir, { recursive: true });
    client = await PGlite.create(`${target.dataDir}/pglite`, { extensions: { pg_trgm } });
  } else {
    client = await PGlite.create({ extensions: { pg_trgm }, ...(target.from ? { loadDataDir: target.from } : {}) });
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    snapshot: async () => {
      await client.query('CHECKPOINT');
      return client.dumpDataDir('none');
    },
    close: () => client.close(),
  };
}

/** The rows of a raw `db.execute` result: node-postgres answers `{ rows }`, PGlite's driver the same, some paths an array. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * A raw statement run as a named prepared statement (PostgreSQL): each connection parses it once
 * and, where PostgreSQL finds a generic plan as good as the custom ones (after five runs, its own
 * `plan_cache_mode = auto` rule), stops planning it too. The name is `label` and a hash of the
 * text, so one name never stands for two texts. What db.execute does, with a name (drizzle's own
 * prepared query: the same type parsers, PGlite ignores the name).
 *
 * Only for statements of few shapes, each a few texts (a connection keeps every statement it
 * prepared, until the pool retires it after 30 minutes), and whose plan does not hang on a value
 * the generic plan cannot see: a search pattern (`like $1`) is planned from its value, so
 * searches stay unnamed.
 */
export function executeNamed(db: unknown, label: string, query: SQL): Promise<unknown> {
  const { session, dialect } = db as { session: PgSession; dialect: PgDialect };
  const built = dialect.sqlToQuery(query);
  return session.prepareQuery(built, undefined, statementName(label, built.sql), false).execute();
}

/** The name of a prepared statement: its label and a hash of its text. */
function statementName(label: string, text: string): string {
  return `${label}_${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
}

/**
 * A query builder's statement of one text (its values as `sql.placeholder`s), prepared once per
 * database handle or transaction under `label` and run with `.execute(values)`: built and named
 * once, not on every call. The same named statement as executeNamed's on the connection. It holds
 * no data, only the statement: every replica makes the same one.
 */
const preparedByHandle = new WeakMap<object, Map<string, unknown>>();
export function preparedOnce<P>(db: object, label: string, build: () => { toSQL(): { sql: string }; prepare(name: string): P }): P {
  let ofHandle = preparedByHandle.get(db);
  if (!ofHandle) preparedByHandle.set(db, (ofHandle = new Map()));
  let statement = ofHandle.get(label) as P | undefined;
  if (!statement) {
    const query = build();
    statement = query.prepare(statementName(label, query.toSQL().sql));
    ofHandle.set(label, statement);
  }
  return statement;
}

/**
 * The pool's connections a call may take now for statements side by side (docs/decisions/0042):
 * those idle and those it may still open, less the callers already waiting for one. 0 on PGlite
 * (one connection) and in a transaction (its own connection): there statements run one by one.
 */
export function spareConnections(db: unknown): number {
  const pool = (db as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return 0;
  return Math.max(0, (pool.options.max ?? 10) - pool.totalCount + pool.idleCount - pool.waitingCount);
}
