/**
 * #18 several counters on one stock count (decision 0033). A count may be split into parts, one
 * per person counting; each part holds lines (by bin range, by picked material, or "the rest").
 * A counter writes quantities into their part's lines only (stock_count_part_lines: who counted
 * what, when); the count's quantity of a line (material_counts.quantity, what submit books) is the
 * merge of its holders' quantities (src/domain/stock-count-parts.ts mergeLine): one holder's, the
 * agreed one of a control count, or none while two counters disagree, until the planner takes one
 * counter's quantity or sends the line to recount. Every change is in the audit log.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../db/client';
import { auditLog, materialCounts, stockCountPartLines, stockCountParts, stockCounts, stockItems, users } from '../db/schema';
import { binInRange, mergeLine, type MergeState, type PartStatus } from '../../src/domain/stock-count-parts';
import type { MergeLineRow, PartLineRow, PartSpec, StockCountPartRow } from '../../src/contract/stock-count-parts';
import type { StockCountStatus } from '../../src/domain/constants';
import { toThousandths } from '../../src/domain/stock';
import { HttpError } from '../plugins/errors';
import { assertCounter } from './stock-count-management';
import { currentBooks, withoutBook } from './stock-counts';
import type { CurrentUser } from './users';

type Executor = Db | Tx;
type StockCountRecord = typeof stockCounts.$inferSelect;
type PartRecord = typeof stockCountParts.$inferSelect;

const num = (value: string | null): number | null => (value === null ? null : Number(value));
const listed = (codes: string[], max = 20) => (codes.length > max ? `${codes.slice(0, max).join(', ')} and ${codes.length - max} more` : codes.join(', '));

export async function partsOf(db: Executor, stockCountId: number): Promise<PartRecord[]> {
  return db.select().from(stockCountParts).where(eq(stockCountParts.stockCountId, stockCountId)).orderBy(asc(stockCountParts.id));
}

export async function isSplit(db: Executor, stockCountId: number): Promise<boolean> {
  const [row] = await db.select({ id: stockCountParts.id }).from(stockCountParts).where(eq(stockCountParts.stockCountId, stockCountId)).limit(1);
  return row !== undefined;
}

export async function myPart(db: Executor, user: CurrentUser, stockCountId: number, forUpdate = false): Promise<PartRecord | undefined> {
  const query = db
    .select()
    .from(stockCountParts)
    .where(and(eq(stockCountParts.stockCountId, stockCountId), eq(stockCountParts.counter, user.email.toLowerCase())));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

async function audit(tx: Tx, user: CurrentUser, action: string, targetType: string, targetId: number, before: unknown, after: unknown) {
  await tx.insert(auditLog).values({ actorUserId: user.id, actorEmail: user.email, action, targetType, targetId: String(targetId), before, after });
}

// ───────────── the split ─────────────

export interface SplitInput {
  parts: PartSpec[];
  controlMaterialCodes?: string[];
  blind?: boolean;
  /** The parts the planner started from (empty: not split); absent: not checked (older clients). */
  expectedPartIds?: readonly number[];
  /** The split's revision as the planner read it (splitRevision); absent: not checked. */
  expectedSplitRevision?: string;
}

/**
 * What changed for whom: the counters to tell about their part (new, given more lines, or with
 * lines taken away: a phone counting offline reads its part again rather than meet a 403 on sync),
 * and those who lost theirs.
 */
export interface SplitOutcome {
  told: Array<{ counter: string; lines: number }>;
  removed: string[];
}

/** Lines of a count with their bins (the stock row of the count's storage location). */
async function linesWithBins(tx: Tx, count: StockCountRecord) {
  return tx
    .select({
      id: materialCounts.id,
      code: materialCounts.materialCode,
      quantity: materialCounts.quantity,
      updatedBy: materialCounts.updatedBy,
      updatedAt: materialCounts.updatedAt,
      bin: stockItems.bin,
    })
    .from(materialCounts)
    .leftJoin(
      stockItems,
      and(eq(stockItems.plant, count.plant), eq(stockItems.storageLocation, count.storageLocation), eq(stockItems.materialCode, materialCounts.materialCode)),
    )
    .where(eq(materialCounts.stockCountId, count.id))
    .orderBy(asc(materialCounts.materialCode));
}

/**
 * The split's revision: a digest of its parts (id, counter, label) and each part's lines, so that a
 * save can name the split it was made from (decision 0066). Counting does not change it (a
 * quantity, a part marked done); moving a line, changing a counter or a label does. Read from the
 * tables on every call: two replicas answer the same.
 */
export async function splitRevision(db: Executor, stockCountId: number): Promise<string> {
  const [row] = rowsOf<{ revision: string }>(
    await db.execute(sql`
      select md5(coalesce(string_agg(
        p.id::text || ':' || p.counter || ':' || coalesce(p.label, '') || ':' ||
          coalesce((select string_agg(l.material_count_id::text, ',' order by l.material_count_id) from ${stockCountPartLines} l where l.part_id = p.id), ''),
        ';' order by p.id), '')) as revision
      from ${stockCountParts} p
      where p.stock_count_id = ${stockCountId}`),
  );
  return row!.revision;
}

/**
 * The split is still the one the planner started from (`expected`: its part ids; empty: not split
 * yet), else 409 splitChangedMeanwhile: a second planner's save must not replace a split it never
 * showed (moving uncounted lines, removing counters). The caller holds the count's row lock, under
 * which every split is written, so the parts cannot change between this check and the write.
 */
async function assertSplitAsShown(tx: Tx, count: StockCountRecord, expected: readonly number[] | undefined, revision: string | undefined): Promise<void> {
  if (expected === undefined && revision === undefined) return;
  const current = (await partsOf(tx, count.id)).map((part) => part.id);
  const shown = new Set(expected ?? current);
  const sameParts = current.length === shown.size && current.every((partId) => shown.has(partId));
  // The same parts with lines moved between them, a counter or a label changed: another split too.
  if (sameParts && (revision === undefined || revision === (await splitRevision(tx, count.id)))) return;
  throw new HttpError(
    409,
    `The counters of stock count ${count.id} were changed by someone else after you read them: nothing was saved. Read them again as they are now, then make your change`,
    { code: 'splitChangedMeanwhile', params: { id: count.id } },
  );
}

/**
 * Sets the split of a count (create or edit): the parts as listed, each with its lines. A part
 * kept (same counter) keeps what its counter counted on the lines it keeps; taking away a line a
 * counter already counted, or a whole part with counted lines, is refused (409): nothing counted
 * is thrown away silently. A line counted before the count was split keeps its quantity in the
 * part that takes it. Every line of the count must be in a part; a line in two parts only
 * when listed in controlMaterialCodes. With `expectedPartIds`, a split changed since is refused (409).
 */
export async function applySplit(tx: Tx, user: CurrentUser, count: StockCountRecord, input: SplitInput): Promise<SplitOutcome> {
  await assertSplitAsShown(tx, count, input.expectedPartIds, input.expectedSplitRevision);
  const lines = await linesWithBins(tx, count);
  const byCode = new Map(lines.map((line) => [line.code, line]));

  // Which parts take each line.
  const holders = new Map<number, number[]>(); // line id → indexes of parts
  const take = (lineId: number, index: number) => {
    const list = holders.get(lineId) ?? [];
    if (!list.includes(index)) holders.set(lineId, [...list, index]);
  };
  input.parts.forEach((part, index) => {
    for (const code of part.materialCodes ?? []) {
      const line = byCode.get(code);
      if (!line) throw new HttpError(400, `Material ${code} is not a line of stock count ${count.id}`, { code: 'splitNotALine', params: { code, id: count.id } });
      take(line.id, index);
    }
    for (const range of part.bins ?? []) {
      const inRange = lines.filter((line) => binInRange(line.bin, range));
      if (inRange.length === 0) {
        throw new HttpError(400, `No line of stock count ${count.id} lies in bins ${range.from} to ${range.to}`, { code: 'splitNoLinesInBins', params: { id: count.id, from: range.from, to: range.to } });
      }
      for (const line of inRange) take(line.id, index);
    }
  });
  const restIndex = input.parts.findIndex((part) => part.rest);
  if (restIndex >= 0) for (const line of lines) if (!holders.has(line.id)) take(line.id, restIndex);

  const control = new Set(input.controlMaterialCodes ?? []);
  for (const code of control) {
    const line = byCode.get(code);
    if (!line) throw new HttpError(400, `Material ${code} is not a line of stock count ${count.id}`, { code: 'splitNotALine', params: { code, id: count.id } });
    if ((holders.get(line.id)?.length ?? 0) < 2) {
      throw new HttpError(400, `Material ${code} is listed for a control count but is in fewer than two parts`, { code: 'splitControlInOnePart', params: { code } });
    }
  }
  const overlaps = lines.filter((line) => (holders.get(line.id)?.length ?? 0) > 1 && !control.has(line.code));
  if (overlaps.length > 0) {
    const first = overlaps[0]!;
    const who = holders.get(first.id)!.map((index) => input.parts[index]!.counter).join(' and ');
    throw new HttpError(
      400,
      `A line belongs to one part unless it is a control count: ${listed(overlaps.map((line) => line.code))} ${overlaps.length === 1 ? 'is' : 'are'} in more than one part (${first.code}: ${who}); list ${overlaps.length === 1 ? 'it' : 'them'} in controlMaterialCodes to count ${overlaps.length === 1 ? 'it' : 'them'} twice`,
      { code: 'splitOverlap', params: { codes: listed(overlaps.map((line) => line.code)), count: overlaps.length, first: first.code, who } },
    );
  }
  const unplaced = lines.filter((line) => !holders.has(line.id));
  if (unplaced.length > 0) {
    throw new HttpError(400, `Every line needs a part: ${listed(unplaced.map((line) => line.code))} ${unplaced.length === 1 ? 'is' : 'are'} in no part (give one part rest: true to take the rest)`, {
      code: 'splitUnplaced',
      params: { codes: listed(unplaced.map((line) => line.code)), count: unplaced.length },
    });
  }

  // Compare with the split as it is.
  const existing = await tx.select().from(stockCountParts).where(eq(stockCountParts.stockCountId, count.id)).for('update');
  const existingLines = existing.length
    ? await tx.select().from(stockCountPartLines).where(inArray(stockCountPartLines.partId, existing.map((part) => part.id)))
    : [];
  const codeOf = new Map(lines.map((line) => [line.id, line.code]));
  const wanted = input.parts.map((part, index) => ({
    counter: part.counter.toLowerCase(),
    label: part.label ?? null,
    lineIds: lines.filter((line) => holders.get(line.id)!.includes(index)).map((line) => line.id),
  }));
  // Who is given something to count must be able to count it (0033: approved, not expired, a
  // role that enters quantities, in the plant): a counter new to the split, or a kept one given
  // more lines. A kept counter whose lines stay as they are is not checked again: one whose access
  // ran out meanwhile must not block every other change of the split.
  for (const [index, w] of wanted.entries()) {
    const old = existing.find((part) => part.counter === w.counter);
    const had = new Set(old ? existingLines.filter((line) => line.partId === old.id).map((line) => line.materialCountId) : []);
    if (!old || w.lineIds.some((lineId) => !had.has(lineId))) await assertCounter(tx, count.plant, input.parts[index]!.counter);
  }
  const lost: string[] = [];
  // The same, in no language: counter (codes, …), for the app's own wording (decision 0055).
  const lostShort: string[] = [];
  for (const part of existing) {
    const keep = wanted.find((w) => w.counter === part.counter);
    const counted = existingLines.filter((line) => line.partId === part.id && line.quantity !== null && !(keep?.lineIds.includes(line.materialCountId) ?? false));
    const codes = counted.map((line) => codeOf.get(line.materialCountId) ?? String(line.materialCountId));
    if (counted.length > 0) {
      lost.push(`${part.counter} (${listed(codes, 5)})`);
      lostShort.push(`${part.counter} (${codes.slice(0, 5).join(', ')}${codes.length > 5 ? ', …' : ''})`);
    }
  }
  if (lost.length > 0) {
    throw new HttpError(409, `Lines already counted cannot leave their part: ${lost.join('; ')}. Keep them in that part, or send them to recount first`, {
      code: 'splitCountedLinesStay',
      params: { lines: lostShort.join('; ') },
    });
  }

  if (input.blind !== undefined && input.blind !== count.isBlind) {
    const started = lines.some((line) => line.quantity !== null) || existingLines.some((line) => line.quantity !== null);
    if (started) throw new HttpError(409, `Stock count ${count.id} is being counted: blind can be changed only before counting starts`, { code: 'blindAfterStart', params: { id: count.id } });
    await tx.update(stockCounts).set({ isBlind: input.blind, updatedAt: sql`now()` }).where(eq(stockCounts.id, count.id));
  }

  // A line counted before any part held it (through PUT /my_material_count, before the count was
  // split) keeps its quantity: it is written into the line of the part that takes it, with who
  // counted it and when, so the merge below reads it back instead of clearing it (unaudited). A
  // control line keeps it in the part of whoever counted it (else its first part); the other
  // part counts it again. From then on it is a counted part line: it cannot leave its part.
  const heldBefore = new Set(existingLines.map((line) => line.materialCountId));
  const carried = new Map<number, { index: number; line: (typeof lines)[number] }>(); // line id → the part (index) that keeps its count
  for (const line of lines) {
    if (line.quantity === null || heldBefore.has(line.id)) continue;
    const takers = holders.get(line.id)!;
    const byCounter = takers.find((index) => input.parts[index]!.counter.toLowerCase() === line.updatedBy?.toLowerCase());
    carried.set(line.id, { index: byCounter ?? takers[0]!, line });
  }
  const countsOf = (index: number) =>
    new Map(
      [...carried.values()]
        .filter((carry) => carry.index === index)
        .map(({ line }) => [line.id, { quantity: line.quantity, countedBy: line.updatedBy, countedAt: line.updatedAt }] as const),
    );

  const outcome: SplitOutcome = { told: [], removed: [] };
  for (const part of existing) {
    if (!wanted.some((w) => w.counter === part.counter)) {
      await tx.delete(stockCountParts).where(eq(stockCountParts.id, part.id));
      outcome.removed.push(part.counter);
    }
  }
  for (const [index, w] of wanted.entries()) {
    const old = existing.find((part) => part.counter === w.counter);
    if (!old) {
      const [created] = await tx.insert(stockCountParts).values({ stockCountId: count.id, counter: w.counter, label: w.label, createdBy: user.email }).returning();
      await insertPartLines(tx, created!.id, w.lineIds, countsOf(index));
      outcome.told.push({ counter: w.counter, lines: w.lineIds.length });
      continue;
    }
    const had = existingLines.filter((line) => line.partId === old.id).map((line) => line.materialCountId);
    const added = w.lineIds.filter((lineId) => !had.includes(lineId));
    const dropped = had.filter((lineId) => !w.lineIds.includes(lineId));
    if (dropped.length > 0) {
      await tx.delete(stockCountPartLines).where(and(eq(stockCountPartLines.partId, old.id), inArray(stockCountPartLines.materialCountId, dropped)));
    }
    await insertPartLines(tx, old.id, added, countsOf(index));
    // New lines to count reopen a part its counter had finished.
    await tx
      .update(stockCountParts)
      .set({ label: w.label, ...(added.length > 0 ? { status: 'open', doneAt: null } : {}), updatedAt: sql`now()` })
      .where(eq(stockCountParts.id, old.id));
    // Lines given or taken away (only uncounted ones can be): the counter's sheet is their part, and
    // a phone counting offline would otherwise learn of a line taken away only as a 403 on sync.
    if (added.length > 0 || dropped.length > 0) outcome.told.push({ counter: w.counter, lines: w.lineIds.length });
  }
  await remerge(tx, user, lines.map((line) => line.id));
  await audit(
    tx,
    user,
    'stock_count.split',
    'stock_count',
    count.id,
    existing.map((part) => ({ counter: part.counter, lines: existingLines.filter((line) => line.partId === part.id).length })),
    {
      parts: wanted.map((w) => ({ counter: w.counter, label: w.label, lines: w.lineIds.length })),
      control: [...control],
      blind: input.blind ?? count.isBlind,
      // Quantities counted before the split, kept in the part that took each line.
      ...(carried.size > 0
        ? { carried: [...carried.values()].map(({ index, line }) => ({ material_count_id: line.id, counter: wanted[index]!.counter, quantity: num(line.quantity), counted_by: line.updatedBy })) }
        : {}),
    },
  );
  return outcome;
}

/** Lines into a part, uncounted, or with what was counted on them before the split (`counted`). */
async function insertPartLines(
  tx: Tx,
  partId: number,
  lineIds: number[],
  counted: ReadonlyMap<number, { quantity: string | null; countedBy: string | null; countedAt: Date }> = new Map(),
) {
  for (let i = 0; i < lineIds.length; i += 500) {
    const slice = lineIds.slice(i, i + 500);
    if (slice.length > 0) {
      await tx.insert(stockCountPartLines).values(
        slice.map((materialCountId) => {
          const count = counted.get(materialCountId);
          return { partId, materialCountId, quantity: count?.quantity ?? null, countedBy: count?.countedBy ?? null, countedAt: count?.countedAt ?? null };
        }),
      );
    }
  }
}

/** A line a counter added to a split count goes into their part (they found it on their shelves). */
export async function addLineToPart(tx: Tx, part: PartRecord, materialCountId: number): Promise<void> {
  await insertPartLines(tx, part.id, [materialCountId]);
}

// ───────────── merge ─────────────

interface LineMerge {
  line: typeof materialCounts.$inferSelect;
  holders: Array<{ part: PartRecord; line: typeof stockCountPartLines.$inferSelect }>;
  state: MergeState;
  quantity: number | null;
}

async function mergesOf(db: Executor, lineIds: number[]): Promise<LineMerge[]> {
  if (lineIds.length === 0) return [];
  const lines = await db.select().from(materialCounts).where(inArray(materialCounts.id, lineIds)).orderBy(asc(materialCounts.materialCode));
  const held = await db
    .select({ part: stockCountParts, line: stockCountPartLines })
    .from(stockCountPartLines)
    .innerJoin(stockCountParts, eq(stockCountParts.id, stockCountPartLines.partId))
    .where(inArray(stockCountPartLines.materialCountId, lineIds))
    .orderBy(asc(stockCountParts.id));
  return lines.map((line) => {
    const holders = held.filter((h) => h.line.materialCountId === line.id);
    const merged = mergeLine(
      holders.map((h) => ({ partId: h.part.id, quantity: num(h.line.quantity) })),
      line.resolvedPartId,
    );
    return { line, holders, ...merged };
  });
}

/**
 * Writes each line's merged quantity into material_counts (bumping its version when it changes),
 * so the count's lines, the list calls and submit read the merge. Unassigned lines are left as they are.
 */
async function remerge(tx: Tx, user: CurrentUser, lineIds: number[]): Promise<void> {
  for (const merge of await mergesOf(tx, lineIds)) {
    if (merge.state === 'unassigned') continue;
    const current = num(merge.line.quantity);
    const keepResolution = merge.state === 'resolved';
    const changes = {
      ...(current !== merge.quantity ? { quantity: merge.quantity === null ? null : String(merge.quantity), version: sql`${materialCounts.version} + 1`, updatedBy: user.email, updatedAt: sql`now()` } : {}),
      ...(!keepResolution && merge.line.resolvedPartId !== null ? { resolvedPartId: null, resolvedBy: null, resolvedAt: null } : {}),
    };
    if (Object.keys(changes).length > 0) await tx.update(materialCounts).set(changes).where(eq(materialCounts.id, merge.line.id));
  }
}

/** Display names of the users behind these e-mails (counters, a line's decider), by e-mail. */
async function displayNames(db: Executor, emails: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(emails.filter((email): email is string => email !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ email: users.email, name: users.displayName }).from(users).where(inArray(users.email, wanted));
  return new Map(rows.map((row) => [row.email, row.name] as const));
}

function toMergeRow(merge: LineMerge, names: ReadonlyMap<string, string>): MergeLineRow {
  return {
    material_count_id: merge.line.id,
    material_code: merge.line.materialCode,
    material_description_english: merge.line.materialDescriptionEnglish,
    unit: merge.line.unit,
    state: merge.state,
    quantity: merge.quantity,
    book_quantity: num(merge.line.bookQuantity),
    counts: merge.holders.map((h) => ({
      part_id: h.part.id,
      counter: h.part.counter,
      quantity: num(h.line.quantity),
      counted_by: h.line.countedBy,
      counted_at: h.line.countedAt?.toISOString() ?? null,
    })),
    resolved_part_id: merge.state === 'resolved' ? merge.line.resolvedPartId : null,
    resolved_by: merge.state === 'resolved' ? merge.line.resolvedBy : null,
    resolved_by_name: merge.state === 'resolved' && merge.line.resolvedBy ? (names.get(merge.line.resolvedBy) ?? null) : null,
    resolved_at: merge.state === 'resolved' ? (merge.line.resolvedAt?.toISOString() ?? null) : null,
  };
}

/** The merge of a count: by default the lines held by two or more parts and every variance; or the lines in one state. */
export async function mergeRows(db: Executor, stockCountId: number, state?: MergeState): Promise<MergeLineRow[]> {
  const ids = await db.select({ id: materialCounts.id }).from(materialCounts).where(eq(materialCounts.stockCountId, stockCountId));
  const merges = (await mergesOf(db, ids.map((row) => row.id))).filter((merge) =>
    state ? merge.state === state : merge.holders.length > 1 || merge.state === 'variance',
  );
  const names = await displayNames(db, merges.map((merge) => merge.line.resolvedBy));
  return merges.map((merge) => toMergeRow(merge, names));
}

/**
 * The planner resolves a line: take one counter's quantity (the line must be in variance, or
 * resolved already: changing one's mind), or send it to recount (every holder's quantity is
 * cleared, the audit keeps them, and their parts reopen). Either acts on what the planner was
 * shown when the client says so (`expectedQuantity`, `expectedCounts`): a counter's quantity
 * changed since is a 409, never a quantity booked (or cleared) that the planner did not see. So is
 * the decision shown (`expectedResolvedPartId`, null: none): another planner's Take or Send to
 * recount since is a 409, never overridden unseen (decision 0068).
 */
export async function resolveLine(
  tx: Tx,
  user: CurrentUser,
  count: StockCountRecord,
  body:
    | { materialCountId: number; action: 'take'; partId: number; expectedQuantity?: number; expectedResolvedPartId?: number | null }
    | { materialCountId: number; action: 'recount'; expectedCounts?: Array<{ partId: number; quantity: number | null }>; expectedResolvedPartId?: number | null },
): Promise<MergeLineRow> {
  const [line] = await tx
    .select()
    .from(materialCounts)
    .where(and(eq(materialCounts.id, body.materialCountId), eq(materialCounts.stockCountId, count.id)))
    .for('update');
  if (!line) throw new HttpError(404, `Material count ${body.materialCountId} is not a line of stock count ${count.id}`);
  const [merge] = await mergesOf(tx, [line.id]);
  if (merge!.holders.length === 0) throw new HttpError(409, `Material ${line.materialCode} is in no part of stock count ${count.id}: put it in a part first`);
  const names = await displayNames(tx, [merge!.line.resolvedBy, user.email, ...merge!.holders.map((h) => h.part.counter)]);
  const before = toMergeRow(merge!, names);
  if (body.expectedResolvedPartId !== undefined && body.expectedResolvedPartId !== before.resolved_part_id) {
    throw new HttpError(
      409,
      `Material ${line.materialCode} was decided by someone else after you opened the merge: nothing was changed. Look at the line again as it is now, then decide`,
      { code: 'mergeDecidedMeanwhile', params: { code: line.materialCode } },
    );
  }
  if (body.action === 'take') {
    const holder = merge!.holders.find((h) => h.part.id === body.partId);
    if (!holder) throw new HttpError(400, `Part ${body.partId} does not count material ${line.materialCode} of stock count ${count.id}`);
    if (body.expectedQuantity !== undefined && num(holder.line.quantity) !== body.expectedQuantity) {
      const who = names.get(holder.part.counter) ?? holder.part.counter;
      throw new HttpError(
        409,
        `${who}'s quantity of ${line.materialCode} is no longer the ${body.expectedQuantity} ${line.unit} you saw: it changed after you opened the merge. Look at the line again as it is now, then decide`,
        { code: 'mergeChangedMeanwhile', params: { code: line.materialCode, who, shown: body.expectedQuantity, unit: line.unit } },
      );
    }
    // Coded (decision 0055): a counter's quantity cleared, or the counters agreeing, since the screen was read.
    if (holder.line.quantity === null) {
      const who = names.get(holder.part.counter) ?? holder.part.counter;
      throw new HttpError(409, `${holder.part.counter} has not counted material ${line.materialCode}: nothing to take`, {
        code: 'mergeNothingToTake',
        params: { code: line.materialCode, who },
      });
    }
    if (merge!.state !== 'variance' && merge!.state !== 'resolved') {
      throw new HttpError(409, `Material ${line.materialCode} has no difference between counters to resolve (it is ${merge!.state})`, {
        code: 'mergeNothingToResolve',
        params: { code: line.materialCode, state: merge!.state },
      });
    }
    await tx
      .update(materialCounts)
      .set({
        quantity: holder.line.quantity,
        resolvedPartId: holder.part.id,
        resolvedBy: user.email,
        resolvedAt: sql`now()`,
        version: sql`${materialCounts.version} + 1`,
        updatedBy: user.email,
        updatedAt: sql`now()`,
      })
      .where(eq(materialCounts.id, line.id));
  } else {
    const shown = body.expectedCounts;
    const unchanged =
      shown === undefined ||
      (shown.length === merge!.holders.length &&
        merge!.holders.every((h) => shown.some((seen) => seen.partId === h.part.id && seen.quantity === num(h.line.quantity))));
    if (!unchanged) {
      throw new HttpError(
        409,
        `The counters' quantities of ${line.materialCode} changed after you opened the merge: nothing was cleared. Look at the line again as it is now, then decide`,
        { code: 'mergeRecountChangedMeanwhile', params: { code: line.materialCode } },
      );
    }
    const partIds = merge!.holders.map((h) => h.part.id);
    await tx
      .update(stockCountPartLines)
      .set({ quantity: null, countedBy: null, countedAt: null, version: sql`${stockCountPartLines.version} + 1` })
      .where(and(eq(stockCountPartLines.materialCountId, line.id), inArray(stockCountPartLines.partId, partIds)));
    await tx.update(stockCountParts).set({ status: 'open', doneAt: null, updatedAt: sql`now()` }).where(inArray(stockCountParts.id, partIds));
    await tx
      .update(materialCounts)
      .set({ quantity: null, resolvedPartId: null, resolvedBy: null, resolvedAt: null, version: sql`${materialCounts.version} + 1`, updatedBy: user.email, updatedAt: sql`now()` })
      .where(eq(materialCounts.id, line.id));
  }
  const [after] = await mergesOf(tx, [line.id]);
  const row = toMergeRow(after!, names);
  await audit(tx, user, body.action === 'take' ? 'stock_count.line.take' : 'stock_count.line.recount', 'material_count', line.id, before, row);
  return row;
}

// ───────────── parts: progress, lines, counting, done ─────────────

export async function partRows(db: Executor, user: CurrentUser, parts: PartRecord[]): Promise<StockCountPartRow[]> {
  if (parts.length === 0) return [];
  const ids = parts.map((part) => part.id);
  const stats = await db
    .select({
      partId: stockCountPartLines.partId,
      total: sql<number>`count(*)::int`,
      counted: sql<number>`count(${stockCountPartLines.quantity})::int`,
      // Qualified by hand: in a one-table select Drizzle names columns bare, which inside this subquery would mean o's own.
      control: sql<number>`count(*) filter (where exists (select 1 from stock_count_part_lines o where o.material_count_id = stock_count_part_lines.material_count_id and o.part_id <> stock_count_part_lines.part_id))::int`,
    })
    .from(stockCountPartLines)
    .where(inArray(stockCountPartLines.partId, ids))
    .groupBy(stockCountPartLines.partId);
  const names = await displayNames(db, parts.map((part) => part.counter));
  return parts.map((part) => {
    const stat = stats.find((s) => s.partId === part.id);
    return {
      id: part.id,
      stock_count_id: part.stockCountId,
      counter: part.counter,
      counter_name: names.get(part.counter) ?? null,
      label: part.label,
      status: part.status as PartStatus,
      done_at: part.doneAt?.toISOString() ?? null,
      total_lines: Number(stat?.total ?? 0),
      counted_lines: Number(stat?.counted ?? 0),
      control_lines: Number(stat?.control ?? 0),
      is_mine: part.counter === user.email.toLowerCase(),
    };
  });
}

/** Progress per counter, with the count's lines in no part and its variances. */
export async function partsProgress(db: Executor, user: CurrentUser, count: StockCountRecord) {
  const parts = await partsOf(db, count.id);
  const ids = await db.select({ id: materialCounts.id }).from(materialCounts).where(eq(materialCounts.stockCountId, count.id));
  const merges = await mergesOf(db, ids.map((row) => row.id));
  return {
    stock_count_id: count.id,
    status: count.status as StockCountStatus,
    is_blind: count.isBlind,
    parts: await partRows(db, user, parts),
    total_lines: ids.length,
    lines_in_no_part: parts.length === 0 ? 0 : merges.filter((merge) => merge.state === 'unassigned').length,
    variance_lines: merges.filter((merge) => merge.state === 'variance').length,
    split_revision: await splitRevision(db, count.id),
  };
}

/**
 * The count's material codes outside `partId`: each with a part that holds it (null: in no part
 * yet). A counter's scan of such a code says whose it is; adding it again would be refused (409).
 */
export async function linesElsewhere(db: Executor, stockCountId: number, partId: number): Promise<Array<{ material_code: string; part_id: number | null }>> {
  return rowsOf<{ material_code: string; part_id: number | null }>(
    await db.execute(sql`
      select distinct on (m.material_code) m.material_code, l.part_id
      from ${materialCounts} m
      left join ${stockCountPartLines} l on l.material_count_id = m.id
      where m.stock_count_id = ${stockCountId}
        and not exists (select 1 from ${stockCountPartLines} mine where mine.material_count_id = m.id and mine.part_id = ${partId})
      order by m.material_code, l.part_id nulls last`),
  ).map((row) => ({ material_code: row.material_code, part_id: row.part_id === null ? null : Number(row.part_id) }));
}

/** The lines of a part as its counter (or a planner) reads them; without book quantities when `blind`. */
export async function partLineRows(db: Executor, count: StockCountRecord, part: PartRecord, blind: boolean, onlyIds?: number[]): Promise<PartLineRow[]> {
  const rows = await db
    .select({
      partLine: stockCountPartLines,
      line: materialCounts,
      bin: stockItems.bin,
      control: sql<boolean>`exists (select 1 from ${stockCountPartLines} o where o.material_count_id = ${stockCountPartLines.materialCountId} and o.part_id <> ${stockCountPartLines.partId})`,
    })
    .from(stockCountPartLines)
    .innerJoin(materialCounts, eq(materialCounts.id, stockCountPartLines.materialCountId))
    .leftJoin(
      stockItems,
      and(eq(stockItems.plant, count.plant), eq(stockItems.storageLocation, count.storageLocation), eq(stockItems.materialCode, materialCounts.materialCode)),
    )
    .where(and(eq(stockCountPartLines.partId, part.id), onlyIds ? inArray(stockCountPartLines.materialCountId, onlyIds) : undefined))
    .orderBy(sql`${stockItems.bin} asc nulls last`, asc(materialCounts.materialCode));
  const books = blind ? new Map<number, number | null>() : await currentBooks(db, rows.map((row) => row.line.id));
  return rows.map(({ partLine, line, bin, control }) => {
    const row: PartLineRow = {
      material_count_id: line.id,
      material_code: line.materialCode,
      material_description_english: line.materialDescriptionEnglish,
      unit: line.unit,
      bin,
      quantity: num(partLine.quantity),
      counted_by: partLine.countedBy,
      counted_at: partLine.countedAt?.toISOString() ?? null,
      version: partLine.version,
      book_quantity: num(line.bookQuantity),
      book_quantity_at: line.bookQuantityAt?.toISOString() ?? null,
      book_quantity_now: books.get(line.id) ?? null,
      is_control: Boolean(control),
    };
    return blind ? withoutBook(row) : row;
  });
}

/**
 * Lines of the count a counter writes to that are not in their part (another counter's, or in no
 * part: the split changed since their phone read its part) are a 403 the phone words in its
 * language (code lineLeftYourPart, the material codes as `code`). Lines not of the count are left
 * to writePartQuantities (404).
 */
export async function assertLinesInPart(tx: Tx, count: StockCountRecord, part: PartRecord, materialCountIds: number[]): Promise<void> {
  const outside = await tx
    .select({ code: materialCounts.materialCode })
    .from(materialCounts)
    .where(
      and(
        eq(materialCounts.stockCountId, count.id),
        inArray(materialCounts.id, materialCountIds),
        sql`not exists (select 1 from ${stockCountPartLines} mine where mine.material_count_id = ${materialCounts.id} and mine.part_id = ${part.id})`,
      ),
    )
    .orderBy(asc(materialCounts.materialCode));
  if (outside.length === 0) return;
  const codes = listed(outside.map((row) => row.code));
  const one = outside.length === 1;
  throw new HttpError(
    403,
    `${codes} ${one ? 'is' : 'are'} not in your part of stock count ${count.id} (any more): the split was changed and another counter counts ${one ? 'it' : 'them'}, or no part holds ${one ? 'it' : 'them'} yet. Nothing was saved`,
    { code: 'lineLeftYourPart', params: { code: codes, count: outside.length, id: count.id } },
  );
}

/**
 * A counter's quantities for lines of their part: all or none. A line of the count outside their
 * part is a 403 (it is someone else's to count); one not in the count a 404. A stale version whose
 * value differs is a 409 with the lines as they are (as PUT /my_material_count). A part marked
 * done is reopened by a changed quantity; the part is returned as it is after the write.
 */
export async function writePartQuantities(
  tx: Tx,
  user: CurrentUser,
  count: StockCountRecord,
  part: PartRecord,
  edits: Array<{ materialCountId: number; quantity: number; version?: number }>,
  blind: boolean,
): Promise<{ conflicts: PartLineRow[] } | { lines: PartLineRow[]; part: PartRecord }> {
  const ids = edits.map((edit) => edit.materialCountId);
  const mine = await tx
    .select()
    .from(stockCountPartLines)
    .where(and(eq(stockCountPartLines.partId, part.id), inArray(stockCountPartLines.materialCountId, ids)))
    .for('update');
  const outside = ids.filter((lineId) => !mine.some((line) => line.materialCountId === lineId));
  if (outside.length > 0) {
    const ofCount = await tx
      .select({ id: materialCounts.id })
      .from(materialCounts)
      .where(and(eq(materialCounts.stockCountId, count.id), inArray(materialCounts.id, outside)));
    const others = outside.filter((lineId) => ofCount.some((row) => row.id === lineId));
    if (others.length > 0) throw new HttpError(403, `Material count ${others.join(', ')} is not in your part of stock count ${count.id}: another counter counts it`);
    throw new HttpError(404, `Material count ${outside.join(', ')} not found in stock count ${count.id}`);
  }
  const stale = mine.filter((line) => {
    const edit = edits.find((e) => e.materialCountId === line.materialCountId)!;
    return edit.version !== undefined && edit.version !== line.version && num(line.quantity) !== edit.quantity;
  });
  if (stale.length > 0) return { conflicts: await partLineRows(tx, count, part, blind, stale.map((line) => line.materialCountId)) };
  // A correction after "my part is done" reopens the part, as a line the counter adds does (an
  // offline correction queued behind the "done" must not be refused): the counter says done
  // again when it is. The same quantities sent again change nothing and leave the part done.
  const changed = edits.some((edit) => num(mine.find((line) => line.materialCountId === edit.materialCountId)!.quantity) !== edit.quantity);
  const current = part.status === 'done' && changed ? await setPartStatus(tx, user, count, part, 'open') : part;

  // The count is only shared (lockCountsForEdit): two counters may write the same lines (a control count),
  // and the overseer's PUT my_material_count locks lines in id order. The lines are locked here in
  // that order first, so the writes below never take them in another (a deadlock, 40P01); a later
  // writer of a line waits here and merges (remerge) with the earlier writer's quantity committed.
  // Every id is locked and written below, whatever its quantity: that wait is what keeps a merge.
  await tx.select({ id: materialCounts.id }).from(materialCounts).where(inArray(materialCounts.id, ids)).orderBy(materialCounts.id).for('no key update');
  // Every line in one statement, the edits as arrays side by side (the contract refuses a line
  // listed twice), as PUT my_material_count does: a device syncs up to 100 edits a request.
  await tx
    .update(stockCountPartLines)
    .set({ quantity: sql`edit.quantity`, countedBy: user.email, countedAt: sql`now()`, version: sql`${stockCountPartLines.version} + 1` })
    .from(sql`unnest(${sql.param(ids)}::bigint[], ${sql.param(edits.map((edit) => String(toThousandths(edit.quantity))))}::numeric[]) as edit(material_count_id, quantity)`)
    .where(and(eq(stockCountPartLines.partId, part.id), sql`${stockCountPartLines.materialCountId} = edit.material_count_id`));
  // A counter's new quantity voids a resolution made on the quantities before it: the merge decides again.
  await tx.update(materialCounts).set({ resolvedPartId: null, resolvedBy: null, resolvedAt: null }).where(inArray(materialCounts.id, ids));
  await remerge(tx, user, ids);
  await audit(
    tx,
    user,
    'stock_count.part.count',
    'stock_count_part',
    part.id,
    mine.map((line) => ({ material_count_id: line.materialCountId, quantity: num(line.quantity), counted_by: line.countedBy })),
    edits.map((edit) => ({ material_count_id: edit.materialCountId, quantity: edit.quantity })),
  );
  // §4: the first quantity of an initiated count moves it to in progress.
  if (count.status === 'initiated') await tx.update(stockCounts).set({ status: 'in_progress', updatedAt: sql`now()` }).where(eq(stockCounts.id, count.id));
  return { lines: await partLineRows(tx, count, current, blind, ids), part: current };
}

/** "My part is done" (every line of the part counted), or open again. */
export async function setPartStatus(tx: Tx, user: CurrentUser, count: StockCountRecord, part: PartRecord, status: PartStatus): Promise<PartRecord> {
  if (status === 'done') {
    const open = await tx
      .select({ code: materialCounts.materialCode })
      .from(stockCountPartLines)
      .innerJoin(materialCounts, eq(materialCounts.id, stockCountPartLines.materialCountId))
      .where(and(eq(stockCountPartLines.partId, part.id), sql`${stockCountPartLines.quantity} is null`))
      .orderBy(asc(materialCounts.materialCode));
    if (open.length > 0) {
      const codes = open.map((row) => row.code);
      throw new HttpError(409, `${open.length} line${open.length === 1 ? '' : 's'} of your part ${open.length === 1 ? 'is' : 'are'} not counted yet: ${listed(codes)}`, {
        code: 'partNotAllCounted',
        params: { count: open.length, codes: `${codes.slice(0, 20).join(', ')}${codes.length > 20 ? ', …' : ''}` },
      });
    }
  }
  const [updated] = await tx
    .update(stockCountParts)
    .set({ status, doneAt: status === 'done' ? (part.doneAt ?? new Date()) : null, updatedAt: sql`now()` })
    .where(eq(stockCountParts.id, part.id))
    .returning();
  if (part.status !== status) await audit(tx, user, `stock_count.part.${status}`, 'stock_count_part', part.id, { status: part.status }, { status, stock_count_id: count.id });
  return updated!;
}

/**
 * Submit rules of a split count: every part done, or the planner confirms the open ones
 * (`confirmOpenParts`); no variance left. Returns the 409 body when refused, else null.
 * `shownOpenPartIds`: the open parts the planner was shown when confirming (optional, for
 * clients that send it): a part open now that was not among them is refused with the open parts
 * as they are, never confirmed unseen. A shown part done since needs no confirmation.
 */
export async function splitSubmitRefusal(
  tx: Tx,
  user: CurrentUser,
  count: StockCountRecord,
  options: { confirmOpenParts: boolean; mayConfirm: boolean; shownOpenPartIds?: readonly number[] },
): Promise<{ message: string; code?: string; params?: Record<string, string | number>; open_parts?: StockCountPartRow[]; variances?: MergeLineRow[] } | null> {
  const parts = await partsOf(tx, count.id);
  if (parts.length === 0) return null;
  const open = parts.filter((part) => part.status === 'open');
  if (open.length > 0) {
    if (options.confirmOpenParts && !options.mayConfirm) {
      throw new HttpError(403, `Only a planner of stock count ${count.id} can submit it with parts still open`);
    }
    if (!options.confirmOpenParts) {
      const rows = await partRows(tx, user, open);
      const names = rows.map((row) => `${row.counter} (${row.counted_lines} of ${row.total_lines} counted)`).join(', ');
      return {
        message: `${open.length} part${open.length === 1 ? ' is' : 's are'} not done yet: ${names}. Submit when every part is done, or confirm the open parts (confirmOpenParts=true)`,
        open_parts: rows,
      };
    }
    const shown = options.shownOpenPartIds;
    const unseen = shown === undefined ? [] : open.filter((part) => !shown.includes(part.id));
    if (unseen.length > 0) {
      const rows = await partRows(tx, user, open);
      const counters = rows.filter((row) => unseen.some((part) => part.id === row.id)).map((row) => row.counter_name ?? row.counter).join(', ');
      return {
        message: `${unseen.length === 1 ? 'A part' : `${unseen.length} parts`} you did not confirm ${unseen.length === 1 ? 'is' : 'are'} open now: ${counters}. Look at the open parts again and confirm them to submit`,
        code: 'openPartsChangedMeanwhile',
        params: { counters, count: unseen.length },
        open_parts: rows,
      };
    }
  }
  const variances = await mergeRows(tx, count.id, 'variance');
  if (variances.length > 0) {
    const codes = listed(variances.map((row) => row.material_code));
    return {
      message: `Counters disagree on ${codes}: take one counter's quantity or send the line to recount before submitting`,
      code: 'submitCountersDisagree',
      params: { codes, count: variances.length },
      variances,
    };
  }
  if (open.length > 0) {
    await audit(tx, user, 'stock_count.submit_open_parts', 'stock_count', count.id, null, { open_parts: open.map((part) => part.counter) });
  }
  return null;
}
