/**
 * The database half of a priority upload: checks that need the data (unknown or foreign
 * ship-to-party numbers and access points, rows a disable file names that do not exist, the §5
 * limit of ship-to-party numbers), what each row would change, and applying all of it with an
 * audit-log entry per change. Applying runs inside the caller's transaction (runMutation) and
 * locks what it reads, so the plan it applies is the plan it checked: all rows or none.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { accessPointPriorities, accessPoints, auditLog, shipToParties, userAttachments, users } from '../db/schema';
import { MAX_SHIP_TO_PARTY_NUMBERS } from '../../src/domain/constants';
import type { PriorityUploadKind } from '../../src/domain/priority';
import type { UploadErrorCode, UploadErrorParams, UploadLineError, UploadResult, UploadRow } from '../../src/contract/priority';
import type { CurrentUser } from '../repositories/users';
import { shipToPartyWriteScope, storedHeldShipToPartyCodes } from '../repositories/priority';
import type { CheckedRow } from './rows';

type Executor = Db | Tx;
type Change = NonNullable<UploadRow['change']>;
interface PriorityState {
  priority: number;
  isEnabled: boolean;
}

export interface PlannedRow extends CheckedRow {
  change: Change | null;
  before: PriorityState | null;
}

export interface UploadPlan {
  kind: PriorityUploadKind;
  rows: PlannedRow[];
  errors: UploadLineError[];
  /** Ship-to-party uploads: numbers held before the upload. */
  heldBefore: number;
}

const CHUNK = 500;
const chunks = <T>(items: T[]): T[][] => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));
const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null && v !== ''))];
const pairKey = (shipToPartyCode: string, accessPointId: string) => `${shipToPartyCode}\u0000${accessPointId}`;

/**
 * Writers of priorities take turns (decision 0025's rule, "one access point per priority of a
 * ship-to-party", is checked on what is stored, then written). Locking the stored rows (FOR
 * UPDATE) does not stop another writer inserting a new access point at the same priority
 * meanwhile: two files, or a file and an edit, could both pass the check. One transaction-level
 * advisory lock for every priority write: they are rare (uploads and single edits of PM managers),
 * and a writer waiting for it reads, after it, what the other committed.
 */
export async function takePriorityWriteTurn(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('access_point_priorities'))`);
}

/** The ship-to-party numbers that exist, each with its plant (null: of no plant). */
async function existingCodes(db: Executor, codes: string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  for (const part of chunks(codes)) {
    const rows = await db.select({ code: shipToParties.code, plant: shipToParties.plant }).from(shipToParties).where(inArray(shipToParties.code, part));
    rows.forEach((row) => found.set(row.code, row.plant));
  }
  return found;
}

/** The uploader's plants as stored (read under the lock on their row, as the numbers they hold). */
async function storedPlants(db: Executor, userId: string): Promise<Set<string>> {
  const rows = await db
    .select({ code: userAttachments.code })
    .from(userAttachments)
    .where(and(eq(userAttachments.userId, userId), eq(userAttachments.kind, 'plant')));
  return new Set(rows.map((row) => row.code));
}

async function existingAccessPoints(db: Executor, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(ids)) {
    const rows = await db.select({ id: accessPoints.id }).from(accessPoints).where(inArray(accessPoints.id, part));
    rows.forEach((row) => found.add(row.id));
  }
  return found;
}

async function currentPriorities(db: Executor, codes: string[], forUpdate: boolean): Promise<Map<string, PriorityState>> {
  const current = new Map<string, PriorityState>();
  for (const part of chunks(codes)) {
    const query = db.select().from(accessPointPriorities).where(inArray(accessPointPriorities.shipToPartyCode, part));
    const rows = forUpdate ? await query.for('update') : await query;
    rows.forEach((row) => current.set(pairKey(row.shipToPartyCode, row.accessPointId), { priority: row.priority, isEnabled: row.isEnabled }));
  }
  return current;
}

/** Checks every row against the data and says what applying would change. */
export async function planUpload(
  db: Executor,
  user: CurrentUser,
  kind: PriorityUploadKind,
  checked: { rows: CheckedRow[]; errors: UploadLineError[] },
  forUpdate: boolean,
): Promise<UploadPlan> {
  const errors = [...checked.errors];
  const fail = (row: CheckedRow, column: string | null, value: string | null, message: string, code: UploadErrorCode, params: UploadErrorParams) => {
    errors.push({ line: row.line, column, value, message, code, params });
    return { ...row, isValid: false, change: null, before: null };
  };
  const valid = checked.rows.filter((row) => row.isValid);
  const codes = unique(valid.map((row) => row.shipToPartyCode));
  const known = await existingCodes(db, codes);
  // Rows of the numbers the uploader may change: a read-only super manager's own only (decision 0063).
  const scope = shipToPartyWriteScope(user);
  let heldBefore = 0;
  let rows: PlannedRow[];

  if (kind === 'shipToParty') {
    // One upload at a time per user, so two files cannot both take the last free places.
    if (forUpdate) await db.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const held = await storedHeldShipToPartyCodes(db, user.id);
    // A number added here is the uploader's write scope from then on. Someone who works in plants
    // (a stock admin, a supervisor who also writes priorities) adds only numbers of those plants,
    // not every customer's; a priority writer of no plant adds any number up to the §5 maximum, as
    // §2's upload is meant for (decision 0066). The super manager: any.
    const stored = scope === null ? null : await storedPlants(db, user.id);
    const plantsOfUploader = stored && stored.size > 0 ? stored : null;
    const plantList = [...(plantsOfUploader ?? [])].sort().join(', ');
    heldBefore = held.size;
    let count = held.size;
    const notOfYourPlants = (row: CheckedRow) =>
      fail(row, 'shipToPartyCode', row.shipToPartyCode, `Ship-to-party number ${row.shipToPartyCode} is not of one of your plants (${plantList}); ask a manager to give it to you`, 'shipToPartyOtherPlant', {
        shipToPartyCode: row.shipToPartyCode,
        plants: plantList,
      });
    rows = checked.rows.map((row) => {
      if (!row.isValid) return { ...row, change: null, before: null };
      if (!known.has(row.shipToPartyCode)) {
        // An uploader held to its plants may not see other plants' numbers: one refusal for a
        // number of another plant and one that does not exist, so that a (dry-run) upload does not
        // tell which customer numbers exist. Who may add any number (or holds this one) is told
        // it is unknown.
        if (plantsOfUploader !== null && !held.has(row.shipToPartyCode)) return notOfYourPlants(row);
        return fail(row, 'shipToPartyCode', row.shipToPartyCode, `Unknown ship-to-party number ${row.shipToPartyCode}`, 'unknownShipToParty', {
          shipToPartyCode: row.shipToPartyCode,
        });
      }
      if (held.has(row.shipToPartyCode)) return { ...row, change: 'unchanged', before: null };
      const plant = known.get(row.shipToPartyCode) ?? null;
      if (plantsOfUploader !== null && (plant === null || !plantsOfUploader.has(plant))) return notOfYourPlants(row);
      if (count >= MAX_SHIP_TO_PARTY_NUMBERS) {
        return fail(row, 'shipToPartyCode', row.shipToPartyCode, `Adding ${row.shipToPartyCode} would exceed the maximum of ${MAX_SHIP_TO_PARTY_NUMBERS} ship-to-party numbers (${count} of ${MAX_SHIP_TO_PARTY_NUMBERS} already)`, 'tooManyShipToParty', { shipToPartyCode: row.shipToPartyCode, max: MAX_SHIP_TO_PARTY_NUMBERS, count });
      }
      count += 1;
      return { ...row, change: 'add', before: null };
    });
  } else {
    if (forUpdate) await takePriorityWriteTurn(db);
    const ids = unique(valid.map((row) => row.accessPointId));
    const points = await existingAccessPoints(db, ids);
    const current = await currentPriorities(db, codes.filter((code) => known.has(code)), forUpdate);
    rows = checked.rows.map((row) => {
      if (!row.isValid) return { ...row, change: null, before: null };
      const accessPointId = row.accessPointId ?? '';
      if (!known.has(row.shipToPartyCode) || (scope !== null && !scope.includes(row.shipToPartyCode))) {
        return fail(row, 'shipToPartyCode', row.shipToPartyCode, `Ship-to-party number ${row.shipToPartyCode} is unknown or not one of yours`, 'notYours', { shipToPartyCode: row.shipToPartyCode });
      }
      if (!points.has(accessPointId)) return fail(row, 'accessPointId', accessPointId, `Unknown access point ${accessPointId}`, 'unknownAccessPoint', { accessPointId });
      const before = current.get(pairKey(row.shipToPartyCode, accessPointId)) ?? null;
      if (kind === 'add') {
        if (!before) return { ...row, change: 'insert', before };
        return { ...row, change: before.priority === row.priority && before.isEnabled ? 'unchanged' : 'update', before };
      }
      if (!before) {
        return fail(row, 'accessPointId', accessPointId, `Access point ${accessPointId} has no priority at ship-to-party ${row.shipToPartyCode}`, 'noPriority', {
          accessPointId,
          shipToPartyCode: row.shipToPartyCode,
        });
      }
      if (row.action === 'delete') return { ...row, change: 'delete', before };
      return { ...row, change: before.isEnabled ? 'disable' : 'unchanged', before };
    });
    if (kind === 'add') rows = refuseSharedPriorities(rows, current, errors);
  }
  errors.sort((a, b) => a.line - b.line);
  return { kind, rows, errors, heldBefore };
}

/**
 * Decision 0025: among the enabled access points of one ship-to-party, each priority names one
 * access point (priority 1 is THE access point parcels go to, §3). Checked on the state after the
 * whole file (so a file may swap two priorities); only rows of the file are refused, each naming
 * the other access point and where it comes from (a line of the file or already stored).
 */
function refuseSharedPriorities(rows: PlannedRow[], current: Map<string, PriorityState>, errors: UploadLineError[]): PlannedRow[] {
  const fromFile = new Map<string, PlannedRow>();
  for (const row of rows) if (row.change !== null) fromFile.set(pairKey(row.shipToPartyCode, row.accessPointId!), row);
  // Final state per ship-to-party and priority: the stored enabled rows the file leaves alone, then the file's.
  const holders = new Map<string, Array<{ accessPointId: string; line: number | null }>>();
  const hold = (code: string, priority: number, accessPointId: string, line: number | null) => {
    const key = `${code}\u0000${priority}`;
    holders.set(key, [...(holders.get(key) ?? []), { accessPointId, line }]);
  };
  for (const [key, state] of current) {
    if (!state.isEnabled || fromFile.has(key)) continue;
    const [code, accessPointId] = key.split('\u0000') as [string, string];
    hold(code, state.priority, accessPointId, null);
  }
  for (const row of fromFile.values()) hold(row.shipToPartyCode, row.priority!, row.accessPointId!, row.line);
  const refused = new Set<number>();
  for (const [key, points] of holders) {
    if (points.length < 2) continue;
    const [code, priority] = key.split('\u0000') as [string, string];
    for (const point of points) {
      if (point.line === null) continue;
      const others = points.filter((other) => other !== point);
      const named = others.map((other) => (other.line === null ? `${other.accessPointId} (already stored)` : `${other.accessPointId} (line ${other.line})`)).join(', ');
      refused.add(point.line);
      errors.push({
        line: point.line,
        column: 'priority',
        value: priority,
        message: `Ship-to-party ${code} would have ${points.length} access points at priority ${priority}: ${point.accessPointId} and ${named}. Give each access point of a ship-to-party its own priority.`,
        code: 'priorityTaken',
        params: { shipToPartyCode: code, priority: Number(priority), accessPointId: point.accessPointId, others: others.map((other) => other.accessPointId).join(', ') },
      });
    }
  }
  return rows.map((row) => (refused.has(row.line) ? { ...row, isValid: false, change: null } : row));
}

const ACTIONS: Record<Exclude<Change, 'unchanged'>, string> = {
  insert: 'priority.insert',
  update: 'priority.update',
  disable: 'priority.disable',
  delete: 'priority.delete',
  add: 'shipToParty.add',
};

/** Writes every change of a plan without errors, with its audit entries. Returns how many rows changed. */
export async function applyPlan(tx: Tx, user: CurrentUser, plan: UploadPlan): Promise<number> {
  const changes = plan.rows.filter((row): row is PlannedRow & { change: Exclude<Change, 'unchanged'> } => row.change !== null && row.change !== 'unchanged');
  const by = user.email;
  for (const part of chunks(changes)) {
    if (plan.kind === 'shipToParty') {
      // Rows planUpload checked in this transaction: known, of the uploader's plants, within the maximum.
      await tx
        .insert(userAttachments)
        .values(part.map((row) => ({ userId: user.id, kind: 'managed_ship_to_party', plant: '', code: row.shipToPartyCode })))
        .onConflictDoNothing();
    } else if (plan.kind === 'add') {
      await tx
        .insert(accessPointPriorities)
        .values(part.map((row) => ({ shipToPartyCode: row.shipToPartyCode, accessPointId: row.accessPointId!, priority: row.priority!, isEnabled: true, updatedBy: by })))
        .onConflictDoUpdate({
          target: [accessPointPriorities.shipToPartyCode, accessPointPriorities.accessPointId],
          set: { priority: sql`excluded.priority`, isEnabled: true, updatedBy: by, updatedAt: sql`now()` },
        });
    } else {
      for (const change of ['disable', 'delete'] as const) {
        const byParty = new Map<string, string[]>();
        part.filter((row) => row.change === change).forEach((row) => byParty.set(row.shipToPartyCode, [...(byParty.get(row.shipToPartyCode) ?? []), row.accessPointId!]));
        for (const [code, ids] of byParty) {
          const where = and(eq(accessPointPriorities.shipToPartyCode, code), inArray(accessPointPriorities.accessPointId, ids));
          if (change === 'delete') await tx.delete(accessPointPriorities).where(where);
          else await tx.update(accessPointPriorities).set({ isEnabled: false, updatedBy: by, updatedAt: sql`now()` }).where(where);
        }
      }
    }
    await tx.insert(auditLog).values(
      part.map((row) => {
        const isParty = plan.kind === 'shipToParty';
        const after =
          row.change === 'delete' ? null
          : row.change === 'disable' ? { ...row.before!, isEnabled: false }
          : isParty ? { managedShipToPartyNumber: row.shipToPartyCode }
          : { priority: row.priority, isEnabled: true };
        // A ship-to-party number added is the uploader's (their attachment): the entry is in their
        // history (target user, their id; the history dialog words shipToParty.add with the number).
        return {
          actorUserId: user.id,
          actorEmail: user.email,
          action: ACTIONS[row.change],
          targetType: isParty ? 'user' : 'access_point_priority',
          targetId: isParty ? user.id : `${row.shipToPartyCode}/${row.accessPointId}`,
          before: row.before,
          after,
        };
      }),
    );
  }
  return changes.length;
}

export function toUploadResult(plan: UploadPlan, dryRun: boolean): UploadResult {
  const changed = plan.rows.filter((row) => row.change !== null && row.change !== 'unchanged');
  return {
    kind: plan.kind,
    dryRun,
    rowCount: plan.rows.length,
    changed: changed.length,
    unchanged: plan.rows.filter((row) => row.change === 'unchanged').length,
    rows: plan.rows.map(({ line, shipToPartyCode, accessPointId, priority, action, change, before }) => ({
      line,
      shipToPartyCode,
      accessPointId,
      priority,
      action,
      change,
      ...(plan.kind === 'shipToParty' ? {} : { before: before && { priority: before.priority, isEnabled: before.isEnabled } }),
    })),
    errors: plan.errors,
    shipToParty:
      plan.kind === 'shipToParty'
        ? { added: changed.map((row) => row.shipToPartyCode), count: plan.heldBefore + changed.length, maximum: MAX_SHIP_TO_PARTY_NUMBERS }
        : null,
  };
}
