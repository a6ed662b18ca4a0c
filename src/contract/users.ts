/**
 * User administration of the user service (§2 users management, §6): the three user lists,
 * a user's permissions and attachments, expiration date, removal, approval requests (§7) and
 * the audit log. Paths the spec does not place live under /user_api/v1/users.
 */
import { z } from './zod';
import { APPROVAL_STATUSES } from '../domain/constants';
import { ATTACHMENT_KINDS, GRANTS } from '../domain/permissions';
import { maxResultsParam, pageEnvelope, pageParam } from './common';

export const USER_LISTS = ['all', 'approved', 'my_plant'] as const;
export type UserList = (typeof USER_LISTS)[number];

export const usersQuery = z.object({
  /** Free text: part of the e-mail address or the name. */
  query: z.optional(z.string().check(z.trim(), z.maxLength(100, 'query must be 100 characters or less'))),
  page: pageParam,
  maxResults: maxResultsParam(100),
});
export type UsersQuery = z.input<typeof usersQuery>;

export const userRow = z
  .object({
    uid: z.string(),
    email: z.string(),
    displayName: z.string(),
    approvalStatus: z.enum(APPROVAL_STATUSES),
    /** YYYY-MM-DD, the last valid day; null: never expires. */
    expirationDate: z.nullable(z.string()),
    isExpired: z.boolean(),
    /**
     * Today as this user's access is judged (the day of their plants; UTC's without one): a last
     * day before it is already past. Optional: services without it leave the app to the UTC day.
     */
    accessDay: z.optional(z.string()),
    permissions: z.array(z.string()),
    plants: z.array(z.string()),
    lastLogin: z.nullable(z.string()),
    created: z.string(),
  })
  .register(z.globalRegistry, { id: 'UserRow' });
export type UserRow = z.infer<typeof userRow>;

export const usersPage = z.object({ ...pageEnvelope, total: z.int(), items: z.array(userRow) }).register(z.globalRegistry, { id: 'UsersPage' });
export type UsersPage = z.infer<typeof usersPage>;

export const attachment = z
  .object({
    kind: z.enum(ATTACHMENT_KINDS, { message: `kind must be one of ${ATTACHMENT_KINDS.join(', ')}` }),
    /** '' for ship-to-party numbers (not per plant). */
    plant: z.string().check(z.trim(), z.toUpperCase(), z.maxLength(10)),
    code: z.string().check(z.trim(), z.minLength(1, 'Field code is required'), z.maxLength(40)),
  })
  .register(z.globalRegistry, { id: 'Attachment' });
export type Attachment = z.infer<typeof attachment>;

/** What the caller may change of other users (§6), for offering only that. */
export const editScope = z
  .object({
    grants: z.array(z.enum(GRANTS)),
    attachments: z.array(z.enum(ATTACHMENT_KINDS)),
    plantScopedGrants: z.array(z.enum(GRANTS)),
    plantScopedAttachments: z.array(z.enum(ATTACHMENT_KINDS)),
    plants: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'EditScope' });
export type EditScope = z.infer<typeof editScope>;

export const userPermissions = z
  .object({
    user: userRow,
    grants: z.array(z.string()),
    attachments: z.array(attachment),
    /** What the caller may change on this user; empty lists for read-only callers. */
    editable: editScope,
  })
  .register(z.globalRegistry, { id: 'UserPermissions' });
export type UserPermissions = z.infer<typeof userPermissions>;

export const updatePermissionsBody = z
  .strictObject({
    /** The complete wanted state; only what differs from the current one is checked and written. */
    grants: z.array(z.enum(GRANTS, { message: `grants must be roles or permissions of §6: ${GRANTS.join(', ')}` })).check(z.maxLength(GRANTS.length)),
    attachments: z.array(attachment).check(z.maxLength(2000, 'at most 2000 attachments')),
  })
  .register(z.globalRegistry, { id: 'UpdatePermissionsRequest' });
export type UpdatePermissionsBody = z.infer<typeof updatePermissionsBody>;

export const updateExpirationBody = z
  .strictObject({
    expirationDate: z.nullable(
      z
        .string()
        .check(
          z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expirationDate must be a date as YYYY-MM-DD'),
          z.refine(
            (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
            'expirationDate is not a real date',
          ),
          // JavaScript takes year 0000 as a date, PostgreSQL does not (it has no year 0): refused
          // here with a message naming the field, not by the database with a vague one.
          z.refine((value) => !/^\d{4}-/.test(value) || value >= '0001-01-01', 'expirationDate must be 0001-01-01 or later'),
        ),
    ),
  })
  .register(z.globalRegistry, { id: 'UpdateExpirationRequest' });
export type UpdateExpirationBody = z.infer<typeof updateExpirationBody>;

/**
 * The version of a user's expiration date, as an entity tag: the dialog sends the date it was
 * opened with (If-Match) and the server refuses the save (412) if the date changed since, so a
 * form opened before another manager's save does not undo it. The lists carry no ETag: the tag
 * is the date itself, made the same way by the app and the server.
 */
export const expirationTag = (expirationDate: string | null): string => `"${expirationDate ?? 'never'}"`;

export const removedUser = z.object({ uid: z.string(), email: z.string(), removed: z.literal(true) }).register(z.globalRegistry, { id: 'RemovedUser' });

/** Choices for the permission editor: plants (in the caller's scope) and ship-to-party numbers. */
export const grantOptions = z
  .object({
    editable: editScope,
    plants: z.array(z.object({ code: z.string(), name: z.string() })),
    shipToParties: z.array(z.object({ code: z.string(), name: z.string() })),
  })
  .register(z.globalRegistry, { id: 'GrantOptions' });
export type GrantOptions = z.infer<typeof grantOptions>;

export const plantOptionsQuery = z.object({ plant: z.string().check(z.trim(), z.toUpperCase(), z.minLength(1, 'Field plant is required'), z.maxLength(10)) });
const option = z.object({ code: z.string(), name: z.string() });
export const plantOptions = z
  .object({ plant: z.string(), plannerGroups: z.array(option), workCenters: z.array(option), storageLocations: z.array(option) })
  .register(z.globalRegistry, { id: 'PlantOptions' });
export type PlantOptions = z.infer<typeof plantOptions>;

// ───────────── approval requests (§3, §7) ─────────────

export const approvalRequest = z
  .object({
    request_id: z.string(),
    requesting_user_email: z.string(),
    requesting_user_name: z.string(),
    manager_email: z.string(),
    approval_status: z.enum(APPROVAL_STATUSES),
    created: z.string(),
    decided_by_email: z.nullable(z.string()),
    decided_at: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'ApprovalRequest' });
export type ApprovalRequest = z.infer<typeof approvalRequest>;

/**
 * GET /approval_requests/pending answers at most this many, oldest first. §7 answers a bare list
 * (the app parses it as one), so whether more wait is said by the header PENDING_HAS_MORE_HEADER
 * ('true' or 'false'), not by a field the list cannot carry.
 */
export const PENDING_APPROVALS_MAX = 500;
export const PENDING_HAS_MORE_HEADER = 'x-has-more';

export const pendingApproval = z.object({ requesting_user_email: z.string(), request_id: z.string(), created: z.string() });
export const pendingApprovals = z.array(pendingApproval).register(z.globalRegistry, {
  id: 'PendingApprovals',
  description: `At most ${PENDING_APPROVALS_MAX}, oldest first; the header X-Has-More says whether more wait.`,
});
export type PendingApproval = z.infer<typeof pendingApproval>;

// Ids in paths and queries are lower-cased: PostgreSQL matches a uuid in any case, so a check such as
// "not your own account" must compare the same spelling (an upper-case own id got past it).
export const approvalIdParams = z.object({ id: z.uuid({ message: 'id must be a request id (UUID)' }).check(z.toLowerCase()) });
export const userIdParams = z.object({ uid: z.uuid({ message: 'uid must be a user id (UUID)' }).check(z.toLowerCase()) });

/** GET /users/by_email: one user named by their e-mail address (for those who give PM rights and list no users). */
export const userByEmailQuery = z.object({
  email: z.string().check(z.trim(), z.minLength(1, 'Field email is required'), z.maxLength(254), z.email('email must be an e-mail address')),
});

// ───────────── audit log ─────────────

export const auditLogQuery = z.object({
  /** Only changes to this user. */
  userId: z.optional(z.uuid({ message: 'userId must be a user id (UUID)' }).check(z.toLowerCase())),
  page: usersQuery.shape.page,
  maxResults: usersQuery.shape.maxResults,
});
export type AuditLogQuery = z.input<typeof auditLogQuery>;

export const auditEntry = z
  .object({
    id: z.int(),
    actor_email: z.string(),
    action: z.string(),
    target_type: z.string(),
    target_id: z.string(),
    before: z.unknown(),
    after: z.unknown(),
    created: z.string(),
  })
  .register(z.globalRegistry, { id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditLogPage = z.object({ ...pageEnvelope, items: z.array(auditEntry) }).register(z.globalRegistry, { id: 'AuditLogPage' });
export type AuditLogPage = z.infer<typeof auditLogPage>;
