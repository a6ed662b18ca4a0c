/**
 * Users as the server sees them: who is calling (identity → user), with their grants and
 * attachments loaded once per request, and the §3 profile built from that.
 */
import { and, asc, eq, gte, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  approvalRequests,
  importantMessages,
  userAttachments,
  userGrants,
  userIdentities,
  users,
} from '../db/schema';
import type { AttachmentKind } from '../../src/domain/permissions';
import type { Profile } from '../../src/contract/user-api';
import type { VerifiedIdentity } from '../auth/verify-token';

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
}

type UserRow = typeof users.$inferSelect;

async function loadCurrentUser(db: Db, row: UserRow): Promise<CurrentUser> {
  const [grantRows, attachmentRows] = await Promise.all([
    db.select({ grantId: userGrants.grantId }).from(userGrants).where(eq(userGrants.userId, row.id)),
    db
      .select({ kind: userAttachments.kind, plant: userAttachments.plant, code: userAttachments.code })
      .from(userAttachments)
      .where(eq(userAttachments.userId, row.id))
      .orderBy(asc(userAttachments.kind), asc(userAttachments.plant), asc(userAttachments.code)),
  ]);
  const attachments = attachmentRows as Attachment[];
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    approvalStatus: row.approvalStatus as CurrentUser['approvalStatus'],
    expirationDate: row.expirationDate,
    grants: grantRows.map((g) => g.grantId).sort(),
    attachments,
    plants: attachments.filter((a) => a.kind === 'plant').map((a) => a.code),
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
 * Finds the user behind a verified identity. First sign-in of an unknown address of an allowed
 * domain creates the user and a Pending approval request addressed to the support manager,
 * in one transaction (§1: new users request approval before they see anything).
 */
export async function resolveUser(db: Db, identity: VerifiedIdentity, supportEmail: string): Promise<CurrentUser> {
  const [bound] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, identity.issuer), eq(userIdentities.subject, identity.subject)));
  if (bound) return loadCurrentUser(db, bound.user);

  const row = await db.transaction(async (tx) => {
    let [user] = await tx.select().from(users).where(eq(users.email, identity.email));
    if (!user) {
      [user] = await tx
        .insert(users)
        .values({ email: identity.email, displayName: displayNameFrom(identity), approvalStatus: 'Pending', firstLogin: true })
        .onConflictDoNothing()
        .returning();
      if (!user) [user] = await tx.select().from(users).where(eq(users.email, identity.email));
      else {
        await tx.insert(approvalRequests).values({
          requestingUserId: user.id,
          requestingUserEmail: user.email,
          managerEmail: supportEmail,
        });
      }
    }
    await tx
      .insert(userIdentities)
      .values({ issuer: identity.issuer, subject: identity.subject, userId: user!.id })
      .onConflictDoNothing();
    return user!;
  });
  return loadCurrentUser(db, row);
}

export function isExpired(user: Pick<CurrentUser, 'expirationDate'>, today = new Date()): boolean {
  if (!user.expirationDate) return false;
  return user.expirationDate < today.toISOString().slice(0, 10);
}

/** The same rule in SQL: users whose access has not expired (their last day is today or later, UTC). */
export function notExpiredSql(today = new Date()): SQL {
  return or(isNull(users.expirationDate), gte(users.expirationDate, today.toISOString().slice(0, 10)))!;
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
    db.select({ text: importantMessages.text }).from(importantMessages).orderBy(asc(importantMessages.position)),
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

export async function recordLogin(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ lastLoginAt: sql`now()` }).where(eq(users.id, userId));
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
