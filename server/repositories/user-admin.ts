/**
 * User administration (§2 users management, §6): the three user lists, a user's grants and
 * attachments, expiration date, removal and approval decisions. Every change is written in the
 * caller's transaction together with its audit-log row (who, what, before, after, when), so a
 * change and its record never exist one without the other.
 */
import { normalizeEmail } from '../../src/domain/email';
import { expiryDay, isPastLastDay } from '../../src/domain/expiration';
import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, exists, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  approvalRequests,
  auditLog,
  plannerGroups,
  plants,
  shipToParties,
  storageLocations,
  userAttachments,
  userGrants,
  users,
  workCenters,
} from '../db/schema';
import { expirationTag, PENDING_APPROVALS_MAX, type ApprovalRequest, type Attachment, type AuditEntry, type UserList, type UserRow } from '../../src/contract/users';
import {
  attachmentHolderRefusals,
  attachmentKey,
  attachmentParams,
  withoutLeaving,
  attachmentShapeProblem,
  diffGrantState,
  editScopeOf,
  grantRefusals,
  type AttachmentRef,
  type EditScope,
  type GrantRefusal,
  type GrantState,
} from '../../src/domain/grant-changes';
import { can, mayManageAccountOf, type Capability } from '../../src/domain/permissions';
import { HttpError, permissionDenied } from '../plugins/errors';
import { likePattern, pageOf } from './stock-counts';
import { notExpiredSql, type CurrentUser } from './users';

type Executor = Db | Tx;
type UserRecord = typeof users.$inferSelect;


// ───────────── lists ─────────────

/** Users of the editor's plants (stock_admin's "my plant users"). */
const inPlants = (plantCodes: readonly string[]): SQL =>
  exists(
    sql`(select 1 from ${userAttachments} where ${userAttachments.userId} = ${users.id} and ${userAttachments.kind} = 'plant' and ${inArray(userAttachments.code, [...plantCodes])})`,
  );

/**
 * Accented letters of the nine languages' names (and their neighbours') and their plain letter:
 * "muller" finds Müller, "jose" José, "bjorn" Bjørn. The same fold on both sides, in SQL (one rule
 * on PGlite and PostgreSQL, no extension needed).
 */
const ACCENTED = 'áàâäãåāăąçćčďéèêëēėęěíìîïīįłńñňóòôöõøōőřśšťúùûüūůűýÿžźż';
const PLAIN = 'aaaaaaaaacccdeeeeeeeeiiiiiilnnnoooooooorsstuuuuuuuyyzzz';
const folded = (text: SQL) => sql`translate(lower(${text}), ${ACCENTED}, ${PLAIN})`;

export async function listUsers(
  db: Executor,
  editor: CurrentUser,
  list: UserList,
  options: { query?: string; page: number; maxResults: number },
) {
  const conditions: (SQL | undefined)[] = [];
  if (list === 'approved') conditions.push(eq(users.approvalStatus, 'Approved'));
  if (list === 'my_plant') {
    if (editor.plants.length === 0) return { ...pageOf(0, options.page, options.maxResults).envelope, total: 0, items: [] };
    conditions.push(inPlants(editor.plants));
  }
  const search = options.query?.trim();
  if (search) {
    const pattern = folded(sql`${likePattern(search)}`);
    conditions.push(or(sql`${folded(sql`${users.email}`)} like ${pattern}`, sql`${folded(sql`${users.displayName}`)} like ${pattern}`));
  }
  const where = and(...conditions);
  const [[total], records] = await Promise.all([
    db.select({ n: count() }).from(users).where(where),
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.email))
      .limit(options.maxResults)
      .offset((options.page - 1) * options.maxResults),
  ]);
  const totalCount = Number(total?.n ?? 0);
  return { ...pageOf(totalCount, options.page, options.maxResults).envelope, total: totalCount, items: await toRows(db, records) };
}

async function toRows(db: Executor, records: UserRecord[]): Promise<UserRow[]> {
  if (records.length === 0) return [];
  const ids = records.map((r) => r.id);
  const [grantRows, plantRows, zones] = await Promise.all([
    db.select().from(userGrants).where(inArray(userGrants.userId, ids)),
    db
      .select({ userId: userAttachments.userId, code: userAttachments.code })
      .from(userAttachments)
      .where(and(inArray(userAttachments.userId, ids), eq(userAttachments.kind, 'plant'))),
    plantZones(db),
  ]);
  return records.map((record) =>
    toRow(
      record,
      grantRows.filter((g) => g.userId === record.id).map((g) => g.grantId),
      plantRows.filter((p) => p.userId === record.id).map((p) => p.code),
      zones,
    ),
  );
}

/** Each plant's time zone: a user's days of access are their plants' (src/domain/expiration). */
async function plantZones(db: Executor): Promise<ReadonlyMap<string, string>> {
  const rows = await db.select({ code: plants.code, timezone: plants.timezone }).from(plants);
  return new Map(rows.map((row) => [row.code, row.timezone]));
}

/** The distinct time zones of these plants. */
const zonesOf = (zoneOf: ReadonlyMap<string, string>, plantCodes: readonly string[]) => [...new Set(plantCodes.flatMap((code) => zoneOf.get(code) ?? []))];

function toRow(record: UserRecord, grantIds: readonly string[], plantCodes: readonly string[], zonesOfPlants: ReadonlyMap<string, string>): UserRow {
  const zones = zonesOf(zonesOfPlants, plantCodes);
  const now = new Date();
  return {
    uid: record.id,
    email: record.email,
    displayName: record.displayName,
    approvalStatus: record.approvalStatus as UserRow['approvalStatus'],
    expirationDate: record.expirationDate,
    isExpired: isPastLastDay(record.expirationDate, now, zones),
    accessDay: expiryDay(now, zones),
    permissions: [...grantIds].sort(),
    plants: [...new Set(plantCodes)].sort(),
    lastLogin: record.lastLoginAt?.toISOString() ?? null,
    created: record.createdAt.toISOString(),
  };
}

// ───────────── one user ─────────────

async function findUser(db: Executor, uid: string, lock = false): Promise<UserRecord> {
  const query = db.select().from(users).where(eq(users.id, uid));
  const [record] = lock ? await query.for('update') : await query;
  if (!record) throw new HttpError(404, `No user with id ${uid}`);
  return record;
}

async function grantStateOf(db: Executor, uid: string): Promise<{ grants: string[]; attachments: Attachment[] }> {
  const [grantRows, attachmentRows] = await Promise.all([
    db.select({ grantId: userGrants.grantId }).from(userGrants).where(eq(userGrants.userId, uid)),
    db
      .select({ kind: userAttachments.kind, plant: userAttachments.plant, code: userAttachments.code })
      .from(userAttachments)
      .where(eq(userAttachments.userId, uid))
      .orderBy(asc(userAttachments.kind), asc(userAttachments.plant), asc(userAttachments.code)),
  ]);
  return { grants: grantRows.map((g) => g.grantId).sort(), attachments: attachmentRows as Attachment[] };
}

/** One user id however it is spelt: PostgreSQL finds a uuid in either case, so the own-account checks compare them so too. */
const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const plantsOf = (state: { attachments: readonly Attachment[] }) => state.attachments.filter((a) => a.kind === 'plant').map((a) => a.code);

/** Roles that read every user's permissions (§6): super managers of both kinds and the grant managers. */
const READS_EVERY_USER = ['super_manager', 'super_manager_read_only', 'UM_PM_grant_read', 'UM_PM_grant_write', 'UM_user_acceptance'];
/**
 * Roles whose permission changes reach every user (§6): the super manager and the PM granters. A
 * read-only super manager or a user-acceptance manager changes nothing of a user's permissions as
 * such: holding stock_admin too, it changes them as a stock admin, for users of its plants
 * (decision 0063: a read-only super manager who holds another role acts as that role).
 */
const WRITES_EVERY_USER = ['super_manager', 'UM_PM_grant_read', 'UM_PM_grant_write'];

/** Whether the editor's reads (`read`) or changes (`write`) of users' permissions reach this user. */
function reachesUser(editor: CurrentUser, targetPlants: readonly string[], as: 'read' | 'write'): boolean {
  const unscoped = as === 'read' ? READS_EVERY_USER : WRITES_EVERY_USER;
  return editor.grants.some((g) => unscoped.includes(g)) || targetPlants.some((plant) => editor.plants.includes(plant));
}

/**
 * §6 scope: super managers and grant managers read every user; a stock_admin whose only right is
 * stock_admin reads users of its plants. Changes (`write`) reach every user only for the super
 * manager and the PM granters (reachesUser). Outside the scope: 404 (not revealed).
 */
function assertMayReach(editor: CurrentUser, targetPlants: string[], uid: string, capability: Capability, as: 'read' | 'write') {
  if (!can(editor.grants, capability)) throw permissionDenied(capability);
  if (!reachesUser(editor, targetPlants, as)) throw new HttpError(404, `No user with id ${uid}`);
}

/**
 * What the editor may change (empty for read-only callers, for their own account, and for the
 * account of a super manager of either kind unless the editor is a super manager: updatePermissions
 * refuses those whole, assertMayManage, so the dialog opens read-only instead of offering a change
 * the save refuses). `target`: the edited user; without it, what the editor may give anyone.
 */
export function editableBy(editor: CurrentUser, target?: { id: string; grants: readonly string[]; plants: readonly string[] }): EditScope {
  const nothing: EditScope = { grants: [], attachments: [], plantScopedGrants: [], plantScopedAttachments: [], plants: [] };
  if (!can(editor.grants, 'users.updatePermissions')) return nothing;
  // A user the editor reads but may not change (outside its plants, read as a read-only super
  // manager): the dialog opens read-only, as the save would be refused.
  if (target && (target.id === editor.id || !mayManageAccountOf(editor.grants, target.grants) || !reachesUser(editor, target.plants, 'write'))) return nothing;
  return editScopeOf(editor);
}

export async function readPermissions(db: Executor, editor: CurrentUser, uid: string) {
  const record = await findUser(db, uid);
  const state = await grantStateOf(db, uid);
  assertMayReach(editor, plantsOf(state), uid, 'users.readPermissions', 'read');
  return {
    user: toRow(record, state.grants, plantsOf(state), await plantZones(db)),
    grants: state.grants,
    attachments: state.attachments,
    editable: editableBy(editor, { id: uid, grants: state.grants, plants: plantsOf(state) }),
  };
}

/**
 * The user with this e-mail address (any case), as the lists show them, for a caller who may
 * read permissions but lists no users (UM_PM_grant_read / _write: they give PM rights to a
 * colleague they name, §6). Scoped as the permissions read: a user the caller may not read is
 * not found (404), whether or not they exist.
 */
export async function findUserByEmail(db: Executor, editor: CurrentUser, email: string): Promise<UserRow> {
  // Addresses are stored lower-cased (verify-token.ts): the unique index answers.
  const [found] = await db.select({ id: users.id }).from(users).where(eq(users.email, normalizeEmail(email)));
  const notFound = () => new HttpError(404, `No user with the e-mail address ${email}`, { code: 'userNotFoundByEmail', params: { email } });
  if (!found) throw notFound();
  try {
    return (await readPermissions(db, editor, found.id)).user;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) throw notFound();
    throw error;
  }
}

/**
 * A version of a user's grants and attachments, as an entity tag: GET …/permissions sends it
 * (ETag) and a PUT may send it back (If-Match). A PUT sends the whole wanted state; without the
 * check, a form opened before another manager's save would undo that save without a word.
 */
export function permissionsTag(state: { grants: readonly string[]; attachments: readonly Attachment[] }): string {
  const text = JSON.stringify([[...state.grants].sort(), state.attachments.map(attachmentKey).sort()]);
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;
}

/** If-Match (RFC 9110): absent or `*` allows any version; otherwise one of its tags must be the current one (weak or strong). */
function ifMatchAllows(ifMatch: string | undefined, current: string): boolean {
  if (ifMatch === undefined || ifMatch.trim() === '*') return true;
  return ifMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .includes(current);
}

export async function updatePermissions(
  tx: Tx,
  editor: CurrentUser,
  uid: string,
  wanted: { grants: string[]; attachments: Attachment[] },
  ifMatch?: string,
) {
  // Taking super_manager away waits its turn (takeSuperManagerTurn) before the user's row is
  // locked, in the order removals take them: read unlocked to know whether it is needed.
  const dropsSuperManager = !wanted.grants.includes('super_manager') && (await holdsSuperManager(tx, uid));
  if (dropsSuperManager) await takeSuperManagerTurn(tx);
  const record = await findUser(tx, uid, true);
  const before = await grantStateOf(tx, uid);
  assertMayReach(editor, plantsOf(before), uid, 'users.updatePermissions', 'write');
  if (!ifMatchAllows(ifMatch, permissionsTag(before))) {
    throw new HttpError(
      412,
      `The permissions of ${record.email} were changed by someone else after you opened them: open them again to see the current ones, then make your change`,
      { code: 'permissionsChangedMeanwhile', params: { email: record.email } },
    );
  }
  if (sameId(uid, editor.id)) throw new HttpError(403, 'Not allowed: you may not change your own permissions; ask another manager', { code: 'ownPermissions' });
  // As expiry, removal and approval (decision 0010): a super manager's roles are a super manager's
  // to change, or a stock admin could strip the mechanic role of one who also manages everything.
  assertMayManage(editor, before.grants, 'change the permissions of', record.email);

  const asked: GrantState = {
    grants: [...new Set(wanted.grants)].sort(),
    attachments: dedupe(wanted.attachments),
  };
  const shapeProblems = asked.attachments.map(attachmentShapeProblem).filter((p): p is string => p !== null);
  if (shapeProblems.length > 0) throw new HttpError(400, shapeProblems.join('; '));

  // What goes with a removed grant leaves with it (a mechanic made a supervisor keeps no work centre).
  const after = withoutLeaving(before, asked);
  const refused = grantRefusals(editor, before, after, plantsOf(before));
  if (refused.length > 0) throw refusal(403, refused, 'Not allowed: ');
  const invalid = attachmentHolderRefusals(before, after);
  if (invalid.length > 0) throw refusal(422, invalid);
  if (before.grants.includes('super_manager') && !after.grants.includes('super_manager')) {
    // Given super_manager after the unlocked read above (rare): the turn now, after the row lock.
    if (!dropsSuperManager) await takeSuperManagerTurn(tx);
    await assertNotLastSuperManager(tx, record, 'take the super manager role from');
  }

  const diff = diffGrantState(before, after);
  await assertAttachmentsExist(tx, diff.addedAttachments);
  if (diff.removedGrants.length > 0) {
    await tx.delete(userGrants).where(and(eq(userGrants.userId, uid), inArray(userGrants.grantId, diff.removedGrants)));
  }
  if (diff.addedGrants.length > 0) {
    await tx.insert(userGrants).values(diff.addedGrants.map((grantId) => ({ userId: uid, grantId })));
  }
  for (const a of diff.removedAttachments) {
    await tx
      .delete(userAttachments)
      .where(and(eq(userAttachments.userId, uid), eq(userAttachments.kind, a.kind), eq(userAttachments.plant, a.plant), eq(userAttachments.code, a.code)));
  }
  if (diff.addedAttachments.length > 0) {
    await tx.insert(userAttachments).values(diff.addedAttachments.map((a) => ({ userId: uid, ...a })));
  }
  const changed = diff.addedGrants.length + diff.removedGrants.length + diff.addedAttachments.length + diff.removedAttachments.length > 0;
  if (changed) {
    await tx.update(users).set({ updatedAt: sql`now()` }).where(eq(users.id, uid));
    await audit(tx, editor, 'user.updatePermissions', record.id, before, { grants: after.grants, attachments: after.attachments });
  }
  // The answer is the state written, not a new read under the read scope: a stock admin who takes
  // the last plant-holding role away (its plant leaves with it) would be refused reading the
  // result (404), and the whole change rolled back.
  const saved = await grantStateOf(tx, uid);
  return { user: toRow(await findUser(tx, uid), saved.grants, plantsOf(saved), await plantZones(tx)), grants: saved.grants, attachments: saved.attachments, editable: editableBy(editor, { id: uid, grants: saved.grants, plants: plantsOf(saved) }) };
}

/**
 * One answer for every refused item: the English names them all; the code and its parameters
 * (serverErrors.<code>, in the reader's language) the first one, as the search's refusals do.
 */
function refusal(status: number, refusals: readonly GrantRefusal[], prefix = ''): HttpError {
  const [first] = refusals as [GrantRefusal, ...GrantRefusal[]];
  return new HttpError(status, `${prefix}${refusals.map((r) => r.message).join('; ')}`, { code: first.code, params: first.params });
}

function dedupe(attachments: readonly Attachment[]): Attachment[] {
  const seen = new Map<string, Attachment>();
  for (const a of attachments) {
    const normal = { kind: a.kind, plant: a.plant.toUpperCase(), code: a.kind === 'plant' ? a.code.toUpperCase() : a.code };
    seen.set(attachmentKey(normal), normal);
  }
  return [...seen.values()].sort((x, y) => attachmentKey(x).localeCompare(attachmentKey(y)));
}

/** Added attachments must name real plants, planner groups, work centers, storage locations, ship-to-party numbers. */
async function assertAttachmentsExist(tx: Tx, added: readonly Attachment[]) {
  const unknown: AttachmentRef[] = [];
  for (const a of added) {
    let found: unknown[] = [];
    if (a.kind === 'plant') found = await tx.select({ c: plants.code }).from(plants).where(eq(plants.code, a.code));
    else if (a.kind === 'planner_group')
      found = await tx.select({ c: plannerGroups.code }).from(plannerGroups).where(and(eq(plannerGroups.plant, a.plant), eq(plannerGroups.code, a.code)));
    else if (a.kind === 'work_center')
      found = await tx.select({ c: workCenters.code }).from(workCenters).where(and(eq(workCenters.plant, a.plant), eq(workCenters.code, a.code)));
    else if (a.kind === 'storage_location')
      found = await tx
        .select({ c: storageLocations.code })
        .from(storageLocations)
        .where(and(eq(storageLocations.plant, a.plant), eq(storageLocations.code, a.code)));
    else found = await tx.select({ c: shipToParties.code }).from(shipToParties).where(eq(shipToParties.code, a.code));
    if (found.length === 0) unknown.push(a);
  }
  if (unknown.length > 0) {
    // The English names them all; the code (serverErrors.attachmentUnknown) the first one.
    const named = unknown.map((a) => `${a.kind.replaceAll('_', ' ')} ${a.plant ? `${a.plant}/` : ''}${a.code}`);
    throw new HttpError(422, `Unknown ${named.join(', ')}`, { code: 'attachmentUnknown', params: attachmentParams(unknown[0]!) });
  }
}

// ───────────── expiration and removal ─────────────

/** Only a super manager changes or removes a super manager (a user-acceptance manager may not). */
function assertMayManage(editor: CurrentUser, targetGrants: readonly string[], what: string, email: string) {
  if (!mayManageAccountOf(editor.grants, targetGrants)) {
    throw new HttpError(403, `Not allowed: only a super manager may ${what} a super manager`, { code: 'superManagerOnly', params: { email } });
  }
}

/**
 * Removing a super manager, or taking the role away, takes turns (a transaction advisory lock, as
 * priority writers do, decision 0060): two super managers removing each other at once each saw
 * the other still there and left none. The turn comes before any user row is locked.
 */
async function takeSuperManagerTurn(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('super_managers'))`);
}

async function holdsSuperManager(db: Executor, uid: string): Promise<boolean> {
  const rows = await db.select({ g: userGrants.grantId }).from(userGrants).where(and(eq(userGrants.userId, uid), eq(userGrants.grantId, 'super_manager')));
  return rows.length > 0;
}

/**
 * Somebody must be left to manage everything: an approved, unexpired holder of super_manager other
 * than `target` (a read-only one manages nothing). Read under the turn, so what a removal just
 * committed is counted. Only an active super manager is the last one; an expired one is not.
 */
async function assertNotLastSuperManager(tx: Tx, target: UserRecord, what: string) {
  if (target.approvalStatus !== 'Approved') return;
  // The target's access by the day of its plants, as the others' below (notExpiredSql).
  const [self] = await tx.select({ active: notExpiredSql() }).from(users).where(eq(users.id, target.id));
  if (!self?.active) return;
  const [others] = await tx
    .select({ n: count() })
    .from(users)
    .where(
      and(
        ne(users.id, target.id),
        eq(users.approvalStatus, 'Approved'),
        notExpiredSql(),
        exists(sql`(select 1 from ${userGrants} where ${userGrants.userId} = ${users.id} and ${userGrants.grantId} = 'super_manager')`),
      ),
    );
  if (Number(others?.n ?? 0) === 0) {
    throw new HttpError(409, `Not allowed: ${target.email} is the last active super manager; make another user super manager first, then ${what} them`, {
      code: 'lastSuperManager',
      params: { email: target.email },
    });
  }
}

/**
 * `ifMatch`: the expiration tag of the date the dialog was opened with. Compared with the row
 * locked, so a save made meanwhile by another manager is refused (412) rather than overwritten.
 */
export async function updateExpiration(tx: Tx, editor: CurrentUser, uid: string, expirationDate: string | null, ifMatch?: string) {
  // Like one's own grants, removal and approval: nobody extends (or clears) their own access (#20).
  if (sameId(uid, editor.id)) throw new HttpError(403, 'Not allowed: you may not change your own expiration date; ask another manager');
  // A last day already past ends a super manager's access as a removal does: it takes the same
  // turn, before the row lock, and leaves an active super manager.
  const endsAccess = expirationDate !== null && (await holdsSuperManager(tx, uid));
  if (endsAccess) await takeSuperManagerTurn(tx);
  const record = await findUser(tx, uid, true);
  const state = await grantStateOf(tx, uid);
  assertMayManage(editor, state.grants, 'change the expiration date of', record.email);
  const zoneOf = await plantZones(tx);
  if (expirationDate !== null && state.grants.includes('super_manager') && isPastLastDay(expirationDate, new Date(), zonesOf(zoneOf, plantsOf(state)))) {
    // Given super_manager after the unlocked read above (rare): the turn now, after the row lock (as updatePermissions).
    if (!endsAccess) await takeSuperManagerTurn(tx);
    await assertNotLastSuperManager(tx, record, 'end the access of');
  }
  if (!ifMatchAllows(ifMatch, expirationTag(record.expirationDate))) {
    throw new HttpError(
      412,
      `The expiration date of ${record.email} was changed by someone else after you opened it: open it again to see the current one, then make your change`,
      { code: 'expirationChangedMeanwhile', params: { email: record.email } },
    );
  }
  if (record.expirationDate !== expirationDate) {
    await tx.update(users).set({ expirationDate, updatedAt: sql`now()` }).where(eq(users.id, uid));
    await audit(tx, editor, 'user.updateExpiration', uid, { expirationDate: record.expirationDate }, { expirationDate });
  }
  // The row is locked: only the expiration date (and updatedAt, not shown) changed since it was read.
  return toRow({ ...record, expirationDate }, state.grants, plantsOf(state), zoneOf);
}

export async function removeUser(tx: Tx, editor: CurrentUser, uid: string) {
  if (sameId(uid, editor.id)) throw new HttpError(403, 'Not allowed: you may not remove your own account');
  // Every removal takes the turn, before the row lock: whether the user is a super manager is
  // known only once they are read, and removals are rare.
  await takeSuperManagerTurn(tx);
  const record = await findUser(tx, uid, true);
  const state = await grantStateOf(tx, uid);
  assertMayManage(editor, state.grants, 'remove', record.email);
  if (state.grants.includes('super_manager')) await assertNotLastSuperManager(tx, record, 'remove');
  await tx.delete(users).where(eq(users.id, uid));
  await audit(
    tx,
    editor,
    'user.remove',
    uid,
    { email: record.email, displayName: record.displayName, approvalStatus: record.approvalStatus, expirationDate: record.expirationDate, ...state },
    null,
  );
  return { uid, email: record.email, removed: true as const };
}

// ───────────── approval requests ─────────────

async function toApprovalRequest(db: Executor, row: typeof approvalRequests.$inferSelect): Promise<ApprovalRequest> {
  const [requester] = await db.select({ name: users.displayName }).from(users).where(eq(users.id, row.requestingUserId));
  const [decider] = row.decidedBy ? await db.select({ email: users.email }).from(users).where(eq(users.id, row.decidedBy)) : [];
  return {
    request_id: row.id,
    requesting_user_email: row.requestingUserEmail,
    requesting_user_name: requester?.name ?? row.requestingUserEmail,
    manager_email: row.managerEmail,
    approval_status: row.approvalStatus as ApprovalRequest['approval_status'],
    created: row.createdAt.toISOString(),
    decided_by_email: decider?.email ?? null,
    decided_at: row.decidedAt?.toISOString() ?? null,
  };
}

export async function readApprovalRequest(db: Executor, caller: CurrentUser, id: string): Promise<ApprovalRequest> {
  const [row] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, id));
  // Deciders read every request; a requester only their own (the welcome page).
  if (!row || (!can(caller.grants, 'approvals.decide') && row.requestingUserId !== caller.id)) {
    throw new HttpError(404, `No approval request with id ${id}`);
  }
  return toApprovalRequest(db, row);
}

/** The oldest pending requests, at most PENDING_APPROVALS_MAX (one more is read to know whether more wait). */
export async function pendingApprovals(db: Executor) {
  const rows = await db
    .select()
    .from(approvalRequests)
    .where(eq(approvalRequests.approvalStatus, 'Pending'))
    .orderBy(asc(approvalRequests.createdAt), asc(approvalRequests.id))
    .limit(PENDING_APPROVALS_MAX + 1);
  const items = rows
    .slice(0, PENDING_APPROVALS_MAX)
    .map((row) => ({ requesting_user_email: row.requestingUserEmail, request_id: row.id, created: row.createdAt.toISOString() }));
  return { items, hasMore: rows.length > PENDING_APPROVALS_MAX };
}

export async function decideApproval(tx: Tx, editor: CurrentUser, id: string, decision: 'Approved' | 'Rejected') {
  const [row] = await tx.select().from(approvalRequests).where(eq(approvalRequests.id, id)).for('update');
  if (!row) throw new HttpError(404, `No approval request with id ${id}`);
  if (row.approvalStatus !== 'Pending') {
    const current = await toApprovalRequest(tx, row);
    // Decision 0055: a code and its parameters, for the reader's language (the loser of two deciders).
    const by = current.decided_by_email;
    throw new HttpError(
      409,
      `This request was already ${row.approvalStatus.toLowerCase()}${by ? ` by ${by}` : ''}`,
      by ? { code: row.approvalStatus === 'Approved' ? 'approvalAlreadyApproved' : 'approvalAlreadyRejected', params: { by } } : undefined,
    );
  }
  if (row.requestingUserId === editor.id) throw new HttpError(403, 'Not allowed: you may not decide your own request', { code: 'approvalOwnRequest' });
  // As removal and expiry (decision 0010): a request of one who holds a super manager's grants is
  // decided by a super manager (a rejection locks them out, an approval lets a super manager in).
  // The user's row is locked before their grants are read: a permission change (which locks it
  // too) cannot make them a super manager between the check and the decision.
  const [target] = await tx.select().from(users).where(eq(users.id, row.requestingUserId)).for('update');
  assertMayManage(editor, (await grantStateOf(tx, row.requestingUserId)).grants, 'decide the request of', row.requestingUserEmail);
  const [decided] = await tx
    .update(approvalRequests)
    .set({ approvalStatus: decision, decidedBy: editor.id, decidedAt: sql`now()` })
    .where(eq(approvalRequests.id, id))
    .returning();
  await tx.update(users).set({ approvalStatus: decision, updatedAt: sql`now()` }).where(eq(users.id, row.requestingUserId));
  await audit(
    tx,
    editor,
    decision === 'Approved' ? 'user.approve' : 'user.reject',
    row.requestingUserId,
    { approvalStatus: target?.approvalStatus ?? row.approvalStatus, requestId: id },
    { approvalStatus: decision, requestId: id },
  );
  return toApprovalRequest(tx, decided!);
}

// ───────────── audit log ─────────────

export async function audit(tx: Tx, editor: CurrentUser, action: string, targetUserId: string, before: unknown, after: unknown) {
  await tx.insert(auditLog).values({
    actorUserId: editor.id,
    actorEmail: editor.email,
    action,
    targetType: 'user',
    targetId: targetUserId,
    before: before as never,
    after: after as never,
  });
}

export async function listAuditLog(db: Executor, options: { userId?: string; page: number; maxResults: number }) {
  const where = options.userId ? and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, options.userId)) : undefined;
  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(auditLog).where(where),
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(options.maxResults)
      .offset((options.page - 1) * options.maxResults),
  ]);
  const items: AuditEntry[] = rows.map((row) => ({
    id: row.id,
    actor_email: row.actorEmail,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    before: row.before,
    after: row.after,
    created: row.createdAt.toISOString(),
  }));
  return { ...pageOf(Number(total?.n ?? 0), options.page, options.maxResults).envelope, items };
}

// ───────────── choices for the editor ─────────────

/** Whether every attachment kind the editor may give is limited to their plants (a stock admin's). */
function plantScopedOnly(editor: CurrentUser): boolean {
  const editable = editableBy(editor);
  return editable.attachments.length > 0 && editable.attachments.every((k) => editable.plantScopedAttachments.includes(k));
}

export async function grantOptionsFor(db: Executor, editor: CurrentUser) {
  const editable = editableBy(editor);
  const scopedOnly = plantScopedOnly(editor);
  const plantWhere = scopedOnly ? (editor.plants.length ? inArray(plants.code, editor.plants) : sql`false`) : undefined;
  // The editor offers ship-to-party numbers only to one who may attach them (AttachmentAdder):
  // the whole customer list is not a stock admin's to read.
  const givesShipToParties = editable.attachments.some((kind) => kind === 'ship_to_party' || kind === 'managed_ship_to_party');
  const [plantRows, shipToRows] = await Promise.all([
    db.select({ code: plants.code, name: plants.name }).from(plants).where(plantWhere).orderBy(asc(plants.code)),
    givesShipToParties ? db.select({ code: shipToParties.code, name: shipToParties.name }).from(shipToParties).orderBy(asc(shipToParties.code)) : [],
  ]);
  return { editable, plants: plantRows, shipToParties: shipToRows };
}

export async function plantOptionsFor(db: Executor, editor: CurrentUser, plant: string) {
  // Another plant's planner groups, work centers and storage locations are not a plant-scoped
  // editor's to see (as /relationship/* refuses them): the plant is "not found" to them.
  if (plantScopedOnly(editor) && !editor.plants.includes(plant)) throw new HttpError(404, `No plant ${plant}`);
  const [[known], groups, centers, locations] = await Promise.all([
    db.select({ code: plants.code }).from(plants).where(eq(plants.code, plant)),
    db.select({ code: plannerGroups.code, name: plannerGroups.name }).from(plannerGroups).where(eq(plannerGroups.plant, plant)).orderBy(asc(plannerGroups.code)),
    db.select({ code: workCenters.code, name: workCenters.name }).from(workCenters).where(eq(workCenters.plant, plant)).orderBy(asc(workCenters.code)),
    db
      .select({ code: storageLocations.code, name: storageLocations.name })
      .from(storageLocations)
      .where(eq(storageLocations.plant, plant))
      .orderBy(asc(storageLocations.code)),
  ]);
  if (!known) throw new HttpError(404, `No plant ${plant}`);
  return { plant, plannerGroups: groups, workCenters: centers, storageLocations: locations };
}

