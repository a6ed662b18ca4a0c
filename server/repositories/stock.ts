/**
 * Stock as §7 serves it: my stock (the user's storage locations), my team stock (the vans and
 * people of the work centers in the user's planner groups: the colleagues sharing them) and my plant stock (the user's plants; super managers: all).
 * When searching, items with a total of 0 are hidden (§5) except in show_zero_stock_material_plants.
 */
import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { allowedPlants, materials, stockItems, stockLocationCounts } from '../db/schema';
import { isSuperManager } from '../../src/domain/permissions';
import { totalQuantity, type StockType } from '../../src/domain/stock';
import type { StockItemRow } from '../../src/contract/stock';
import { likePattern, pageOf } from './stock-counts';
import type { CurrentUser } from './users';

type Executor = Db | Tx;

const codes = (user: CurrentUser, kind: string) => user.attachments.filter((a) => a.kind === kind).map((a) => a.code);
const pairs = (user: CurrentUser, kind: string) => user.attachments.filter((a) => a.kind === kind).map((a) => [a.plant, a.code] as const);

/** The two columns a scope is about: stock rows, or the per-location counts that follow them. */
interface LocationColumns {
  plant: typeof stockItems.plant | typeof stockLocationCounts.plant;
  storageLocation: typeof stockItems.storageLocation | typeof stockLocationCounts.storageLocation;
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
  const zeroPlants = search
    ? (await db.select({ plant: allowedPlants.plant }).from(allowedPlants).where(eq(allowedPlants.parameter, 'show_zero_stock_material_plants'))).map((r) => r.plant)
    : [];
  // The catalogue is small: find the matching materials first, then filter stock by code.
  const matching = search
    ? (
        await db
          .select({ code: materials.code })
          .from(materials)
          .where(or(ilike(materials.code, likePattern(search)), ilike(materials.descriptionEnglish, likePattern(search))))
      ).map((m) => m.code)
    : [];
  const where = and(
    stockScope(user, type),
    search
      ? or(
          matching.length ? inArray(stockItems.materialCode, matching) : undefined,
          ilike(stockItems.bin, likePattern(search)),
          eq(stockItems.storageLocation, search),
        )
      : undefined,
    // §5: items with quantity 0 are hidden when searching, except where a plant wants them shown.
    search
      ? or(sql`coalesce(${totalSql}, 1) <> 0`, zeroPlants.length ? inArray(stockItems.plant, zeroPlants) : undefined)
      : undefined,
  );
  if (!search) {
    const locations = await locationsOf(db, user, type);
    const total = locations.reduce((sum, location) => sum + location.items, 0);
    const paging = pageOf(total, options.page, options.maxResults);
    const ids = await idsOfPage(db, locations, paging.offset, options.maxResults);
    return { ...paging.envelope, total, storage_location_count: locations.length, stock_items: await toStockRows(db, ids) };
  }
  // Counting is most of the cost on big plants: one pass grouped by location gives both the
  // item total and the location count.
  const grouped = db
    .select({ n: sql<number>`count(*)`.as('n') })
    .from(stockItems)
    .where(where)
    .groupBy(stockItems.plant, stockItems.storageLocation)
    .as('grouped');
  const [counts] = await db
    .select({ total: sql<number>`coalesce(sum(${grouped.n}), 0)::int`, locations: sql<number>`count(*)::int` })
    .from(grouped);
  const total = Number(counts?.total ?? 0);
  const paging = pageOf(total, options.page, options.maxResults);
  // Deferred join: walk the (plant, location, material) index for the page's ids, then join.
  const ids = (await db.select({ id: stockItems.id }).from(stockItems).where(where).orderBy(...ORDER).limit(options.maxResults).offset(paging.offset)).map(
    (row) => row.id,
  );
  return { ...paging.envelope, total, storage_location_count: Number(counts?.locations ?? 0), stock_items: await toStockRows(db, ids) };
}

const ORDER = [asc(stockItems.plant), asc(stockItems.storageLocation), asc(stockItems.materialCode)];

/** The rows of a page, by id, in list order, with their material's description and unit. */
async function toStockRows(db: Executor, ids: number[]): Promise<StockItemRow[]> {
  const rows = ids.length
    ? await db
        .select({ item: stockItems, description: materials.descriptionEnglish, unit: materials.unit })
        .from(stockItems)
        .innerJoin(materials, eq(materials.code, stockItems.materialCode))
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
  return db
    .select({ plant: stockLocationCounts.plant, storageLocation: stockLocationCounts.storageLocation, items: stockLocationCounts.items })
    .from(stockLocationCounts)
    .where(stockScope(user, type, COUNT_COLUMNS))
    .orderBy(asc(stockLocationCounts.plant), asc(stockLocationCounts.storageLocation));
}

/**
 * The ids of a page without OFFSET over the whole scope: the per-location counts say in which
 * location the page starts and how far into it; each location is then read through the
 * (plant, storage location, material) index, from that point, until the page is full.
 */
async function idsOfPage(
  db: Executor,
  locations: Array<{ plant: string; storageLocation: string; items: number }>,
  offset: number,
  maxResults: number,
): Promise<number[]> {
  let skip = offset;
  const ids: number[] = [];
  for (const location of locations) {
    if (ids.length >= maxResults) break;
    if (skip >= location.items) {
      skip -= location.items;
      continue;
    }
    const rows = await db
      .select({ id: stockItems.id })
      .from(stockItems)
      .where(and(eq(stockItems.plant, location.plant), eq(stockItems.storageLocation, location.storageLocation)))
      .orderBy(asc(stockItems.materialCode))
      .limit(maxResults - ids.length)
      .offset(skip);
    ids.push(...rows.map((row) => row.id));
    skip = 0;
  }
  return ids;
}
