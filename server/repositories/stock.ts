/**
 * Stock as §7 serves it: my stock (the user's storage locations), my team stock (the vans and
 * people of the work centers in the user's planner groups: the colleagues sharing them) and my plant stock (the user's plants; super managers: all).
 * When searching, items with a total of 0 are hidden (§5) except in show_zero_stock_material_plants
 * (stock_row_shown / is_zero_stock_plant, migration 0015) and lines the caller counts blind.
 */
import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { executeNamed, preparedOnce, rowsOf, type Db, type Tx } from '../db/client';
import { materialCounts, materials, stockCounts, stockItems, stockLocationCounts } from '../db/schema';
import { isSuperManager } from '../../src/domain/permissions';
import { bookQuantityOf, type StockType } from '../../src/domain/stock';
import type { StockItemRow } from '../../src/contract/stock';
import { likePattern, openBlindCountsCountedBy, pageOf, stockCountScope } from './stock-counts';
import { COUNT_CAP, cappedPageOf, decodeCursor, encodeCursor } from './paging';
import type { CurrentUser } from './users';

type Executor = Db | Tx;

const pairs = (user: CurrentUser, kind: string) => user.attachments.filter((a) => a.kind === kind).map((a) => [a.plant, a.code] as const);

/** The two columns a scope is about: stock rows, or the per-location tables that follow them. */
interface LocationColumns {
  plant: AnyPgColumn;
  storageLocation: AnyPgColumn;
}
const STOCK_COLUMNS: LocationColumns = { plant: stockItems.plant, storageLocation: stockItems.storageLocation };
const COUNT_COLUMNS: LocationColumns = { plant: stockLocationCounts.plant, storageLocation: stockLocationCounts.storageLocation };

function inLocations(locations: ReadonlyArray<readonly [string, string]>, columns: LocationColumns): SQL {
  if (locations.length === 0) return sql`false`;
  return or(...locations.map(([plant, code]) => and(eq(columns.plant, plant), eq(columns.storageLocation, code))))!;
}

/**
 * The caller's own storage locations, in their plants only (super managers: all), as the team
 * scope below: a storage location attached in a plant the user is not given (attached by an
 * editor of that plant, or left behind when the plant was taken away) opens none of its stock.
 */
const myStorageLocations = (user: CurrentUser) =>
  pairs(user, 'storage_location').filter(([plant]) => isSuperManager(user.grants) || user.plants.includes(plant));

/** Every scope is a set of storage locations: mine, my team's, or those of my plants. */
export function stockScope(user: CurrentUser, type: StockType, columns: LocationColumns = STOCK_COLUMNS): SQL | undefined {
  if (type === 'my_stock') return inLocations(myStorageLocations(user), columns);
  if (type === 'my_plant_stock') {
    if (isSuperManager(user.grants)) return undefined;
    return user.plants.length ? inArray(columns.plant, user.plants) : sql`false`;
  }
  const workCenters = pairs(user, 'work_center');
  const plannerGroups = pairs(user, 'planner_group');
  if (workCenters.length === 0 && plannerGroups.length === 0) return inLocations(myStorageLocations(user), columns);
  // Work centres and planner groups are codes within a plant (another plant may use the same
  // code): every match pairs the plant with the code, as the tracking scope does.
  const pairList = (list: ReadonlyArray<readonly [string, string]>) =>
    list.length ? sql.join(list.map(([plant, code]) => sql`(${plant}::text, ${code}::text)`), sql`, `) : sql`(null::text, null::text)`;
  const wc = pairList(workCenters);
  const pg = pairList(plannerGroups);
  // Only in the caller's plants, as the tracking scope: a work centre of a plant they are not
  // given (an attachment left behind when a plant was taken away) does not open its stock.
  const inMyPlants = isSuperManager(user.grants) ? sql`true` : inArray(sql`w.plant`, user.plants);
  // Team: the work centers of my planner groups (mine, or those my work centers belong to),
  // their vans, and the storage locations of the people attached to them in the work centre's
  // plant (a teammate's place in another plant is not the team's: the caller may not work there).
  return sql`(${columns.plant}, ${columns.storageLocation}) in (
      with team as (
        select w.plant, w.code from work_centers w
        where ((w.plant, w.code) in (${wc})
           or (w.plant, w.planner_group) in (${pg})
           or (w.plant, w.planner_group) in (select plant, planner_group from work_centers where (plant, code) in (${wc})))
          and ${inMyPlants}
      )
      select sl.plant, sl.code from storage_locations sl join team t on t.plant = sl.plant and t.code = sl.work_center
      union
      select a2.plant, a2.code from user_attachments a2
        where a2.kind = 'storage_location' and (a2.user_id, a2.plant) in (
          select a.user_id, a.plant from user_attachments a join team t on a.kind = 'work_center' and a.plant = t.plant and a.code = t.code))`;
}

const num = (value: string | null) => (value === null ? null : Number(value));
/** §3 total (stock_total, the SQL twin of totalQuantity). */
const totalSql = sql`stock_total(${stockItems.unrestrictedCount}, ${stockItems.qualityInspectionCount}, ${stockItems.blockedCount}, ${stockItems.restrictedCount}, ${stockItems.transferCount})`;

/** The list-order key of a stock row (plant, storage location, material: unique), as a keyset cursor holds it. */
export type StockCursor = readonly [plant: string, storageLocation: string, materialCode: string];

/** A stock cursor (docs/decisions/0035, addendum 2026-11-25), or null when the text is not one (the route answers 400). */
export function stockCursor(after: string): StockCursor | null {
  const key = decodeCursor(after, 3);
  return key ? [key[0]!, key[1]!, key[2]!] : null;
}

/** Rows after a cursor in list order: a row comparison the (plant, storage location, material) index answers. */
const afterKey = (cursor: StockCursor) =>
  sql`(${stockItems.plant}, ${stockItems.storageLocation}, ${stockItems.materialCode}) > (${cursor[0]}, ${cursor[1]}, ${cursor[2]})`;

interface ListOptions {
  query?: string;
  page: number;
  maxResults: number;
  /** The page before's next_cursor, decoded (stockCursor): read after it instead of by offset. */
  after?: StockCursor;
}

export async function listStock(db: Executor, user: CurrentUser, type: StockType, options: ListOptions) {
  const search = options.query?.trim();
  if (search) return searchStock(db, user, type, search, options);
  const offset = (options.page - 1) * options.maxResults;
  // After a cursor no location of the page is needed (an empty slice), only the totals.
  const { total, locations, slice } = await locationsOf(db, user, type, offset, options.after ? 0 : options.maxResults);
  const paging = pageOf(total, options.page, options.maxResults);
  // After a cursor the page is the scope's rows past its key (the index, from there), at the same
  // cost at any depth; a page number alone is found through the per-location counts (0012).
  const rows = options.after
    ? await toStockRows(db, await idsAfter(db, and(stockScope(user, type), afterKey(options.after)), options.maxResults))
    : await toStockRows(db, await idsOfPage(db, slice, offset, options.maxResults));
  const hasNext = options.after ? rows.length > options.maxResults : paging.envelope.has_next;
  const pageRows = rows.slice(0, options.maxResults);
  const envelope = options.after ? { ...paging.envelope, has_next: hasNext, pages: hasNext ? Math.max(paging.envelope.pages, options.page + 1) : paging.envelope.pages } : paging.envelope;
  return { ...envelope, total, storage_location_count: locations, counts_capped: [], next_cursor: nextCursorOf(pageRows, hasNext, options.maxResults), stock_items: pageRows };
}

/** Up to maxResults + 1 ids of the rows `where` keeps, in list order (the one more says whether another page follows). */
async function idsAfter(db: Executor, where: SQL | undefined, maxResults: number): Promise<number[]> {
  const rows = await db
    .select({ id: stockItems.id })
    .from(stockItems)
    .where(where)
    .orderBy(...ORDER)
    .limit(maxResults + 1);
  return rows.map((row) => row.id);
}

/** The cursor of a full page that another follows: its last row's list-order key. */
function nextCursorOf(rows: StockItemRow[], hasNext: boolean, maxResults: number): string | null {
  const last = rows[maxResults - 1];
  return hasNext && last ? encodeCursor([last.plant, last.storage_location, last.material_code]) : null;
}

/**
 * A search (§5, docs/decisions/0021): rows whose material (code or description), bin or storage
 * location matches, where rows with a total of 0 are hidden except in plants that show zero stock
 * and the lines the caller counts blind (blindCountsOf) (stock_row_shown, stock_total, is_zero_stock_plant: the SQL twins of src/domain/stock, decision
 * 0022). The catalogue is small: the matching materials come first (trigram indexes), then
 * PostgreSQL reads the scope's matching rows through the material, bin (trigram; for a term of
 * 1–2 characters the matching bins first, decision 0035) and location indexes (a BitmapOr). The counts stop at COUNT_CAP + 1 rows (a lower bound above it, named in
 * `counts_capped`); the page is read in list order with one row more, which says if another follows.
 */
async function searchStock(db: Executor, user: CurrentUser, type: StockType, search: string, options: ListOptions) {
  const pattern = likePattern(search);
  // The catalogue's matching materials first (trigram indexes), sent back as one array value: PostgreSQL
  // plans with it (a constant), so a few codes are an index condition ORed with the bin and location
  // bitmaps, and many are hashed once instead of compared one by one on every row.
  // A term of 1–2 characters has no trigram, and `bin ilike` walked every row of the scope for it
  // (docs/decisions/0035): its bins are matched first among the few hundred distinct ones, read
  // through stock_items_bin_idx one step per bin (a skip scan), and their rows read through the
  // same index. Longer terms keep the trigram index on the rows' bins (no walk of every bin).
  const short = search.length < 3;
  const [matching] = rowsOf<{ codes: string[] | null; bins: string[] | null }>(
    await db.execute(sql`
      select (select array_agg(${materials.code}) from ${materials} where ${or(ilike(materials.code, pattern), ilike(materials.descriptionEnglish, pattern))}) as codes,
      ${
        short
          ? sql`(with recursive bins(bin) as (
                  (select ${stockItems.bin} from ${stockItems} where ${stockItems.bin} is not null order by ${stockItems.bin} limit 1)
                  union all
                  select (select s.bin from ${stockItems} s where s.bin > bins.bin order by s.bin limit 1) from bins where bins.bin is not null
                ) select array_agg(bin) from bins where bin ilike ${pattern})`
          : sql`null::text[]`
      } as bins`),
  );
  const codes = sql`${sql.param(matching?.codes ?? [])}::text[]`;
  const byBin = short ? sql`${stockItems.bin} = any(${sql.param(matching?.bins ?? [])}::text[])` : ilike(stockItems.bin, pattern);
  const zeroRule = sql`stock_row_shown(${totalSql}, is_zero_stock_plant(${stockItems.plant}, (select zero_stock_plants())))`;
  // A line the caller counts blind stays whatever its total: dropped exactly when the book is 0,
  // its absence told the hidden quantity the list shows as "Blind count" (decision 0064).
  const blind = await blindCountsOf(db, user);
  const shown = blind.length
    ? or(
        zeroRule,
        sql`(${stockItems.plant}, ${stockItems.storageLocation}, ${stockItems.materialCode}) in (
          select ${stockCounts.plant}, ${stockCounts.storageLocation}, ${materialCounts.materialCode}
          from ${materialCounts} join ${stockCounts} on ${stockCounts.id} = ${materialCounts.stockCountId}
          where ${materialCounts.stockCountId} = any(${sql.param(blind)}::int[]))`,
      )
    : zeroRule;
  const where = and(
    stockScope(user, type),
    // A storage location as typed or in capitals (codes are written in capitals: "v001" finds V001,
    // as the app keys its copies of a search without case), through the storage location's index.
    or(sql`${stockItems.materialCode} = any(${codes})`, byBin, inArray(stockItems.storageLocation, [...new Set([search, search.toUpperCase()])])),
    shown,
  );
  // After a cursor the page starts past its key (a row comparison on the list order's index):
  // the same cost at any depth; a page number alone is an offset (docs/decisions/0035 addendum).
  // PostgreSQL takes the rows past a key for very few, so a rare term (781 rows of a material)
  // was read by walking the index from the key, through every row after it (150 ms at scale
  // 500). When the count says the matching rows are within the cap, they are read whole through
  // their own indexes (`offset 0` keeps that subquery apart) and sorted; only a broader search
  // walks from the key. The branch not taken is never run (its subquery is evaluated lazily).
  const offset = options.after ? 0 : (options.page - 1) * options.maxResults;
  const listed = (where: SQL | undefined) => sql`select ${stockItems.id} as id from ${stockItems} where ${where}
        order by ${stockItems.plant}, ${stockItems.storageLocation}, ${stockItems.materialCode} limit ${options.maxResults + 1} offset ${offset}`;
  const ids = options.after
    ? sql`case when (select count(*) from counted) <= ${COUNT_CAP}
        then (select array_agg(id) from (
          select m.id from (select ${stockItems.id} as id, ${stockItems.plant} as plant, ${stockItems.storageLocation} as location, ${stockItems.materialCode} as material
            from ${stockItems} where ${where} offset 0) m
          where (m.plant, m.location, m.material) > (${options.after[0]}, ${options.after[1]}, ${options.after[2]})
          order by m.plant, m.location, m.material limit ${options.maxResults + 1}) page)
        else (select array_agg(id) from (${listed(and(where, afterKey(options.after)))}) page) end`
    : sql`(select array_agg(id) from (${listed(where)}) page)`;
  const result = await db.execute(sql`
    with counted as (select ${stockItems.plant} as plant, ${stockItems.storageLocation} as location from ${stockItems} where ${where} limit ${COUNT_CAP + 1})
    select (select count(*) from counted)::int as total,
      (select count(*) from (select distinct plant, location from counted) l)::int as locations,
      ${ids} as ids`);
  const [row] = rowsOf<{ total: number; locations: number; ids: Array<number | string> | null }>(result);
  const counted = Number(row?.total ?? 0);
  const capped = counted > COUNT_CAP;
  const total = capped ? COUNT_CAP : counted;
  const pageIds = (row?.ids ?? []).map(Number);
  const hasNext = pageIds.length > options.maxResults;
  const paging = cappedPageOf(total, capped, options.page, options.maxResults, hasNext, pageIds.length);
  const pageRows = await toStockRows(db, pageIds.slice(0, options.maxResults));
  return {
    ...paging.envelope,
    total,
    storage_location_count: Number(row?.locations ?? 0),
    counts_capped: capped ? (['total', 'storage_location_count'] as const).slice() : [],
    next_cursor: nextCursorOf(pageRows, hasNext, options.maxResults),
    stock_items: pageRows,
  };
}

/**
 * The ids of the caller's open, sent blind counts they count and do not plan or oversee: those
 * whose lines the stock screen hides (blindLinesOf, which reads them the same way). By the index on
 * who conducts them: none for nearly every search, which then costs this one small read.
 */
async function blindCountsOf(db: Executor, user: CurrentUser): Promise<number[]> {
  // Super managers, the read-only one too, read every book quantity (decision 0063).
  if (isSuperManager(user.grants)) return [];
  const counts = await openBlindCountsCountedBy(db, user);
  if (counts.length === 0) return [];
  const overseer = await stockCountScope(db, user, 'overseer');
  if (overseer === undefined) return [];
  const blind = await db.select({ id: stockCounts.id }).from(stockCounts).where(and(inArray(stockCounts.id, counts.map((count) => count.id)), sql`not (${overseer})`));
  return blind.map((count) => count.id);
}

const ORDER = [asc(stockItems.plant), asc(stockItems.storageLocation), asc(stockItems.materialCode)];

/** The rows of a page, by id, in list order, with their material's description and unit. */
async function toStockRows(db: Executor, ids: number[]): Promise<StockItemRow[]> {
  // Per-row look-ups of the material (a page is small): a join would hash the whole catalogue.
  const ofMaterial = (column: typeof materials.descriptionEnglish | typeof materials.unit) =>
    sql<string>`(select ${column} from ${materials} where ${materials.code} = ${stockItems.materialCode})`;
  // The ids are one array parameter: one text for any page, prepared (its plan, the rows by key,
  // is every page's; docs/decisions/0044).
  const statement = preparedOnce(db, 'stock_rows', () =>
    db
      .select({ item: stockItems, description: ofMaterial(materials.descriptionEnglish), unit: ofMaterial(materials.unit) })
      .from(stockItems)
      .where(sql`${stockItems.id} = any(${sql.placeholder('ids')}::bigint[])`)
      .orderBy(...ORDER),
  );
  const rows = ids.length ? await statement.execute({ ids }) : [];
  return rows.map(({ item, description, unit }) => {
    const counts = {
      unrestricted_count: num(item.unrestrictedCount),
      quantity_inspection_count: num(item.qualityInspectionCount),
      blocked_count: num(item.blockedCount),
      restricted_count: num(item.restrictedCount),
      transfer_count: num(item.transferCount),
    };
    return {
      id: item.id,
      bin: item.bin,
      material_code: item.materialCode,
      material_description_english: description,
      unit,
      planner_groups: item.plannerGroups,
      plant: item.plant,
      storage_location: item.storageLocation,
      reorder_point: num(item.reorderPoint),
      reorder_quantity: num(item.reorderQuantity),
      work_centers: item.workCenters,
      ...counts,
      // Rounded to the thousandths quantities have (§5): the plain sum of 1.1 + 2.2 was
      // 3.3000000000000003, above a reorder point of 3.3, and the row lost its "Reorder" chip.
      total_quantity: bookQuantityOf(counts),
    };
  });
}

/** A storage location of a page: its rows, and the scope's rows in the locations before it (list order). */
interface LocationItems {
  plant: string;
  storageLocation: string;
  items: number;
  before: number;
}

/**
 * The scope's rows and storage locations, and the locations rows offset … offset + maxResults lie
 * in, from the per-location counts (a small table, never the rows), in one statement: a running
 * sum in list order says where each location starts. Only the page's few locations cross from the
 * database; the super manager's 9,000 crossed as one 213 KB JSON array for every page (33-42 ms
 * of the database's time at scale 500, then parsed here; decision 0042).
 */
async function locationsOf(db: Executor, user: CurrentUser, type: StockType, offset: number, maxResults: number) {
  const c = stockLocationCounts;
  // Prepared (docs/decisions/0044): one text per kind of scope, whose plan the page's numbers (a
  // filter on the scope's few locations) do not change.
  const [row] = rowsOf<{ total: number | string | null; locations: number; slice: Array<[string, string, number, number | string]> | string | null }>(
    await executeNamed(db, 'stock_locations', sql`
      with located as (
        select ${c.plant} as plant, ${c.storageLocation} as location, ${c.items} as items,
          sum(${c.items}) over (order by ${c.plant}, ${c.storageLocation}) as upto
        from ${c} where ${stockScope(user, type, COUNT_COLUMNS) ?? sql`true`})
      select (select sum(items) from located) as total, (select count(*) from located)::int as locations,
        (select json_agg(json_build_array(plant, location, items, upto - items) order by plant, location)
          from located where ${maxResults} > 0 and upto > ${offset} and upto - items < ${offset + maxResults}) as slice`),
  );
  const slice = typeof row?.slice === 'string' ? (JSON.parse(row.slice) as Array<[string, string, number, number]>) : (row?.slice ?? []);
  return {
    total: Number(row?.total ?? 0),
    locations: Number(row?.locations ?? 0),
    slice: slice.map(([plant, storageLocation, items, before]): LocationItems => ({ plant, storageLocation, items: Number(items), before: Number(before) })),
  };
}

/**
 * The ids of a page without OFFSET over the whole scope: the page's locations (locationsOf) say how
 * far into the first it starts; one query reads just those locations, through the (plant, storage
 * location, material) index.
 */
async function idsOfPage(db: Executor, slice: LocationItems[], offset: number, maxResults: number): Promise<number[]> {
  const first = slice[0];
  if (!first) return [];
  const rows = await db
    .select({ id: stockItems.id })
    .from(stockItems)
    .where(inLocations(slice.map((location) => [location.plant, location.storageLocation] as const), STOCK_COLUMNS))
    .orderBy(...ORDER)
    .limit(maxResults)
    .offset(offset - first.before);
  return rows.map((row) => row.id);
}
