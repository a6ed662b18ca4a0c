/**
 * The tracking search index (docs/decisions/0016): every order and item of the tracking list, as
 * the §5 search language reads them, held in this process's memory, so that a search answers its
 * four exact tab counts and its page in one pass over memory instead of reading thousands of
 * matching rows through the database. The page's rows themselves are still read from the database
 * (server/repositories/tracking.ts); only the matching, counting and ordering happen here.
 *
 * Never stale: before it answers, the index reads the orders that changed since it last looked
 * (`tracking_changes`, written by triggers in the same transaction as the change, migration 0013)
 * and reloads them. Its cursor is the oldest transaction still running when it last looked
 * (pg_snapshot_xmin), so a transaction that commits later than a newer one is never skipped; the
 * transactions already applied past the cursor are remembered, so nothing is reloaded twice.
 * While it is not usable (being built, too many changes to apply within a request, a truncate, a
 * collation whose order differs from JavaScript's, more items than it may hold) the caller asks
 * the database instead, as before: the index is only ever a faster way to the same answer.
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { TrackingColumns, type IndexAnswer, type IndexQuery, type ItemRow, type OrderRow, type OrderWithItems } from './tracking-columns';

export type { IndexAnswer, IndexQuery, IndexScope } from './tracking-columns';

/** An order as a JSON array (OrderRow): several times faster to read through PGlite than a row of columns. */
const ORDER_JSON = sql`json_build_array(o.id, (extract(epoch from o.updated_at) * 1000000)::bigint, o.plant, o.work_center, o.planner_group,
  o.ship_to_party, o.user_email, o.service_order, o.equipment_code, o.equipment_description, o.destination)`;
/** An item as a JSON array (ItemRow); §4 arrived and "at an access point" as tracking.ts arrivedSql, actionPointSql. */
const ITEM_JSON = sql`json_build_array(i.order_id, i.material_code, i.material_description, i.reservation_doc_number,
  i.purchase_order_doc_number, i.sales_order_doc_number, i.delivery_order_doc_number, i.tracking_number, i.storage_location,
  i.delivery_status, to_char(i.delivery_date, 'YYYY-MM-DD AD'),
  coalesce(i.delivery_status, '') = 'Delivered' or i.goods_receipt_posted_at is not null or coalesce(i.purchase_order_goods_receipt_quantity, 0) > 0,
  i.delivery_status in ('ToBePickedUp', 'At access point'), i.id)`;

/**
 * Orders with their items, in one statement (one snapshot): `orders` selects the order rows (it is
 * the CTE `o`), `items` says which items belong to them. Read as two JSON texts, several times
 * faster through PGlite than rows of columns. `last`: the largest order id read.
 */
async function readOrders(db: Db, orders: SQL, items: SQL): Promise<{ orders: OrderWithItems[]; last: string | null }> {
  const [read] = rowsOf<{ orders: string | null; items: string | null; last: string | null }>(
    await db.execute(sql`
      with o as (${orders})
      select (select json_agg(${ORDER_JSON})::text from o) as orders,
        (select max(id) from o) as last,
        (select json_agg(${ITEM_JSON} order by i.order_id, i.line_number)::text from order_items i where ${items}) as items`),
  );
  const orderRows = JSON.parse(read?.orders ?? '[]') as OrderRow[];
  const itemRows = JSON.parse(read?.items ?? '[]') as ItemRow[];
  const byId = new Map(orderRows.map((row) => [row[0], { row, items: [] as ItemRow[] }]));
  for (const item of itemRows) byId.get(item[0])?.items.push(item);
  return { orders: [...byId.values()], last: read?.last ?? null };
}

/** Positions of `orders` newest change first (by updated_at in microseconds, then the larger id). */
function newestFirstOrder(orders: OrderWithItems[]): Int32Array {
  const updated = Float64Array.from(orders, (order) => order.row[1]);
  const positions = Int32Array.from(orders, (_, at) => at);
  return positions.sort((a, b) => updated[b]! - updated[a]! || (orders[a]!.row[0] < orders[b]!.row[0] ? 1 : -1));
}

const TOO_MANY_ITEMS = 'tracking search index off: more order items than TRACKING_SEARCH_INDEX_MAX_ITEMS; searches use the database';

/** Lets other work run between two slices of a long build. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

const SEPARATOR = '\x1f';

export interface TrackingIndexOptions {
  enabled: boolean;
  /** Above this many items the index is not built (memory): searches go to the database. */
  maxItems: number;
  /** Up to this many changed orders are reloaded within a request; past it the index is built anew in the background. */
  inlineChanges?: number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface TrackingIndexStats {
  state: 'off' | 'building' | 'ready' | 'stale';
  orders: number;
  items: number;
  /** About how much memory the index holds. */
  bytes: number;
  /** How long the last build took (reading included), in ms. */
  buildMs: number;
  builds: number;
  /** Orders reloaded after a change. */
  reloaded: number;
  /** Searches answered from memory / sent to the database because the index was not usable. */
  answered: number;
  declined: number;
}

/**
 * Orders read per statement while building. Small: PGlite runs in this thread, so a statement holds
 * every request while it runs (~25 ms for 500 orders on scale 50).
 */
const CHUNK = 500;
/** Orders put into the columns between two turns of the event loop (~6 ms). */
const PUT_SLICE = 250;
/** Changes are kept this long (hours); an index that has not looked for half of it starts anew. */
const CHANGE_RETENTION_HOURS = 24;

export class TrackingSearchIndex {
  readonly #db: Db;
  readonly #options: Required<TrackingIndexOptions>;
  #state: TrackingIndexStats['state'] = 'off';
  #columns = new TrackingColumns();
  /** pg_snapshot_xmin of the last look: changes of transactions from there on are read again. */
  #cursor = '0';
  /** Transactions at or past the cursor whose changes are already applied (committed: final). */
  #applied = new Set<string>();
  #lastLook = 0;
  #failedAt = 0;
  /** The first pruning an hour after start, not while the product is starting up. */
  #lastPrune = Date.now();
  /** Moves when a build swaps everything in: a look that started before it must not apply its rows after it. */
  #epoch = 0;
  #building: Promise<void> | null = null;
  #syncing: Promise<boolean> | null = null;
  #queued: Promise<boolean> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  readonly #stats = { buildMs: 0, builds: 0, reloaded: 0, answered: 0, declined: 0 };

  constructor(db: Db, options: TrackingIndexOptions) {
    this.#db = db;
    this.#options = { inlineChanges: 1_000, ...options };
  }

  stats(): TrackingIndexStats {
    return { state: this.#state, orders: this.#columns.orders, items: this.#columns.items, bytes: this.#columns.bytes, ...this.#stats };
  }

  /** Builds the index in the background and keeps it current (a look every minute, old changes pruned hourly). */
  start(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    // The triggers write the change log whether or not this index reads it: pruned either way.
    this.#timer = setInterval(() => {
      void this.#housekeeping();
    }, 60_000);
    this.#timer.unref();
    return this.#options.enabled ? this.#rebuild() : Promise.resolve();
  }

  /** Resolves once a build under way (if any) has finished. */
  async whenBuilt(): Promise<void> {
    await this.#building;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await Promise.allSettled([this.#building, this.#syncing, this.#queued]);
  }

  /**
   * The matching orders' tab counts and the page's ids, or null when the index cannot answer
   * right now (the caller then asks the database). Reads the changes since the last look first.
   */
  async search(query: IndexQuery): Promise<IndexAnswer | null> {
    // A free term holding the unit separator is matched column by column by the database (tracking.ts).
    if (
      query.terms.some((term) => term.type === 'free' && term.value.includes(SEPARATOR)) ||
      !TrackingColumns.answers(query.terms) ||
      !(await this.#current())
    ) {
      this.#stats.declined += 1;
      return null;
    }
    this.#stats.answered += 1;
    return this.#columns.match(query);
  }

  /**
   * True when every change committed before this call is in the index. A look already under way
   * may have started before the caller's own write committed: callers arriving meanwhile share the
   * next look, which starts once that one is done.
   */
  #current(): Promise<boolean> {
    if (this.#state !== 'ready') {
      // After a failed build, the next try waits a minute (a lasting error must not cost every search a build).
      if (this.#state === 'stale' && !this.#building && Date.now() - this.#failedAt > 60_000) void this.#rebuild();
      return Promise.resolve(false);
    }
    if (this.#syncing) {
      this.#queued ??= this.#syncing.then(() => {
        this.#queued = null;
        return this.#current();
      });
      return this.#queued;
    }
    this.#syncing = this.#sync()
      .catch((error: unknown) => {
        this.#options.log.warn({ err: error }, 'tracking search index: reading the changes failed; searches use the database');
        return false;
      })
      .finally(() => {
        this.#syncing = null;
      });
    return this.#syncing;
  }

  /** Reads the changes since the last look and applies them; false when they are too many for now. */
  async #sync(): Promise<boolean> {
    const epoch = this.#epoch;
    const applied = [...this.#applied];
    // Past this many (transaction, order) pairs the look stops reading: the index is built anew.
    const tooMany = this.#options.inlineChanges * 4;
    // One statement, one snapshot: its xmin is the next cursor, its changes are those it sees.
    const [look] = rowsOf<{ xmin: string; changes: [string, string][] | string | null }>(
      await this.#db.execute(sql`
        select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
          (select json_agg(json_build_array(xid::text, order_id)) from (
             select distinct xid, order_id from tracking_changes
             where xid >= ${this.#cursor}::xid8 and not (xid = any(${sql.param(applied)}::text[]::xid8[]))
             limit ${tooMany}) changed) as changes`),
    );
    const changes: [string, string][] = typeof look?.changes === 'string' ? JSON.parse(look.changes) : (look?.changes ?? []);
    const ids = new Set(changes.map(([, orderId]) => orderId));
    if (
      ids.has('*') ||
      changes.length >= tooMany ||
      ids.size > this.#options.inlineChanges ||
      this.#columns.dead > Math.max(10_000, this.#columns.orders + this.#columns.items)
    ) {
      // A truncate, an ERP file's worth of orders, or more dead slots than live ones: built anew
      // in the background; the database answers meanwhile.
      this.#state = 'stale';
      void this.#rebuild();
      return false;
    }
    const fresh = ids.size > 0 ? await this.#read([...ids]) : null;
    if (epoch !== this.#epoch || this.#state !== 'ready') return false;
    if (fresh) {
      const present = new Set(fresh.map((order) => order.row[0]));
      this.#columns.remove([...ids].filter((id) => !present.has(id)));
      this.#columns.put(fresh);
      this.#stats.reloaded += ids.size;
    }
    for (const [xid] of changes) this.#applied.add(xid);
    const cursor = BigInt(look!.xmin);
    for (const xid of this.#applied) if (BigInt(xid) < cursor) this.#applied.delete(xid);
    this.#cursor = look!.xmin;
    this.#lastLook = Date.now();
    return true;
  }

  /** These orders as the database has them now (gone ones are absent), in one statement. */
  async #read(ids: string[]): Promise<OrderWithItems[]> {
    const list = sql`${sql.param(ids)}::text[]`;
    return (await readOrders(this.#db, sql`select * from orders where id = any(${list})`, sql`i.order_id = any(${list})`)).orders;
  }

  /** Everything anew, in slices (other queries run between them), then swapped in. */
  #rebuild(): Promise<void> {
    this.#building ??= this.#build()
      .catch((error: unknown) => {
        this.#state = 'stale';
        this.#failedAt = Date.now();
        this.#options.log.warn({ err: error }, 'tracking search index: build failed; searches use the database, tried again in a minute');
      })
      .finally(() => {
        this.#building = null;
      });
    return this.#building;
  }

  async #build(): Promise<void> {
    if (this.#stopped) return;
    this.#state = 'building';
    // One statement: the database's text rules, the size, and where the changes stand. The
    // transactions past the oldest running one that have already committed are in what the slices
    // read next: marked applied, so the first look does not take them for new (with an older
    // transaction still open, it would otherwise build again and again).
    const [setup] = rowsOf<{ collation: string; provider: string | null; folds: boolean; items: number | string; xmin: string; committed: string[] | string | null }>(
      await this.#db.execute(sql`
        select d.datcollate as collation, to_jsonb(d) ->> 'datlocprovider' as provider,
          (lower('ÄÖÅÉŁ') = 'äöåéł' and 'ÄB' ilike '%äb%') as folds,
          greatest((select reltuples from pg_class where oid = 'order_items'::regclass), 0)::bigint as items,
          pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
          (select json_agg(distinct xid::text) from tracking_changes where xid >= pg_snapshot_xmin(pg_current_snapshot())) as committed
        from pg_database d where d.datname = current_database()`),
    );
    const collation = setup?.collation ?? '';
    // JavaScript compares text by code unit and folds case like a UTF-8 C.UTF-8 database: anything
    // else (another collation, ICU, ASCII-only case folding) would answer differently.
    if (!/^(C|POSIX)(\.utf-?8)?$/i.test(collation) || (setup?.provider ?? 'c') !== 'c' || !setup?.folds) {
      this.#turnOff(
        { collation, provider: setup?.provider, folds: setup?.folds },
        'tracking search index off: the database orders or folds text otherwise than JavaScript; searches use the database',
      );
      return;
    }
    if (Number(setup.items) > this.#options.maxItems) {
      this.#turnOff({ items: Number(setup.items), maxItems: this.#options.maxItems }, TOO_MANY_ITEMS);
      return;
    }
    const committed: string[] = typeof setup.committed === 'string' ? JSON.parse(setup.committed) : (setup.committed ?? []);
    const started = performance.now();
    // Changes from the oldest running transaction on are read again at the first look: whatever
    // commits while the slices are read is applied then.
    const cursor = setup.xmin;
    // Read in the order of the orders' ids (their rows and items lie in that order on disk: PGlite
    // reads them in sequence), in small slices, each statement short. An order that moves while the
    // slices are read is read again at the first look: its change is past the cursor.
    const read: OrderWithItems[] = [];
    let items = 0;
    let after = '';
    for (;;) {
      if (this.#stopped) return;
      const slice = await readOrders(
        this.#db,
        sql`select * from orders where id > ${after} order by id limit ${CHUNK}`,
        sql`i.order_id > ${after} and i.order_id <= (select max(id) from o)`,
      );
      if (!slice.last) break;
      for (const order of slice.orders) {
        read.push(order);
        items += order.items.length;
      }
      if (items > this.#options.maxItems) {
        this.#turnOff({ maxItems: this.#options.maxItems }, TOO_MANY_ITEMS);
        return;
      }
      after = slice.last;
      await yieldToOthers();
    }
    // Then put in newest change first, a slice at a time: slots come out in the order searches
    // walk them, and the event loop serves requests between two slices.
    const columns = new TrackingColumns();
    const newest = newestFirstOrder(read);
    for (let start = 0; start < newest.length; start += PUT_SLICE) {
      if (this.#stopped) return;
      columns.put(Array.from(newest.subarray(start, start + PUT_SLICE), (at) => read[at]!));
      columns.collect();
      await yieldToOthers();
    }
    columns.prepare();
    this.#columns = columns;
    this.#cursor = cursor;
    this.#applied = new Set(committed);
    this.#lastLook = Date.now();
    this.#epoch += 1;
    this.#state = 'ready';
    this.#stats.builds += 1;
    this.#stats.buildMs = Math.round(performance.now() - started);
    this.#options.log.info({ orders: columns.orders, items: columns.items, bytes: columns.bytes, ms: this.#stats.buildMs }, 'tracking search index built');
  }

  #turnOff(details: object, message: string): void {
    this.#state = 'off';
    this.#columns = new TrackingColumns();
    this.#options.log.info(details, message);
  }

  /** Every minute: a look at the changes (so a quiet index stays close), hourly pruning of old changes. */
  async #housekeeping(): Promise<void> {
    try {
      // Changes it has not read may already be pruned: start anew.
      if (this.#state === 'ready' && Date.now() - this.#lastLook > (CHANGE_RETENTION_HOURS / 2) * 3_600_000) this.#state = 'stale';
      if (this.#options.enabled) await this.#current();
      if (Date.now() - this.#lastPrune > 3_600_000) {
        this.#lastPrune = Date.now();
        // Off: nothing here reads the log, so everything older than the retention may go.
        await pruneTrackingChanges(this.#db, this.#state === 'off' ? null : this.#cursor);
      }
    } catch (error) {
      this.#options.log.warn({ err: error }, 'tracking search index: housekeeping failed');
    }
  }
}

/**
 * Removes changes older than the retention that this index has read (below its cursor), oldest
 * first, a few thousand per statement through the xid index: no scan of the whole log, no long
 * statement (PGlite runs in the request thread). Other processes' indexes look every minute and
 * start anew when they have not looked for half the retention, so they have read them too.
 */
export async function pruneTrackingChanges(db: Db, read: string | null, batch = 5_000): Promise<number> {
  const below = read === null ? sql`pg_snapshot_xmin(pg_current_snapshot())` : sql`${read}::xid8`;
  let removed = 0;
  for (;;) {
    const [oldest] = rowsOf<{ old: boolean }>(
      await db.execute(sql`
        select changed_at < now() - make_interval(hours => ${CHANGE_RETENTION_HOURS}) as old
        from tracking_changes where xid < ${below} order by xid limit 1`),
    );
    if (!oldest?.old) return removed;
    const deleted = rowsOf(
      await db.execute(sql`
        delete from tracking_changes where ctid in (
          select ctid from tracking_changes
          where xid < ${below} and changed_at < now() - make_interval(hours => ${CHANGE_RETENTION_HOURS})
          order by xid limit ${batch})
        returning 1`),
    ).length;
    removed += deleted;
    if (deleted === 0) return removed;
    await yieldToOthers();
  }
}
