/**
 * Stock as §7 serves it: my stock (the user's storage locations), my team stock (the vans and
 * people of the work centers in the user's planner groups: the colleagues sharing them) and my plant stock (the user's plants; super managers: all).
 * When searching, items with a total of 0 are hidden (§5) except in show_zero_stock_material_plants.
 */
import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';
import { allowedPlants, materials, stockItems, stockLocationCounts, stockLocationMaterials, stockMaterialBits } from '../db/schema';
import { isSuperManager } from '../../src/domain/permissions';
import { totalQuantity, type StockType } from '../../src/domain/stock';
import type { StockItemRow } from '../../src/contract/stock';
import { likePattern, pageOf } from './stock-counts';
import type { CurrentUser } from './users';

type Executor = Db | Tx;

const codes = (user: CurrentUser, kind: string) => user.attachments.filter((a) => a.kind === kind).map((a) => a.code);
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

/** Every scope is a set of storage locations: mine, my team's, or those of my plants. */
export function stockScope(user: CurrentUser, type: StockType, columns: LocationColumns = STOCK_COLUMNS): SQL | undefined {
  if (type === 'my_stock') return inLocations(pairs(user, 'storage_location'), columns);
  if (type === 'my_plant_stock') {
    if (isSuperManager(user.grants)) return undefined;
    return user.plants.length ? inArray(columns.plant, user.plants) : sql`false`;
  }
  const workCenters = codes(user, 'work_center');
  const plannerGroups = codes(user, 'planner_group');
  if (workCenters.length === 0 && plannerGroups.length === 0) return inLocations(pairs(user, 'storage_location'), columns);
  const wc = workCenters.length ? sql`array[${sql.join(workCenters.map((c) => sql`${c}`), sql`, `)}]::text[]` : sql`array[]::text[]`;
  const pg = plannerGroups.length ? sql`array[${sql.join(plannerGroups.map((c) => sql`${c}`), sql`, `)}]::text[]` : sql`array[]::text[]`;
  // Team: the work centers of my planner groups (mine, or those my work centers belong to),
  // their vans, and the storage locations of the people attached to them.
  return sql`(${columns.plant}, ${columns.storageLocation}) in (
      with team as (
        select w.plant, w.code from work_centers w
        where w.code = any(${wc})
           or w.planner_group = any(${pg})
           or w.planner_group in (select planner_group from work_centers where code = any(${wc}))
      )
      select sl.plant, sl.code from storage_locations sl join team t on t.plant = sl.plant and t.code = sl.work_center
      union
      select a2.plant, a2.code from user_attachments a2
        where a2.kind = 'storage_location' and a2.user_id in (
          select a.user_id from user_attachments a join team t on a.kind = 'work_center' and a.plant = t.plant and a.code = t.code))`;
}

const num = (value: string | null) => (value === null ? null : Number(value));
const totalSql = sql`(${stockItems.unrestrictedCount} + ${stockItems.qualityInspectionCount} + ${stockItems.blockedCount} + ${stockItems.restrictedCount} + ${stockItems.transferCount})`;

export async function listStock(db: Executor, user: CurrentUser, type: StockType, options: { query?: string; page: number; maxResults: number }) {
  const search = options.query?.trim();
  if (search) return searchStock(db, user, type, search, options);
  const locations = await locationsOf(db, user, type);
  const total = locations.reduce((sum, location) => sum + location.items, 0);
  const paging = pageOf(total, options.page, options.maxResults);
  const ids = await idsOfPage(db, locations, paging.offset, options.maxResults);
  return { ...paging.envelope, total, storage_location_count: locations.length, stock_items: await toStockRows(db, ids) };
}

/**
 * A search (§5): rows whose material (code or description), bin or storage location matches,
 * where items with a total of 0 are hidden except in show_zero_stock_material_plants. The
 * catalogue is small: the matching materials come first, as a mask over their bits
 * (stock_material_bits). Each location of the scope then counts its matches without reading its
 * rows: bit_count(its held or shown bits & mask), plus the rows matched by bin only (trigram
 * index, few), or all its shown rows when the term is its code. Those per-location counts give
 * the total, the location count and where the page starts, as without a term.
 */
async function searchStock(db: Executor, user: CurrentUser, type: StockType, search: string, options: { page: number; maxResults: number }) {
  const pattern = likePattern(search);
  const [zeroRows, matching] = await Promise.all([
    db.select({ plant: allowedPlants.plant }).from(allowedPlants).where(eq(allowedPlants.parameter, 'show_zero_stock_material_plants')),
    db
      .select({ code: materials.code, bit: stockMaterialBits.bit })
      .from(materials)
      .leftJoin(stockMaterialBits, eq(stockMaterialBits.materialCode, materials.code))
      .where(or(ilike(materials.code, pattern), ilike(materials.descriptionEnglish, pattern))),
  ]);
  const zeroPlants = sql.param(zeroRows.map((r) => r.plant));
  // As a sub-select, the planner takes the list as one value instead of estimating each code.
  const codes = sql`((select ${sql.param(matching.map((m) => m.code))}::text[])::text[])`;
  const mask = bitString(matching.map((m) => m.bit).filter((bit): bit is number => bit !== null));
  // §5: a row counts when its total is not 0, or in a plant that shows zero stock.
  const shown = sql`(coalesce(${totalSql}, 1) <> 0 or ${stockItems.plant} = any(${zeroPlants}::text[]))`;
  const byBinOnly = db
    .select({ plant: stockItems.plant, storageLocation: stockItems.storageLocation, n: sql<number>`count(*)`.as('n') })
    .from(stockItems)
    .where(
      and(
        stockScope(user, type),
        ilike(stockItems.bin, pattern),
        sql`${stockItems.storageLocation} <> ${search}`,
        sql`${stockItems.materialCode} <> all(${codes})`,
        shown,
      ),
    )
    .groupBy(stockItems.plant, stockItems.storageLocation)
    .as('by_bin');
  const l = stockLocationMaterials;
  // A location named by the term matches with all its rows; others by material, or by bin only.
  const matchesIn = (bits: AnyPgColumn) => {
    const width = sql`least(length(${bits}), ${mask.length}::int)`;
    return sql`case when ${l.storageLocation} = ${search} then bit_count(${bits})
      else bit_count(substring(${bits} from 1 for ${width}) & substring(${mask}::varbit from 1 for ${width})) + coalesce(${byBinOnly.n}, 0) end`;
  };
  const matches = sql<number>`(case when ${l.plant} = any(${zeroPlants}::text[]) then ${matchesIn(l.held)} else ${matchesIn(l.shown)} end)::int`;
  const counted = db
    .select({ plant: l.plant, storageLocation: l.storageLocation, items: matches.as('items') })
    .from(l)
    .leftJoin(byBinOnly, and(eq(byBinOnly.plant, l.plant), eq(byBinOnly.storageLocation, l.storageLocation)))
    .where(stockScope(user, type, { plant: l.plant, storageLocation: l.storageLocation }))
    .offset(0) // keeps the subquery whole, so `items > 0` does not count every location twice
    .as('counted');
  const locations = await inOrder(db, counted, counted, sql`${counted.items} > 0`);
  const total = locations.reduce((sum, location) => sum + location.items, 0);
  const paging = pageOf(total, options.page, options.maxResults);
  const match = and(
    or(sql`${stockItems.materialCode} = any(${codes})`, ilike(stockItems.bin, pattern), eq(stockItems.storageLocation, search)),
    shown,
  );
  const ids = await idsOfPage(db, locations, paging.offset, options.maxResults, match);
  return { ...paging.envelope, total, storage_location_count: locations.length, stock_items: await toStockRows(db, ids) };
}

/** '0101…': position b is 1 for each b of `bits` ('' for none). */
function bitString(bits: number[]): string {
  if (bits.length === 0) return '';
  const chars = new Array<string>(bits.reduce((top, bit) => Math.max(top, bit), 0) + 1).fill('0');
  for (const bit of bits) chars[bit] = '1';
  return chars.join('');
}

const ORDER = [asc(stockItems.plant), asc(stockItems.storageLocation), asc(stockItems.materialCode)];

/** The rows of a page, by id, in list order, with their material's description and unit. */
async function toStockRows(db: Executor, ids: number[]): Promise<StockItemRow[]> {
  // Per-row look-ups of the material (a page is small): a join would hash the whole catalogue.
  const ofMaterial = (column: typeof materials.descriptionEnglish | typeof materials.unit) =>
    sql<string>`(select ${column} from ${materials} where ${materials.code} = ${stockItems.materialCode})`;
  const rows = ids.length
    ? await db
        .select({ item: stockItems, description: ofMaterial(materials.descriptionEnglish), unit: ofMaterial(materials.unit) })
        .from(stockItems)
        .where(inArray(stockItems.id, ids))
        .orderBy(...ORDER)
    : [];
  return rows.map(({ item, description, unit }) => {
    const counts = {
      unrestricted_count: num(item.unrestrictedCount),
      quality_inspection_count: num(item.qualityInspectionCount),
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
      total_quantity: totalQuantity(counts),
    };
  });
}

/** The scope's locations with how many rows each holds, in list order (a small table, never the rows). */
async function locationsOf(db: Executor, user: CurrentUser, type: StockType) {
  const c = stockLocationCounts;
  return inOrder(db, { plant: c.plant, storageLocation: c.storageLocation, items: c.items }, c, stockScope(user, type, COUNT_COLUMNS));
}

interface LocationItems {
  plant: string;
  storageLocation: string;
  items: number;
}

/**
 * (plant, storage location, items) rows in list order, as one JSON array: a scope has up to a
 * few thousand locations, and one value crosses from the database (PGlite above all) much faster
 * than as many rows.
 */
async function inOrder(
  db: Executor,
  columns: { plant: AnyPgColumn | SQL.Aliased; storageLocation: AnyPgColumn | SQL.Aliased; items: AnyPgColumn | SQL.Aliased },
  from: Parameters<ReturnType<Executor['select']>['from']>[0],
  where: SQL | undefined,
): Promise<LocationItems[]> {
  const [row] = await db
    .select({
      list: sql<Array<[string, string, number | string]> | string | null>`json_agg(json_build_array(${columns.plant}, ${columns.storageLocation}, ${columns.items})
        order by ${columns.plant}, ${columns.storageLocation})`,
    })
    .from(from)
    .where(where);
  const list = typeof row?.list === 'string' ? (JSON.parse(row.list) as Array<[string, string, number]>) : (row?.list ?? []);
  return list.map(([plant, storageLocation, items]) => ({ plant, storageLocation, items: Number(items) }));
}

/**
 * The ids of a page without OFFSET over the whole scope: the per-location counts (of the rows
 * `filter` keeps, when searching) say in which locations the page lies and how far into the first
 * it starts; one query reads just those locations, through the (plant, storage location,
 * material) index.
 */
async function idsOfPage(
  db: Executor,
  locations: Array<{ plant: string; storageLocation: string; items: number }>,
  offset: number,
  maxResults: number,
  filter?: SQL,
): Promise<number[]> {
  let skip = offset;
  let first = 0;
  while (first < locations.length && skip >= locations[first]!.items) {
    skip -= locations[first]!.items;
    first += 1;
  }
  const slice: Array<readonly [string, string]> = [];
  for (let i = first, room = skip + maxResults; i < locations.length && room > 0; i += 1) {
    slice.push([locations[i]!.plant, locations[i]!.storageLocation]);
    room -= locations[i]!.items;
  }
  if (slice.length === 0) return [];
  const rows = await db
    .select({ id: stockItems.id })
    .from(stockItems)
    .where(and(inLocations(slice, STOCK_COLUMNS), filter))
    .orderBy(...ORDER)
    .limit(maxResults)
    .offset(skip);
  return rows.map((row) => row.id);
}
