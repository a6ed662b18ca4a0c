/**
 * Planning stock counts (§4, §6): create (single or wall-to-wall, as a draft or sent), edit
 * (who counts, work center, deadline, send a draft), cancel, recount the variances, and the
 * front-liner statistics. Every rule that refuses says what is wrong.
 */
import { and, asc, eq, inArray, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { rowsOf, type Tx, type Db } from '../db/client';
import {
  allowedPlants,
  materialCounts,
  materials,
  plants,
  stockCounts,
  stockItems,
  stockCountParts,
  storageLocations,
  userAttachments,
  users,
  workCenters,
} from '../db/schema';
import { can, writesEverywhere } from '../../src/domain/permissions';
import type { CreateStockCountBody, ExpectedStockCount, OccupancyRow } from '../../src/contract/stock';
import { HttpError } from '../plugins/errors';
import { grantsOfUser, notExpiredSql, type CurrentUser } from './users';
import { bookOfStockItem, countPlannerGroupSql, lineDiffersFromBookSql, openRecounts, plannerGroupLimit } from './stock-counts';

type Executor = Db | Tx;

export async function allowed(db: Executor, parameter: string): Promise<string[]> {
  const rows = await db.select({ plant: allowedPlants.plant }).from(allowedPlants).where(eq(allowedPlants.parameter, parameter));
  return rows.map((row) => row.plant);
}

/**
 * The plants a planner may plan counts in: their own, in stock_count_allowed_plants (the super
 * manager: all; a read-only super manager plans as its other roles, decision 0063). A plant not
 * the caller's is refused before it is looked up: the same 403 whether or not it exists, so the
 * answer does not tell which plant codes exist (decision 0054's rule for what a refusal reveals).
 */
export async function assertPlanningPlant(db: Executor, user: CurrentUser, plant: string): Promise<void> {
  const everywhere = writesEverywhere(user.grants);
  if (!everywhere && !user.plants.includes(plant)) throw new HttpError(403, `You do not plan stock counts in plant ${plant}`);
  const [exists] = await db.select({ code: plants.code }).from(plants).where(eq(plants.code, plant));
  if (!exists) throw new HttpError(400, `Plant ${plant} does not exist`);
  if (everywhere) return;
  if (!(await allowed(db, 'stock_count_allowed_plants')).includes(plant)) {
    throw new HttpError(403, `Stock counts are not used in plant ${plant}`, { code: 'stockCountsNotUsed', params: { plant } });
  }
}

/**
 * The plant's zone as SQL (plants.timezone; UTC for a plant without one): days of a plant's counts
 * (deadlines, reminders, dashboards) are its local days, not UTC's.
 */
export const plantTimeZoneSql = (plant: SQLWrapper | string) => sql`coalesce((select ${plants.timezone} from ${plants} where ${plants.code} = ${plant}), 'UTC')`;

/** Today in the plant's zone (yyyy-mm-dd). */
export async function plantToday(db: Executor, plant: string, now: Date = new Date()): Promise<string> {
  const [row] = rowsOf<{ today: string }>(await db.execute(sql`select to_char((${now.toISOString()}::timestamptz at time zone ${plantTimeZoneSql(plant)})::date, 'YYYY-MM-DD') as today`));
  return row!.today;
}

/**
 * A deadline is the plant's today or later: its local day, so that a deadline of yesterday is
 * refused at 15:00 in Berlin (UTC's slack of a day let it through, and the count read "Overdue" at
 * once), and the plant's today is never refused at 00:30 in Helsinki.
 */
export async function assertDeadlineAhead(db: Executor, plant: string, deadline: string, now: Date = new Date()): Promise<void> {
  const today = await plantToday(db, plant, now);
  if (deadline < today) {
    throw new HttpError(400, `The deadline ${deadline} is in the past: it is ${today} in plant ${plant}`, { code: 'deadlinePast', params: { deadline, today, plant } });
  }
}

export async function assertDeadlineAllowed(db: Executor, plant: string): Promise<void> {
  if (!(await allowed(db, 'count_deadline_allowed_plants')).includes(plant)) {
    throw new HttpError(400, `A deadline cannot be set for counts in plant ${plant}`);
  }
}

/** The person counting must be a user of that plant whose roles may enter quantities. */
export async function assertCounter(db: Executor, plant: string, email: string): Promise<void> {
  const refusal = await counterRefusal(db, plant, email);
  if (refusal) throw refusal;
}

/** Why `email` cannot count in `plant` (assertCounter's refusal), or null when they can. */
export async function counterRefusal(db: Executor, plant: string, email: string): Promise<HttpError | null> {
  const [row] = await db
    .select({ approvalStatus: users.approvalStatus, expirationDate: users.expirationDate, grants: grantsOfUser, active: notExpiredSql() })
    .from(users)
    .innerJoin(userAttachments, and(eq(userAttachments.userId, users.id), eq(userAttachments.kind, 'plant'), eq(userAttachments.code, plant)))
    .where(eq(users.email, email.toLowerCase()));
  if (!row) return new HttpError(400, `${email} does not work in plant ${plant}`, { code: 'counterNotInPlant', params: { email, plant } });
  // A count handed to someone who cannot sign in, or whose roles may not enter quantities, would never be done.
  if (row.approvalStatus !== 'Approved') return new HttpError(400, `${email} cannot count: their access is not approved`, { code: 'counterNotApproved', params: { email } });
  // Expired by the day of their plants (notExpiredSql), as the sign-in check judges it.
  if (!row.active) {
    return new HttpError(400, `${email} cannot count: their access expired on ${row.expirationDate}`, { code: 'counterExpired', params: { email, date: String(row.expirationDate) } });
  }
  if (!can(row.grants ?? [], 'materialCount.editQuantity')) {
    return new HttpError(400, `${email} cannot count: none of their roles may enter counted quantities`, { code: 'counterCannotCount', params: { email } });
  }
  return null;
}

/**
 * Decision 0068, a save names what it started from: the count as the planner's screen showed it
 * (`expected` of PUT /my_stock_count) against the count as it is, read under its row lock. Another
 * planner's change since (who counts, the work center, the deadline, the status) is refused, never
 * overwritten unseen: the planner looks at the count again and makes the change on what is there.
 */
export function assertCountAsShown(count: typeof stockCounts.$inferSelect, expected: ExpectedStockCount | undefined): void {
  if (!expected) return;
  const email = (value: string | null) => value?.toLowerCase() ?? null;
  const changed =
    (expected.conductedBy !== undefined && email(expected.conductedBy) !== email(count.conductedBy)) ||
    (expected.workCenter !== undefined && expected.workCenter !== count.workCenter) ||
    (expected.shouldBeDoneAt !== undefined && expected.shouldBeDoneAt !== count.shouldBeDoneAt) ||
    (expected.status !== undefined && expected.status !== count.status);
  if (changed) {
    throw new HttpError(
      409,
      `Stock count ${count.id} was changed by someone else after you opened it: nothing was saved. Look at it again as it is now, then make your change`,
      { code: 'countChangedMeanwhile', params: { id: count.id } },
    );
  }
}

export async function assertWorkCenter(db: Executor, plant: string, code: string): Promise<void> {
  const [row] = await db.select().from(workCenters).where(and(eq(workCenters.plant, plant), eq(workCenters.code, code)));
  if (!row) throw new HttpError(400, `Work center ${code} does not exist in plant ${plant}`, { code: 'workCenterUnknown', params: { code, plant } });
}

/**
 * The planner group a count at this work center belongs to (null: none). A supervisor plans only
 * counts of their own planner groups (#20, §6), so the count stays in what they see.
 */
export async function plannerGroupOfCount(db: Executor, user: CurrentUser, plant: string, workCenter: string | null, storageLocation: string): Promise<string | null> {
  const [row] = workCenter
    ? await db.select({ plannerGroup: workCenters.plannerGroup }).from(workCenters).where(and(eq(workCenters.plant, plant), eq(workCenters.code, workCenter)))
    : [];
  const plannerGroup = row?.plannerGroup ?? null;
  const limit = plannerGroupLimit(user);
  if (limit) {
    const mine = limit.filter((group) => group.plant === plant).map((group) => group.code);
    const yours = `You plan stock counts only for your planner groups (${mine.length > 0 ? mine.join(', ') : 'none'})`;
    const groups = mine.join(', ');
    // Coded for the app (decision 0055); with no planner group in the plant, one text says so for both.
    const none = { code: 'plannerGroupNoneInPlant', params: { plant } };
    if (!plannerGroup) {
      throw new HttpError(403, `${yours}: choose a work center of one of them for storage location ${storageLocation}`, mine.length > 0 ? { code: 'plannerGroupChooseWorkCenter', params: { groups, storageLocation } } : none);
    }
    if (!mine.includes(plannerGroup)) {
      throw new HttpError(
        403,
        `${yours}: work center ${workCenter} belongs to planner group ${plannerGroup}`,
        mine.length > 0 ? { code: 'plannerGroupNotYours', params: { groups, workCenter: String(workCenter), plannerGroup } } : none,
      );
    }
  }
  return plannerGroup;
}

export async function createStockCount(tx: Tx, user: CurrentUser, body: CreateStockCountBody) {
  await assertPlanningPlant(tx, user, body.plant);
  const [location] = await tx
    .select()
    .from(storageLocations)
    .where(and(eq(storageLocations.plant, body.plant), eq(storageLocations.code, body.storageLocation)));
  // The transfer's code: the same refusal, worded once (decision 0055).
  if (!location) {
    throw new HttpError(400, `Storage location ${body.storageLocation} does not exist in plant ${body.plant}`, { code: 'transferLocationUnknown', params: { code: body.storageLocation, plant: body.plant } });
  }
  if (body.shouldBeDoneAt) {
    await assertDeadlineAllowed(tx, body.plant);
    await assertDeadlineAhead(tx, body.plant, body.shouldBeDoneAt);
  }
  if (body.conductedBy) await assertCounter(tx, body.plant, body.conductedBy);
  if (body.workCenter) await assertWorkCenter(tx, body.plant, body.workCenter);
  // A van's storage location belongs to its work center's planner group whatever work center the
  // count names: a supervisor plans counts of their groups' locations only (decision 0018).
  if (location.workCenter && body.workCenter && body.workCenter !== location.workCenter) {
    await plannerGroupOfCount(tx, user, body.plant, location.workCenter, body.storageLocation);
  }
  const workCenter = body.workCenter ?? location.workCenter;
  const plannerGroup = await plannerGroupOfCount(tx, user, body.plant, workCenter, body.storageLocation);

  // Lines: every material in stock at the location (wall-to-wall), or the chosen materials.
  const stockAt = tx
    .select({ item: stockItems, description: materials.descriptionEnglish, unit: materials.unit })
    .from(stockItems)
    .innerJoin(materials, eq(materials.code, stockItems.materialCode))
    .where(and(eq(stockItems.plant, body.plant), eq(stockItems.storageLocation, body.storageLocation)));
  let lines: Array<{ code: string; description: string; unit: string; book: string | null }>;
  if (body.type === 'wall_to_wall') {
    const rows = await stockAt.orderBy(asc(stockItems.materialCode));
    lines = rows.map(({ item, description, unit }) => ({ code: item.materialCode, description, unit, book: bookOfStockItem(item) }));
    if (lines.length === 0) {
      throw new HttpError(400, `Storage location ${body.storageLocation} holds no stock to count`, { code: 'stockCountNoStock', params: { storageLocation: body.storageLocation, plant: body.plant } });
    }
  } else {
    const wanted = [...new Set(body.materialCodes ?? [])];
    if (wanted.length === 0) throw new HttpError(400, 'Field materialCodes is required for a single count');
    const known = await tx.select().from(materials).where(inArray(materials.code, wanted));
    const unknown = wanted.filter((code) => !known.some((m) => m.code === code));
    // The transfer's code: the same refusal, worded once (decision 0055).
    if (unknown.length > 0) throw new HttpError(400, `Unknown material: ${unknown.join(', ')}`, { code: 'transferUnknownMaterial', params: { code: unknown.join(', ') } });
    const stock = await tx
      .select()
      .from(stockItems)
      .where(and(eq(stockItems.plant, body.plant), eq(stockItems.storageLocation, body.storageLocation), inArray(stockItems.materialCode, wanted)));
    lines = known.map((m) => {
      const item = stock.find((s) => s.materialCode === m.code);
      return { code: m.code, description: m.descriptionEnglish, unit: m.unit, book: item ? bookOfStockItem(item) : null };
    });
  }
  // Sent at once, someone must count it: the person named, or the counters of its parts (#18).
  // Nobody named, it would wait where no one sees it as theirs; a draft waits for a planner.
  if (!body.draft && !body.conductedBy && !body.parts?.length) {
    throw new HttpError(400, 'Choose who counts (conductedBy) or split the count among counters (parts), or save it as a draft (draft: true)', { code: 'createNeedsCounter' });
  }
  const [count] = await tx
    .insert(stockCounts)
    .values({
      createdBy: user.email,
      plant: body.plant,
      type: body.type,
      storageLocation: body.storageLocation,
      conductedBy: body.conductedBy?.toLowerCase() ?? null,
      workCenter,
      plannerGroup,
      shouldBeDoneAt: body.shouldBeDoneAt ?? null,
      isDraft: body.draft ?? false,
      isBlind: body.blind ?? false,
      status: 'initiated',
    })
    .returning();
  await insertLines(tx, count!.id, lines);
  return count!;
}

async function insertLines(tx: Tx, stockCountId: number, lines: Array<{ code: string; description: string; unit: string; book: string | null }>) {
  const now = new Date();
  for (let i = 0; i < lines.length; i += 500) {
    await tx.insert(materialCounts).values(
      lines.slice(i, i + 500).map((line) => ({
        stockCountId,
        materialCode: line.code,
        materialDescriptionEnglish: line.description,
        unit: line.unit,
        bookQuantity: line.book,
        bookQuantityAt: now,
      })),
    );
  }
}

/**
 * §4 recount: a new count of the lines whose counted quantity differs from the book quantity, for
 * the same person; a draft when the count names nobody, or someone who can no longer count.
 */
export async function recount(tx: Tx, user: CurrentUser, source: typeof stockCounts.$inferSelect) {
  // Refusals a planner meets when another planner (or the ERP) got there first: coded, so the app
  // words them in the planner's language (decision 0055).
  if (source.status !== 'completed') {
    throw new HttpError(409, `Only a completed count can be recounted; stock count ${source.id} is ${source.status}`, {
      code: 'recountNotCompleted',
      params: { id: source.id, status: source.status },
    });
  }
  // #19 item 14: one open recount per count (the source row is locked, so two clicks queue here).
  const [open] = await openRecounts(tx, [source.id]);
  if (open) {
    throw new HttpError(409, `Stock count ${source.id} already has an open recount (stock count ${open.id}): finish or cancel it first`, {
      code: 'recountOpen',
      params: { id: source.id, recount: open.id },
    });
  }
  const variances = await tx
    .select()
    .from(materialCounts)
    .where(and(eq(materialCounts.stockCountId, source.id), lineDiffersFromBookSql))
    .orderBy(asc(materialCounts.materialCode));
  if (variances.length === 0) throw new HttpError(409, `Stock count ${source.id} has no differences to recount`, { code: 'recountNoDifferences', params: { id: source.id } });
  // The person who counted may since have lost access (expired, left the plant, another role): the
  // recount is not refused for good, nor sent to someone who cannot do it. Like a count nobody was
  // named to count (a split count may be sent without one; the recount has no parts), it is saved
  // as a draft with nobody counting, and the planner's Send asks who counts it first (PUT
  // /my_stock_count), or its split.
  const counter = source.conductedBy && !(await counterRefusal(tx, source.plant, source.conductedBy)) ? source.conductedBy : null;
  const draft = counter === null;
  const [count] = await tx
    .insert(stockCounts)
    .values({
      createdBy: user.email,
      plant: source.plant,
      type: 'single',
      storageLocation: source.storageLocation,
      conductedBy: counter,
      workCenter: source.workCenter,
      plannerGroup: source.plannerGroup,
      status: 'recount',
      isDraft: draft,
      recountOf: source.id,
      // A recount of a blind count is blind too: its lines are the ones counted wrong (#18).
      isBlind: source.isBlind,
    })
    .returning();
  const stock = await tx
    .select()
    .from(stockItems)
    .where(
      and(
        eq(stockItems.plant, source.plant),
        eq(stockItems.storageLocation, source.storageLocation),
        inArray(stockItems.materialCode, variances.map((v) => v.materialCode)),
      ),
    );
  await insertLines(
    tx,
    count!.id,
    variances.map((v) => {
      const item = stock.find((s) => s.materialCode === v.materialCode);
      return { code: v.materialCode, description: v.materialDescriptionEnglish, unit: v.unit, book: item ? bookOfStockItem(item) : v.bookQuantity };
    }),
  );
  return count!;
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

/** §3 front-liner statistics: tasks per person counting, and a total row. Cancelled counts are no tasks. */
export async function occupancyReport(
  db: Executor,
  filter: {
    startDate: string;
    endDate: string;
    plant?: string;
    plannerGroup?: string;
    plannerGroupPlants?: readonly string[];
    conductedBy?: string;
    /** The counts the caller sees (stockCountScope): the report tells nothing about others. */
    scope?: SQL;
  },
): Promise<{ rows: OccupancyRow[]; total: OccupancyRow }> {
  // A planner group is a code within a plant: the group of the caller's plants only (another
  // plant's group of the same code is not theirs); a super manager's, in any plant. A count's
  // group is the one rule of the count lists (countPlannerGroupSql: its own, else its work
  // centre's), so a count planned for another group is not reported to this one.
  const groupPlants = filter.plannerGroupPlants;
  const plannerGroupCounts = filter.plannerGroup
    ? and(sql`${countPlannerGroupSql} = ${filter.plannerGroup}`, groupPlants === undefined ? undefined : inArray(stockCounts.plant, [...groupPlants]))
    : undefined;
  const counts = and(
    filter.scope,
    // Days of the count's plant (a count created at 01:30 in Helsinki on the 1st is the 1st's),
    // within bounds widened by the largest offsets (UTC−12…+14) that stock_counts_created_idx narrows on.
    // The day after the end, in SQL: 9999-12-31 + 1 day is no JavaScript Date PostgreSQL reads.
    sql`${stockCounts.created} >= (${filter.startDate}::date::timestamp - interval '14 hours') at time zone 'UTC'`,
    sql`${stockCounts.created} < ((${filter.endDate}::date + 1)::timestamp + interval '12 hours') at time zone 'UTC'`,
    sql`${stockCounts.created} >= (${filter.startDate}::date::timestamp at time zone ${plantTimeZoneSql(stockCounts.plant)})`,
    sql`${stockCounts.created} < ((${filter.endDate}::date + 1)::timestamp at time zone ${plantTimeZoneSql(stockCounts.plant)})`,
    ne(stockCounts.status, 'cancelled'),
    eq(stockCounts.isDraft, false),
    filter.plant ? eq(stockCounts.plant, filter.plant) : undefined,
    plannerGroupCounts,
  );
  // A task per person and count: the person of conducted_by, and (#18) each counter of a part of
  // a split count; someone both is counted once. A counter's part marked done is their task
  // completed, whether or not the others' are.
  const assignments = sql`(
    select ${stockCounts.conductedBy} as person, ${stockCounts.id} as count_id, ${stockCounts.status} = 'completed' as done from ${stockCounts}
      where ${counts} and ${stockCounts.conductedBy} is not null
    union all
    select ${stockCountParts.counter} as person, ${stockCounts.id} as count_id, (${stockCountParts.status} = 'done' or ${stockCounts.status} = 'completed') as done
      from ${stockCounts} join ${stockCountParts} on ${stockCountParts.stockCountId} = ${stockCounts.id}
      where ${counts}
  )`;
  const perPerson = await db.execute(sql`
    select person, count(*)::int as total, (count(*) filter (where done))::int as completed
    from (select person, count_id, bool_or(done) as done from ${assignments} as assignments group by person, count_id) as tasks
    ${filter.conductedBy ? sql`where person = ${filter.conductedBy.toLowerCase()}` : sql``}
    group by person order by person`);
  const rows = rowsOf<{ person: string; total: number; completed: number }>(perPerson).map((row) => ({
    conductedBy: row.person,
    total: Number(row.total),
    completed: Number(row.completed),
  }));
  const toRow = (conducted_by: string, total: number, completed: number): OccupancyRow => ({
    conducted_by,
    total_tasks: total,
    completed_count: completed,
    not_completed_count: total - completed,
    completed_percentage: percent(completed, total),
    // The rest of 100 %, not rounded apart: 6.3 % and 93.8 % of 16 tasks read as 100.1 %.
    not_completed_percentage: total === 0 ? 0 : Math.round((100 - percent(completed, total)) * 10) / 10,
  });
  const result = rows.map((r) => toRow(r.conductedBy ?? '', Number(r.total), Number(r.completed)));
  const sum = (key: 'total_tasks' | 'completed_count') => result.reduce((acc, r) => acc + r[key], 0);
  return { rows: result, total: toRow('Total', sum('total_tasks'), sum('completed_count')) };
}
