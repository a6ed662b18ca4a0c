/**
 * Stock counts and their material counts, scoped to what the caller may see (§6): super managers
 * everything; stock admins and customer-service admins the counts of their plants; supervisors
 * the counts of their planner groups (#20: §6 attaches planner groups to supervisors); a mechanic
 * — and anyone else — the counts assigned to them (conducted_by) in their plants, once sent.
 * Outside super managers, only stock_count_allowed_plants count at all. A count outside the scope
 * is "not found". A read-only super manager reads every count and changes them only as its other
 * roles allow (decision 0063).
 */
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { allowedPlants, materialCounts, materials, stockCountParts, stockCounts, stockItems, workCenters } from '../db/schema';
import { isSuperManager, writesEverywhere } from '../../src/domain/permissions';
import { bookQuantityMoved, bookQuantityOf } from '../../src/domain/stock';
import { EDITABLE_COUNT_STATUSES, type StockCountStatus } from '../../src/domain/constants';
import type { MaterialCountRow, StockCountRow } from '../../src/contract/stock';
import { HttpError } from '../plugins/errors';
import type { CurrentUser } from './users';

type Executor = Db | Tx;


/** Roles that plan every count of their plants (not held to planner groups). */
const PLANT_WIDE_PLANNERS = ['stock_admin'];
/**
 * Roles that read every count of their plants. custom_service_admin reads stock management (§6)
 * and plans nothing: held by a supervisor, it must not lift the planner-group limit, nor make the
 * plant's counts the supervisor's to plan.
 */
const PLANT_WIDE_READERS = ['stock_admin', 'custom_service_admin'];

/**
 * The planner group a count belongs to: its own (set when it is planned), else that of its work
 * center (counts planned before the column was filled). A count with neither belongs to no
 * planner group: its plant's stock admins see it, supervisors do not.
 */
export const countPlannerGroupSql = sql<string | null>`coalesce(${stockCounts.plannerGroup}, (select ${workCenters.plannerGroup} from ${workCenters} where ${workCenters.plant} = ${stockCounts.plant} and ${workCenters.code} = ${stockCounts.workCenter}))`;

/**
 * A line whose counted quantity differs from its book quantity: what a recount recounts and what
 * `has_differences` tells. No book quantity is a book of 0, as src/domain/stock.ts reads it
 * (bookQuantityMoved): a line counted 0 of a material the location had no stock of matches its
 * book. A line not counted yet differs.
 */
export const lineDiffersFromBookSql = sql<boolean>`${materialCounts.quantity} is distinct from coalesce(${materialCounts.bookQuantity}, 0)`;

/**
 * The planner groups a planner is held to (supervisors, #20), or null when the whole plant is
 * theirs (the super manager, stock admins). Per plant: a planner group code belongs to one plant.
 * A read-only super manager plans as its other roles (decision 0063): a supervisor's groups.
 */
export function plannerGroupLimit(user: CurrentUser): Array<{ plant: string; code: string }> | null {
  if (writesEverywhere(user.grants) || user.grants.some((grant) => PLANT_WIDE_PLANNERS.includes(grant))) return null;
  return user.attachments.filter((a) => a.kind === 'planner_group').map(({ plant, code }) => ({ plant, code }));
}

/**
 * The counts a caller sees (`any`), plans (`plan`: as a planner or overseer, not only because they
 * count them: #18 tells the two apart, a counter of a split count reads only their part, a counter
 * of a blind count gets no book quantity), or may change (`write`: a plant-wide reader's reading is
 * not counting, decision 0054). Every super manager reads every count; only the super manager
 * plans and changes them all: a read-only super manager plans and writes as its other roles
 * (decision 0063), and nowhere without one.
 *
 * `overseer` is what `oversees` answers, for reading and changing alike: `plan`, and for a
 * read-only super manager also every count it may not change at all, which it reads whole as
 * today. Its changes are held to `write` first (findStockCount with a lock, PUT quantities), so
 * on the counts it may change it is a planner only where `plan` says.
 */
export async function stockCountScope(db: Executor, user: CurrentUser, as: 'any' | 'overseer' | 'plan' | 'write' = 'any'): Promise<SQL | undefined> {
  if (writesEverywhere(user.grants)) return undefined;
  if (isSuperManager(user.grants)) {
    if (as === 'any') return undefined;
    if (as === 'overseer') {
      const plans = await roleScope(db, user, 'plan');
      const writes = await roleScope(db, user, 'write');
      // `is not true`: a count the write scope does not name (false or null) is one it reads only.
      return or(plans, sql`(${writes}) is not true`);
    }
  }
  return roleScope(db, user, as === 'overseer' ? 'plan' : as);
}

/** The counts the caller's roles (not a super manager's) give it, as stockCountScope. */
async function roleScope(db: Executor, user: CurrentUser, as: 'any' | 'plan' | 'write'): Promise<SQL> {
  const allowed = await db
    .select({ plant: allowedPlants.plant })
    .from(allowedPlants)
    .where(eq(allowedPlants.parameter, 'stock_count_allowed_plants'));
  const plants = user.plants.filter((plant) => allowed.some((row) => row.plant === plant));
  if (plants.length === 0) return sql`false`;
  const inPlants = inArray(stockCounts.plant, plants);
  if (user.grants.some((grant) => PLANT_WIDE_PLANNERS.includes(grant))) return inPlants;
  if (as === 'any' && user.grants.some((grant) => PLANT_WIDE_READERS.includes(grant))) return inPlants;
  // A mechanic sees the counts assigned to them once they are sent: drafts stay with the planner.
  // #18: a count is also assigned to each counter of one of its parts.
  const mine = or(
    eq(stockCounts.conductedBy, user.email),
    sql`exists (select 1 from ${stockCountParts} where ${stockCountParts.stockCountId} = ${stockCounts.id} and ${stockCountParts.counter} = ${user.email})`,
  );
  const assigned = and(inPlants, mine, eq(stockCounts.isDraft, false))!;
  const groups = user.grants.includes('supervisor') ? (plannerGroupLimit(user) ?? []).filter((group) => plants.includes(group.plant)) : [];
  const inGroups = groups.map((group) => and(eq(stockCounts.plant, group.plant), sql`${countPlannerGroupSql} = ${group.code}`)!);
  if (as === 'plan') return inGroups.length > 0 ? or(...inGroups)! : sql`false`;
  return inGroups.length > 0 ? or(assigned, ...inGroups)! : assigned;
}

/** Whether the caller sees this count as its planner or overseer (not only as one who counts it). */
export async function oversees(db: Executor, user: CurrentUser, stockCountId: number): Promise<boolean> {
  const scope = await stockCountScope(db, user, 'overseer');
  const [row] = await db.select({ id: stockCounts.id }).from(stockCounts).where(and(eq(stockCounts.id, stockCountId), scope));
  return row !== undefined;
}

/**
 * 403 unless the caller sees this count as its planner or overseer: a supervisor asked to count a
 * count of another planner group has a counter's rights on it (decisions 0018, 0033), not a
 * planner's (edit, cancel, recount, split, delete lines, resolve).
 */
export async function assertOverseer(db: Executor, user: CurrentUser, stockCountId: number, what: string): Promise<void> {
  if (!(await oversees(db, user, stockCountId))) throw new HttpError(403, `Only a planner of stock count ${stockCountId} can ${what}`);
}

const num = (value: string | null): number | null => (value === null ? null : Number(value));

/**
 * A line as the API shows it. `bookNow` is the material's book quantity in the count's storage
 * location at this moment: when it differs from `book_quantity` (taken when the line was created,
 * or last accepted by the counter), the line is flagged and the counter chooses (§ "book
 * quantities move while people count"): keep the counted quantity, or keep the difference.
 */
export function toMaterialCountRow(row: typeof materialCounts.$inferSelect, bookNow: number | null): MaterialCountRow {
  return {
    id: row.id,
    stock_count_id: row.stockCountId,
    material_code: row.materialCode,
    material_description_english: row.materialDescriptionEnglish,
    quantity: num(row.quantity),
    unit: row.unit,
    book_quantity: num(row.bookQuantity),
    book_quantity_at: row.bookQuantityAt?.toISOString() ?? null,
    book_quantity_now: bookNow,
    version: row.version,
    updated_by: row.updatedBy,
    updated_at: row.updatedAt.toISOString(),
  };
}

type StockCountRecord = typeof stockCounts.$inferSelect;

/**
 * The lock a quantity edit takes on its count's row. A count in progress: FOR SHARE, so its status
 * cannot move under the edit (a submit or a cancel waits for it, and it for them) while other
 * counters' edits of the same count go on side by side; under FOR UPDATE they waited for each
 * other (110 ms on average at 16 edits a second in the load bench). A count still initiated:
 * FOR UPDATE, as the edit moves it to in progress (§4): two edits that each held a share and then
 * both wrote the row would deadlock. The status is read before the lock is chosen: this holds
 * because nothing moves a count back to initiated (only its creation writes that status). Every
 * other editable status (in progress, error, recount) is shared. A submit, cancel or split waits
 * until no edit holds a share; under a steady stream of overlapping edits it may wait for them all
 * (an edit holds its share for milliseconds).
 */
const editLock = (status: string): 'share' | 'update' => (status === 'initiated' ? 'update' : 'share');

/**
 * The counts `where` names, each locked for a quantity edit (editLock: the status read first, then
 * the row locked and read again), in id order so that two edits lock them in one order.
 */
export async function lockCountsForEdit(db: Executor, where: SQL | undefined): Promise<StockCountRecord[]> {
  const named = await db.select({ id: stockCounts.id, status: stockCounts.status }).from(stockCounts).where(where).orderBy(stockCounts.id);
  const locked: StockCountRecord[] = [];
  for (const { id, status } of named) {
    const [row] = await db.select().from(stockCounts).where(eq(stockCounts.id, id)).for(editLock(status));
    if (row) locked.push(row);
  }
  return locked;
}

/**
 * Loads one count in the caller's scope, or 404. Inside a write: `true` locks it for update;
 * 'edit' takes the lock of a quantity edit (lockCountsForEdit).
 */
export async function findStockCount(db: Executor, user: CurrentUser, id: number, lock: boolean | 'edit' = false): Promise<StockCountRecord> {
  const scope = await stockCountScope(db, user);
  const where = and(eq(stockCounts.id, id), scope);
  const query = db.select().from(stockCounts).where(where);
  const [row] = lock === 'edit' ? await lockCountsForEdit(db, where) : lock ? await query.for('update') : await query;
  if (!row) throw new HttpError(404, `Stock count ${id} not found`);
  // A lock is taken to change the count. What a plant-wide reader (custom_service_admin) reads is
  // not theirs to change: only the counts they count, or plan (decision 0054).
  if (lock && readsMoreThanItWrites(user)) {
    const [writable] = await db
      .select({ id: stockCounts.id })
      .from(stockCounts)
      .where(and(eq(stockCounts.id, id), await stockCountScope(db, user, 'write')));
    if (!writable) throw new HttpError(403, `You may read stock count ${id}, not change it`);
  }
  return row;
}

/**
 * Whether the caller's read scope is wider than its write scope: a plant-wide reader that plans
 * nowhere plant-wide, and a read-only super manager (it reads every count, changes them only as
 * its other roles allow: decision 0063).
 */
export function readsMoreThanItWrites(user: CurrentUser): boolean {
  if (writesEverywhere(user.grants)) return false;
  if (isSuperManager(user.grants)) return true;
  return !user.grants.some((grant) => PLANT_WIDE_PLANNERS.includes(grant)) && user.grants.some((grant) => PLANT_WIDE_READERS.includes(grant));
}

/**
 * Submitted and its ERP booking not written yet (decision 0053): the ERP gave no answer, or the
 * server stopped between asking it and saving the outcome. Submitting again finishes it under the
 * same reference. (Counts marked submitted by other means, without a reference, are not.)
 */
export function isBeingBooked(count: Pick<StockCountRecord, 'status' | 'erpReference' | 'physicalInventoryDocumentNumber'>): boolean {
  return count.status === 'submitted' && count.erpReference !== null && count.physicalInventoryDocumentNumber === null;
}

/** The code of a closed count's refusal per status (decision 0055): the app words each in the user's language. */
const CLOSED_CODES: Partial<Record<StockCountStatus, string>> = {
  submitted: 'stockCountIsSubmitted',
  completed: 'stockCountIsCompleted',
  cancelled: 'stockCountIsCancelled',
};

export function assertEditable(count: StockCountRecord): void {
  if (!EDITABLE_COUNT_STATUSES.includes(count.status as StockCountStatus)) {
    const code = CLOSED_CODES[count.status as StockCountStatus];
    throw new HttpError(409, `Stock count ${count.id} is ${count.status.replace('_', ' ')} and can no longer be changed`, code ? { code, params: { id: count.id } } : {});
  }
}

/** Recounts of these counts that are still open (§4: not submitted, completed or cancelled), newest first. */
export async function openRecounts(db: Executor, ids: number[]): Promise<{ id: number; recountOf: number }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: stockCounts.id, recountOf: stockCounts.recountOf })
    .from(stockCounts)
    .where(and(inArray(stockCounts.recountOf, ids), inArray(stockCounts.status, [...EDITABLE_COUNT_STATUSES])))
    .orderBy(desc(stockCounts.id));
  return rows.flatMap((row) => (row.recountOf === null ? [] : [{ id: row.id, recountOf: row.recountOf }]));
}

/**
 * Which of these counts the caller plans (`plan`), not only counts or reads: the app offers planner
 * actions on those; and which it may change at all (`write`): the app offers counting on those. A
 * read-only super manager reads every count and plans and writes only where its other roles do
 * (decisions 0063, 0065); so does a plant-wide reader (decision 0054). One query for the page.
 */
async function plannedAndWritable(db: Executor, ids: number[], user: CurrentUser): Promise<{ planned: Set<number>; writable: Set<number> }> {
  const plans = await stockCountScope(db, user, 'plan');
  const writes = await stockCountScope(db, user, 'write');
  if (ids.length === 0 || (plans === undefined && writes === undefined)) return { planned: new Set(ids), writable: new Set(ids) };
  const flags = await db
    .select({ id: stockCounts.id, planned: holds(plans), writable: holds(writes) })
    .from(stockCounts)
    .where(inArray(stockCounts.id, ids));
  return {
    planned: new Set(flags.filter((row) => row.planned === true).map((row) => row.id)),
    writable: new Set(flags.filter((row) => row.writable === true).map((row) => row.id)),
  };
}

/** Whether a count row falls in a scope (undefined: every count), false rather than null. */
const holds = (scope: SQL | undefined) => (scope === undefined ? sql<boolean>`true` : sql<boolean>`coalesce((${scope}), false)`);

/**
 * Of these counts, those blind for the caller (isBlindFor's rule, for a page in one query): blind
 * counts it sees only as one who counts them.
 */
async function blindFor(db: Executor, user: CurrentUser, rows: readonly StockCountRecord[]): Promise<Set<number>> {
  const blind = rows.filter((row) => row.isBlind).map((row) => row.id);
  if (blind.length === 0 || isSuperManager(user.grants)) return new Set();
  const overseer = await stockCountScope(db, user, 'overseer');
  if (overseer === undefined) return new Set();
  const flags = await db
    .select({ id: stockCounts.id, oversees: holds(overseer) })
    .from(stockCounts)
    .where(inArray(stockCounts.id, blind));
  return new Set(flags.filter((row) => row.oversees !== true).map((row) => row.id));
}

export async function toStockCountRows(db: Executor, rows: StockCountRecord[], user: CurrentUser): Promise<StockCountRow[]> {
  const ids = rows.map((row) => row.id);
  const { planned, writable } = await plannedAndWritable(db, ids, user);
  const blind = await blindFor(db, user, rows);
  const recounts = await openRecounts(db, rows.filter((row) => row.status === 'completed').map((row) => row.id));
  const progress = ids.length
    ? await db
        .select({
          id: materialCounts.stockCountId,
          total: sql<number>`count(*)::int`,
          counted: sql<number>`count(${materialCounts.quantity})::int`,
          // The recount's rule (lineDiffersFromBookSql), over the lines read here anyway.
          differs: sql<boolean>`coalesce(bool_or(${lineDiffersFromBookSql}), false)`,
        })
        .from(materialCounts)
        .where(inArray(materialCounts.stockCountId, ids))
        .groupBy(materialCounts.stockCountId)
    : [];
  const parts = ids.length
    ? await db
        .select({ id: stockCountParts.stockCountId, parts: sql<number>`count(*)::int` })
        .from(stockCountParts)
        .where(inArray(stockCountParts.stockCountId, ids))
        .groupBy(stockCountParts.stockCountId)
    : [];
  return rows.map((row) => {
    const lines = progress.find((p) => p.id === row.id);
    return {
      id: row.id,
      created: row.created.toISOString(),
      created_by: row.createdBy,
      plant: row.plant,
      type: row.type,
      should_be_done_at: row.shouldBeDoneAt,
      status: row.status as StockCountStatus,
      is_draft: row.isDraft,
      storage_location: row.storageLocation,
      conducted_by: row.conductedBy,
      work_center: row.workCenter,
      latest_sap_error: row.latestSapError,
      physical_inventory_document_number: row.physicalInventoryDocumentNumber,
      total_lines: Number(lines?.total ?? 0),
      counted_lines: Number(lines?.counted ?? 0),
      open_recount_id: recounts.find((recount) => recount.recountOf === row.id)?.id ?? null,
      is_blind: row.isBlind,
      part_count: Number(parts.find((p) => p.id === row.id)?.parts ?? 0),
      planned_by_you: planned.has(row.id),
      writable_by_you: writable.has(row.id),
      being_booked: isBeingBooked(row),
      // Compares counted with book quantities: on a count blind for the caller, whether its count
      // matches the hidden book would be told line by line (decision 0054). Absent: unknown.
      ...(blind.has(row.id) ? {} : { has_differences: lines?.differs === true }),
    };
  });
}

/** `%`, `_` and `\` typed by a user are searched for literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function pageOf(total: number, page: number, maxResults: number) {
  const pages = Math.max(1, Math.ceil(total / maxResults));
  return { envelope: { page, pages, has_next: page < pages, has_prev: page > 1 }, offset: (page - 1) * maxResults };
}

export async function listMaterialCounts(
  db: Executor,
  stockCountId: number,
  options: { query?: string; page: number; maxResults: number; orderByColumn?: string; sortDirection?: 'asc' | 'desc' },
) {
  const search = options.query?.trim();
  const where = and(
    eq(materialCounts.stockCountId, stockCountId),
    search ? or(ilike(materialCounts.materialCode, likePattern(search)), ilike(materialCounts.materialDescriptionEnglish, likePattern(search))) : undefined,
  );
  const columns = {
    quantity: materialCounts.quantity,
    material_code: materialCounts.materialCode,
    material_description_english: materialCounts.materialDescriptionEnglish,
    unit: materialCounts.unit,
    id: materialCounts.id,
  } as const;
  const column = columns[(options.orderByColumn ?? 'quantity') as keyof typeof columns] ?? materialCounts.quantity;
  const direction = options.sortDirection ?? 'asc';
  // §4 default: quantity ascending, so the lines still to count (no quantity) come first.
  const order = direction === 'asc' ? sql`${column} asc nulls first` : sql`${column} desc nulls last`;
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(materialCounts)
    .where(where)) as [{ total: number }];
  const paging = pageOf(Number(total), options.page, options.maxResults);
  const rows = await db
    .select()
    .from(materialCounts)
    .where(where)
    .orderBy(order, asc(materialCounts.materialCode), asc(materialCounts.id))
    .limit(options.maxResults)
    .offset(paging.offset);
  return { ...paging.envelope, total: Number(total), material_counts: await materialCountRows(db, rows) };
}

export async function listStockCounts(
  db: Executor,
  user: CurrentUser,
  options: {
    stockCountId?: number;
    query?: string;
    type?: string;
    page: number;
    maxResults: number;
    orderByColumn?: string;
    sortDirection?: 'asc' | 'desc';
  },
) {
  const scope = await stockCountScope(db, user);
  const search = options.query?.trim();
  const where = and(
    scope,
    options.stockCountId ? eq(stockCounts.id, options.stockCountId) : undefined,
    options.type ? eq(stockCounts.type, options.type) : undefined,
    search
      ? or(
          ilike(stockCounts.plant, likePattern(search)),
          ilike(stockCounts.storageLocation, likePattern(search)),
          ilike(stockCounts.conductedBy, likePattern(search)),
          ilike(stockCounts.status, likePattern(search)),
          sql`${stockCounts.id}::text = ${search}`,
        )
      : undefined,
  );
  const columns = {
    plant: stockCounts.plant,
    created: stockCounts.created,
    should_be_done_at: stockCounts.shouldBeDoneAt,
    status: stockCounts.status,
    storage_location: stockCounts.storageLocation,
    conducted_by: stockCounts.conductedBy,
    id: stockCounts.id,
    type: stockCounts.type,
  } as const;
  const column = columns[(options.orderByColumn ?? 'plant') as keyof typeof columns] ?? stockCounts.plant;
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(stockCounts)
    .where(where)) as [{ total: number }];
  const paging = pageOf(Number(total), options.page, options.maxResults);
  const rows = await db
    .select()
    .from(stockCounts)
    .where(where)
    .orderBy(options.sortDirection === 'desc' ? desc(column) : asc(column), desc(stockCounts.created), asc(stockCounts.id))
    .limit(options.maxResults)
    .offset(paging.offset);
  return { ...paging.envelope, total: Number(total), stock_counts: await toStockCountRows(db, rows, user) };
}

/** §3 total quantity: the sum of the five counts, null when any is unknown (SQL addition propagates null). */
const BOOK_TOTAL = sql<string | null>`${stockItems.unrestrictedCount} + ${stockItems.qualityInspectionCount} + ${stockItems.blockedCount} + ${stockItems.restrictedCount} + ${stockItems.transferCount}`;

/** The book quantity of a material in a storage location: the sum of its five stock counts (null if any is unknown). */
export async function bookQuantity(db: Executor, plant: string, storageLocation: string, materialCode: string): Promise<number | null> {
  const [row] = await db
    .select({ total: BOOK_TOTAL })
    .from(stockItems)
    .where(and(eq(stockItems.plant, plant), eq(stockItems.storageLocation, storageLocation), eq(stockItems.materialCode, materialCode)));
  return row?.total === undefined || row.total === null ? null : Number(row.total);
}

/** The current book quantity of each line (null where the storage location holds no such stock row). */
export async function currentBooks(db: Executor, lineIds: number[]): Promise<Map<number, number | null>> {
  if (lineIds.length === 0) return new Map();
  const rows = await db
    .select({ id: materialCounts.id, book: BOOK_TOTAL, stockRow: stockItems.id })
    .from(materialCounts)
    .innerJoin(stockCounts, eq(stockCounts.id, materialCounts.stockCountId))
    .leftJoin(
      stockItems,
      and(
        eq(stockItems.plant, stockCounts.plant),
        eq(stockItems.storageLocation, stockCounts.storageLocation),
        eq(stockItems.materialCode, materialCounts.materialCode),
      ),
    )
    .where(inArray(materialCounts.id, lineIds));
  return new Map(rows.map((row) => [row.id, row.stockRow === null || row.book === null ? null : Number(row.book)]));
}

/** Lines with their current book quantity, in one extra query. */
export async function materialCountRows(db: Executor, rows: Array<typeof materialCounts.$inferSelect>): Promise<MaterialCountRow[]> {
  const books = await currentBooks(db, rows.map((row) => row.id));
  return rows.map((row) => toMaterialCountRow(row, books.get(row.id) ?? null));
}

/** Counted lines whose book quantity moved since it was taken: they need the counter's choice before submit. */
export async function movedBookLines(db: Executor, lines: Array<typeof materialCounts.$inferSelect>): Promise<MaterialCountRow[]> {
  const rows = await materialCountRows(db, lines);
  return rows.filter((row) => row.quantity !== null && bookQuantityMoved(row.book_quantity, row.book_quantity_now));
}

type StockCountsOfRow = Pick<
  typeof stockItems.$inferInsert,
  'unrestrictedCount' | 'qualityInspectionCount' | 'blockedCount' | 'restrictedCount' | 'transferCount'
>;

/** The book quantity of a stock row as the database stores quantities (numeric as text), or null. */
export function bookOfStockItem(item: StockCountsOfRow): string | null {
  const count = (value: string | null | undefined) => (value === null || value === undefined ? null : Number(value));
  const book = bookQuantityOf({
    unrestricted_count: count(item.unrestrictedCount),
    quantity_inspection_count: count(item.qualityInspectionCount),
    blocked_count: count(item.blockedCount),
    restricted_count: count(item.restrictedCount),
    transfer_count: count(item.transferCount),
  });
  return book === null ? null : String(book);
}

export async function searchMaterials(db: Executor, code: string | undefined, page: number, maxResults: number) {
  const search = code?.trim();
  const where = search
    ? or(ilike(materials.code, `${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`), ilike(materials.descriptionEnglish, likePattern(search)))
    : undefined;
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(materials)
    .where(where)) as [{ total: number }];
  const paging = pageOf(Number(total), page, maxResults);
  const rows = await db.select().from(materials).where(where).orderBy(asc(materials.code)).limit(maxResults).offset(paging.offset);
  return {
    ...paging.envelope,
    my_material_items: rows.map((row) => ({ material_code: row.code, material_description_english: row.descriptionEnglish, unit: row.unit })),
  };
}

/** #18 blind count: a line as a counter of a blind count gets it, without any book quantity. */
export function withoutBook<T extends { book_quantity: number | null; book_quantity_at: string | null; book_quantity_now: number | null }>(row: T): T {
  return { ...row, book_quantity: null, book_quantity_at: null, book_quantity_now: null };
}

/**
 * Whether the caller reads this count whole, as its planners do (every line, every part's, book
 * quantities of a blind count): its planners and overseers, every super manager (a read-only one
 * too: reads stay unrestricted, decision 0063), and those who read their plants' counts
 * (custom_service_admin, decision 0054) unless they count this one themselves.
 */
export async function readsWhole(db: Executor, user: CurrentUser, count: StockCountRecord): Promise<boolean> {
  if (isSuperManager(user.grants)) return true;
  if (await oversees(db, user, count.id)) return true;
  if (!user.grants.some((grant) => PLANT_WIDE_READERS.includes(grant)) || count.conductedBy === user.email) return false;
  const [part] = await db
    .select({ id: stockCountParts.id })
    .from(stockCountParts)
    .where(and(eq(stockCountParts.stockCountId, count.id), eq(stockCountParts.counter, user.email)))
    .limit(1);
  return !part;
}

/**
 * Whether this caller gets no book quantity for this count: it is blind and they see it only as one
 * who counts it. Never for a super manager (a read-only one reads book quantities, decision 0063).
 */
export async function isBlindFor(db: Executor, user: CurrentUser, count: StockCountRecord): Promise<boolean> {
  return (await blindFor(db, user, [count])).has(count.id);
}

/** A stock row's place and material, as `blindLinesOf` keys them. */
export const stockLineKey = (plant: string, storageLocation: string, materialCode: string) => `${plant}|${storageLocation}|${materialCode}`;

/**
 * The caller's open, sent blind counts they count (as the person conducting it or a part's
 * counter), by the index on who conducts them (and the parts they count): none for nearly every
 * call, which then costs this one small read. Planners and overseers are not left out here.
 */
export async function openBlindCountsCountedBy(db: Executor, user: CurrentUser): Promise<Array<{ id: number; plant: string; storageLocation: string }>> {
  return db
    .select({ id: stockCounts.id, plant: stockCounts.plant, storageLocation: stockCounts.storageLocation })
    .from(stockCounts)
    .where(
      and(
        eq(stockCounts.isBlind, true),
        // A draft is its planner's until it is sent: nobody counts it yet.
        eq(stockCounts.isDraft, false),
        inArray(stockCounts.status, [...EDITABLE_COUNT_STATUSES]),
        or(
          eq(stockCounts.conductedBy, user.email),
          inArray(stockCounts.id, db.select({ id: stockCountParts.stockCountId }).from(stockCountParts).where(eq(stockCountParts.counter, user.email))),
        ),
      ),
    );
}

/**
 * Of these stock rows (a page of the stock screen), those the caller counts blind and does not
 * plan, while the count is open: key (`stockLineKey`) → the count's id. The stock screen hides
 * their counts from the caller: they add up to the book quantity the count hides (decision 0064).
 */
export async function blindLinesOf(
  db: Executor,
  user: CurrentUser,
  rows: ReadonlyArray<{ plant: string; storage_location: string; material_code: string }>,
): Promise<Map<string, number>> {
  // Super managers, the read-only one too, read every book quantity (decision 0063).
  if (rows.length === 0 || isSuperManager(user.grants)) return new Map();
  const counts = await openBlindCountsCountedBy(db, user);
  const here = counts.filter((count) => rows.some((row) => row.plant === count.plant && row.storage_location === count.storageLocation));
  if (here.length === 0) return new Map();
  // Those the caller plans or oversees are not blind to them.
  const overseer = await stockCountScope(db, user, 'overseer');
  if (overseer === undefined) return new Map();
  const blind = await db.select({ id: stockCounts.id }).from(stockCounts).where(and(inArray(stockCounts.id, here.map((count) => count.id)), sql`not (${overseer})`));
  if (blind.length === 0) return new Map();
  const codes = [...new Set(rows.map((row) => row.material_code))];
  const found = await db
    .select({ id: stockCounts.id, plant: stockCounts.plant, storageLocation: stockCounts.storageLocation, materialCode: materialCounts.materialCode })
    .from(materialCounts)
    .innerJoin(stockCounts, eq(stockCounts.id, materialCounts.stockCountId))
    .where(and(inArray(materialCounts.stockCountId, blind.map((count) => count.id)), inArray(materialCounts.materialCode, codes)));
  return new Map(found.map((row) => [stockLineKey(row.plant, row.storageLocation, row.materialCode), row.id]));
}
