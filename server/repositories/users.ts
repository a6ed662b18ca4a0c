/**
 * Users as the server sees them: who is calling (identity → user), with their grants and
 * attachments loaded once per request, and the §3 profile built from that.
 */
import { isPastLastDay } from '../../src/domain/expiration';
import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { preparedOnce, type Db, type Tx } from '../db/client';
import {
  approvalRequests,
  auditLog,
  importantMessages,
  plants,
  userAttachments,
  userGrants,
  userIdentities,
  users,
} from '../db/schema';
import type { AttachmentKind } from '../../src/domain/permissions';
import type { Profile } from '../../src/contract/user-api';
import type { VerifiedIdentity } from '../auth/verify-token';
import { HttpError } from '../plugins/errors';

export interface Attachment {
  kind: AttachmentKind;
  plant: string;
  code: string;
}

export interface CurrentUser {
  id: string;
  email: string;
  displayName: string;
  approvalStatus: 'Pending' | 'Approved' | 'Rejected';
  expirationDate: string | null;
  grants: string[];
  attachments: Attachment[];
  /** Plants the user holds (kind 'plant'). */
  plants: string[];
  /** The time zones of those plants: the days their access is judged by (src/domain/expiration). */
  expiryZones?: string[];
}

type UserRow = typeof users.$inferSelect;

/** A user's grants, as a column of a select over `users` (null: none). */
export const grantsOfUser = sql<string[] | null>`(select array_agg(${userGrants.grantId}) from ${userGrants} where ${userGrants.userId} = ${users.id})`;

/** A user's grants and attachments (in kind, plant, code order), as columns of a select over `users`. */
const grantsAndAttachments = {
  grants: grantsOfUser,
  // Read on every call (bound_user): only for a user with a last day, whose expiry they decide.
  expiryZones: sql<string[] | null>`case when ${users.expirationDate} is null then null else (select array_agg(distinct p.timezone) from ${userAttachments} a join ${plants} p on p.code = a.code where a.user_id = ${users.id} and a.kind = 'plant') end`,
  attachments: sql<Attachment[] | null>`(select json_agg(json_build_object('kind', a.kind, 'plant', a.plant, 'code', a.code) order by a.kind, a.plant, a.code)
    from ${userAttachments} a where a.user_id = ${users.id})`,
};

async function loadCurrentUser(db: Db, row: UserRow): Promise<CurrentUser> {
  const [loaded] = await db.select(grantsAndAttachments).from(users).where(eq(users.id, row.id));
  return currentUserOf(row, loaded?.grants ?? null, loaded?.attachments ?? null, loaded?.expiryZones ?? null);
}

function currentUserOf(row: UserRow, grants: string[] | null, attachmentRows: Attachment[] | null, zones: string[] | null): CurrentUser {
  const attachments = attachmentRows ?? [];
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    approvalStatus: row.approvalStatus as CurrentUser['approvalStatus'],
    expirationDate: row.expirationDate,
    grants: [...(grants ?? [])].sort(),
    attachments,
    plants: attachments.filter((a) => a.kind === 'plant').map((a) => a.code),
    expiryZones: zones ?? [],
  };
}

function displayNameFrom(identity: VerifiedIdentity): string {
  if (identity.name) return identity.name;
  const local = identity.email.split('@')[0] ?? identity.email;
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join(' ');
}

/**
 * The user an (issuer, subject) is bound to, if any, with their grants and attachments. Every call
 * starts here: a named prepared statement (client.ts preparedOnce), so on PostgreSQL each
 * connection parses it once and, after five runs, keeps a generic plan (a lookup by a unique key
 * has one good plan). Unprepared, parsing and planning it took 0.45 of its 0.53 ms in the
 * database, on every call.
 */
async function boundUser(db: Db | Tx, issuer: string, subject: string) {
  const statement = preparedOnce(db, 'bound_user', () =>
    db
      .select({ user: users, ...grantsAndAttachments })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.issuer, sql.placeholder('issuer')), eq(userIdentities.subject, sql.placeholder('subject')))),
  );
  const [bound] = await statement.execute({ issuer, subject });
  return bound;
}

/** How a first sign-in found its user, as the audit log records it. */
type LinkReason = 'former_subject' | 'verified_email' | 'new_user';

/**
 * Finds the user behind a verified identity: by issuer + subject only (docs/decisions/0018).
 * A first sign-in is bound, in one transaction with an audit-log row, to
 * - the user an earlier subject of the same account was bound to (Entra `sub` before `oid`);
 * - else the user of its address, when the issuer vouches for the address;
 * - else a new Pending user with an approval request addressed to the support manager (§1),
 *   when nobody has the address yet. An unvouched address of an existing user is refused (403):
 *   naming someone's address in a token must not open their account ("nOAuth", #20).
 */
export async function resolveUser(db: Db, identity: VerifiedIdentity, supportEmail: string): Promise<CurrentUser> {
  // Every call starts here: the bound user with their grants and attachments in one round trip
  // (was three statements, a tenth of a loaded server's time went to sending statements).
  const bound = await boundUser(db, identity.issuer, identity.subject);
  if (bound) return currentUserOf(bound.user, bound.grants, bound.attachments, bound.expiryZones);

  const row = await db.transaction(async (tx) => {
    let user: UserRow | undefined;
    let reason: LinkReason = 'former_subject';
    for (const former of identity.formerSubjects ?? []) {
      user ??= (await boundUser(tx, identity.issuer, former))?.user;
    }
    if (!user) {
      reason = 'verified_email';
      [user] = await tx.select().from(users).where(eq(users.email, identity.email));
      if (user && !identity.emailVerified) {
        throw new HttpError(
          403,
          `This sign-in does not prove that ${identity.email} is yours: the identity provider does not vouch for the address. ` +
            `Sign in the way you did before, or ask ${supportEmail} to have the address verified.`,
        );
      }
    }
    if (!user) {
      reason = 'new_user';
      [user] = await tx
        .insert(users)
        .values({ email: identity.email, displayName: displayNameFrom(identity), approvalStatus: 'Pending', firstLogin: true })
        .onConflictDoNothing()
        .returning();
      if (!user) {
        // The address was created meanwhile: by this same first sign-in in a parallel request (the
        // app sends several calls at once), which also bound it; or by someone else: try again.
        const sibling = await boundUser(tx, identity.issuer, identity.subject);
        if (sibling) return sibling.user;
        throw new HttpError(409, 'Your account was being created by another request; please try again');
      }
      await tx.insert(approvalRequests).values({ requestingUserId: user.id, requestingUserEmail: user.email, managerEmail: supportEmail });
    }
    const [linked] = await tx
      .insert(userIdentities)
      .values({ issuer: identity.issuer, subject: identity.subject, userId: user.id })
      .onConflictDoNothing()
      .returning();
    // The same first sign-in in two requests at once: the other one bound it (and recorded it).
    if (!linked) return (await boundUser(tx, identity.issuer, identity.subject))?.user ?? user;
    await tx.insert(auditLog).values({
      actorUserId: user.id,
      actorEmail: identity.email,
      action: 'user.linkIdentity',
      targetType: 'user',
      targetId: user.id,
      before: null,
      after: { issuer: identity.issuer, subject: identity.subject, email: identity.email, emailVerified: identity.emailVerified, reason },
    });
    return user;
  });
  return loadCurrentUser(db, row);
}

export function isExpired(user: Pick<CurrentUser, 'expirationDate' | 'expiryZones'>, now = new Date()): boolean {
  return isPastLastDay(user.expirationDate, now, user.expiryZones ?? []);
}

/**
 * The same rule in SQL, over `users`: those whose access has not expired, their last day being
 * today or later in every zone of their plants (UTC's today without a plant). The twin of
 * isPastLastDay; a test runs both on the same fixtures.
 */
export function notExpiredSql(now = new Date()): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const today = sql`coalesce(
    (select min((${at} at time zone p.timezone)::date) from ${userAttachments} a join ${plants} p on p.code = a.code where a.user_id = ${users.id} and a.kind = 'plant'),
    (${at} at time zone 'UTC')::date)`;
  return or(isNull(users.expirationDate), sql`${users.expirationDate} >= ${today}`)!;
}

const codesOf = (attachments: Attachment[], kind: AttachmentKind) =>
  [...new Set(attachments.filter((a) => a.kind === kind).map((a) => a.code))];

export async function buildProfile(db: Db, user: CurrentUser): Promise<Profile> {
  const [[row], [request], messages] = await Promise.all([
    db.select().from(users).where(eq(users.id, user.id)),
    db
      .select({ id: approvalRequests.id })
      .from(approvalRequests)
      .where(and(eq(approvalRequests.requestingUserId, user.id), eq(approvalRequests.approvalStatus, 'Pending')))
      .limit(1),
    // §1: a user not (yet) approved sees no information, the company's broadcasts included.
    user.approvalStatus === 'Approved'
      ? db.select({ text: importantMessages.text }).from(importantMessages).orderBy(asc(importantMessages.position))
      : Promise.resolve([]),
  ]);
  if (!row) throw new Error(`user ${user.id} vanished`);
  return {
    uid: row.id,
    email: row.email,
    displayName: row.displayName,
    licensed: row.licensed,
    organisation: row.organisation,
    approvalRequestId: request?.id ?? null,
    permissions: user.grants,
    locale: row.locale,
    isLocaleLocked: row.isLocaleLocked,
    managedShipToPartyNumbers: codesOf(user.attachments, 'managed_ship_to_party'),
    phoneNumber: row.phoneNumber,
    expirationDate: row.expirationDate,
    shipToPartyNumbers: codesOf(user.attachments, 'ship_to_party'),
    firstLogin: row.firstLogin,
    importantMessages: messages.map((m) => m.text),
    plants: codesOf(user.attachments, 'plant'),
    plannerGroups: codesOf(user.attachments, 'planner_group'),
    storageLocations: codesOf(user.attachments, 'storage_location'),
    workCenters: codesOf(user.attachments, 'work_center'),
    lastLogin: row.lastLoginAt?.toISOString() ?? null,
  };
}

/**
 * The user's last login: when they signed in (the token's auth_time or iat), never moved back; a
 * caller without that time (none today) counts as signing in now. Every profile read of a session
 * carries the same time, so the profile's "Last login" no longer moves every few minutes.
 */
export async function recordLogin(db: Db, userId: string, signedInAt: number | null): Promise<void> {
  const at = signedInAt === null ? sql`now()` : sql`to_timestamp(${signedInAt})`;
  await db
    .update(users)
    .set({ lastLoginAt: sql`greatest(coalesce(${users.lastLoginAt}, ${at}), ${at})` })
    .where(eq(users.id, userId));
}

export async function updateProfile(
  db: Db,
  userId: string,
  changes: { locale?: string; firstLogin?: false },
): Promise<void> {
  await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}
