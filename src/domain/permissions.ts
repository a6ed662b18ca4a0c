/**
 * §6 Roles and permissions, as data.
 *
 * A user's grant list (profile.permissions) mixes roles (mechanic, supervisor, …) and fine-grained
 * permissions (PM_read, UM_user_acceptance, …). A request is checked against the UNION of what
 * every grant allows. The server guards every route with `can()`; the browser hides what the
 * user may not do with the same function, so the two never disagree.
 */

export const ROLES = [
  'super_manager',
  'super_manager_read_only',
  'mechanic',
  'custom_service_admin',
  'supervisor',
  'stock_admin',
] as const;

export const PERMISSIONS = [
  'PM_read',
  'PM_write',
  'PM_upload_add',
  'PM_upload_disable',
  'UM_user_acceptance',
  'UM_PM_grant_read',
  'UM_PM_grant_write',
] as const;

export type Role = (typeof ROLES)[number];
export type Permission = (typeof PERMISSIONS)[number];
export type Grant = Role | Permission;

export const GRANTS: readonly Grant[] = [...ROLES, ...PERMISSIONS];

export function isGrant(value: string): value is Grant {
  return (GRANTS as readonly string[]).includes(value);
}

/** §6: mechanic, custom_service_admin and supervisor form the frontline group. */
export const FRONTLINE_ROLES: readonly Role[] = ['mechanic', 'custom_service_admin', 'supervisor'];
export const SUPER_MANAGER_ROLES: readonly Role[] = ['super_manager', 'super_manager_read_only'];

/** Labels and descriptions served by GET /user_api/v1/constants/permissions. */
export const GRANT_DESCRIPTIONS: Record<Grant, { label: string; description: string }> = {
  super_manager: { label: 'Super manager', description: 'Full read and write access.' },
  super_manager_read_only: {
    label: 'Super manager (read only)',
    description: 'Reads everything a super manager reads, changes nothing.',
  },
  mechanic: { label: 'Mechanic', description: 'Maintenance technician: own stock, counts materials and submits counts.' },
  custom_service_admin: {
    label: 'Customer service admin',
    description: 'Reads stock, storage locations and ship-to-party numbers of own plants.',
  },
  supervisor: { label: 'Supervisor', description: 'Creates, edits, cancels and submits stock counts of own planner groups.' },
  stock_admin: { label: 'Stock admin', description: 'Full stock-count management and user permissions of own plants.' },
  PM_read: { label: 'PM read', description: 'View access-point priorities per ship-to-party number.' },
  PM_write: { label: 'PM write', description: 'View and change access-point priorities.' },
  PM_upload_add: { label: 'PM upload add', description: 'Upload CSV files that add or update priorities.' },
  PM_upload_disable: { label: 'PM upload disable', description: 'Upload CSV files that delete or disable priorities.' },
  UM_user_acceptance: {
    label: 'User acceptance',
    description: 'Approve users, list users, delete users, update expiration dates.',
  },
  UM_PM_grant_read: { label: 'Grant PM read', description: 'Give PM read and its attachments to other users.' },
  UM_PM_grant_write: { label: 'Grant PM write', description: 'Give PM write and its attachments to other users.' },
};

/** Everything the product guards. One name per thing a user may do. */
export const CAPABILITIES = [
  'stock.read',
  'userManagement.read',
  'users.listAll',
  'users.listApproved',
  'users.listMyPlant',
  'users.delete',
  'users.updateExpiration',
  'users.readPermissions',
  'users.updatePermissions',
  'auditLog.read',
  'fileDashboard.read',
  'fileIngestion.upload',
  'frontliner.byPlant',
  'frontliner.byPlannerGroup',
  'frontliner.byEmail',
  'materialCount.add',
  'materialCount.editQuantity',
  'materialCount.delete',
  'stockCount.read',
  'stockCount.create',
  'stockCount.edit',
  'stockCount.cancel',
  'stockCount.submit',
  'stockCount.recount',
  'storageLocations.read',
  'storageLocations.update',
  'shipToParty.read',
  'shipToParty.update',
  'stockTransfer.request',
  'priority.read',
  'priority.write',
  'priority.uploadAdd',
  'priority.uploadDisable',
  'notificationSettings.editOthers',
  'importantMessages.write',
  'approvals.decide',
  'tracking.myOrders',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

const STOCK_READERS: Grant[] = [
  'super_manager',
  'super_manager_read_only',
  'mechanic',
  'custom_service_admin',
  'supervisor',
  'stock_admin',
];

/**
 * Which grants give each capability (§6 table, row by row).
 * Read the table column-wise: `can(grants, cap)` is true when any grant is listed here.
 */
export const CAPABILITY_GRANTS: Record<Capability, readonly Grant[]> = {
  'stock.read': STOCK_READERS,
  'userManagement.read': ['super_manager', 'super_manager_read_only', 'UM_user_acceptance', 'stock_admin'],
  'users.listAll': ['super_manager', 'super_manager_read_only', 'UM_user_acceptance'],
  'users.listApproved': ['super_manager', 'super_manager_read_only', 'UM_user_acceptance'],
  'users.listMyPlant': ['stock_admin'],
  'users.delete': ['super_manager', 'UM_user_acceptance'],
  'users.updateExpiration': ['super_manager', 'UM_user_acceptance'],
  'users.readPermissions': [
    'super_manager',
    'super_manager_read_only',
    'stock_admin',
    'UM_PM_grant_read',
    'UM_PM_grant_write',
  ],
  'users.updatePermissions': ['super_manager', 'stock_admin', 'UM_PM_grant_read', 'UM_PM_grant_write'],
  'auditLog.read': ['super_manager', 'super_manager_read_only'],
  'fileDashboard.read': ['super_manager', 'super_manager_read_only'],
  'fileIngestion.upload': ['super_manager', 'stock_admin'],
  'frontliner.byPlant': ['super_manager', 'super_manager_read_only', 'custom_service_admin', 'stock_admin'],
  'frontliner.byPlannerGroup': ['supervisor'],
  'frontliner.byEmail': ['super_manager', 'super_manager_read_only', 'supervisor', 'stock_admin'],
  'materialCount.add': ['super_manager', 'mechanic', 'supervisor', 'stock_admin'],
  'materialCount.editQuantity': ['super_manager', 'mechanic', 'supervisor', 'stock_admin'],
  'materialCount.delete': ['super_manager', 'supervisor', 'stock_admin'],
  'stockCount.read': STOCK_READERS,
  'stockCount.create': ['super_manager', 'supervisor', 'stock_admin'],
  'stockCount.edit': ['super_manager', 'supervisor', 'stock_admin'],
  'stockCount.cancel': ['super_manager', 'supervisor', 'stock_admin'],
  'stockCount.submit': ['super_manager', 'mechanic', 'supervisor', 'stock_admin'],
  'stockCount.recount': ['super_manager', 'supervisor', 'stock_admin'],
  'storageLocations.read': ['super_manager', 'super_manager_read_only', 'custom_service_admin', 'stock_admin'],
  'storageLocations.update': ['super_manager', 'stock_admin'],
  'shipToParty.read': ['super_manager', 'super_manager_read_only', 'custom_service_admin', 'stock_admin'],
  'shipToParty.update': ['super_manager', 'stock_admin'],
  'stockTransfer.request': ['super_manager', 'mechanic', 'supervisor', 'stock_admin'],
  'priority.read': [
    'super_manager',
    'super_manager_read_only',
    'PM_read',
    'PM_write',
    'PM_upload_add',
    'PM_upload_disable',
    'UM_PM_grant_read',
    'UM_PM_grant_write',
  ],
  'priority.write': ['super_manager', 'PM_write'],
  'priority.uploadAdd': ['super_manager', 'PM_upload_add'],
  'priority.uploadDisable': ['super_manager', 'PM_upload_disable'],
  'notificationSettings.editOthers': ['super_manager', 'supervisor', 'stock_admin'],
  'importantMessages.write': ['super_manager'],
  'approvals.decide': ['super_manager', 'UM_user_acceptance'],
  'tracking.myOrders': ['mechanic', 'custom_service_admin', 'supervisor'],
};

export function can(grants: readonly string[], capability: Capability): boolean {
  const allowed = CAPABILITY_GRANTS[capability];
  return grants.some((grant) => (allowed as readonly string[]).includes(grant));
}

export function isSuperManager(grants: readonly string[]): boolean {
  return grants.some((grant) => (SUPER_MANAGER_ROLES as readonly string[]).includes(grant));
}

/**
 * Whether these grants write without a plant or rank limit: the super manager only. A read-only
 * super manager who holds another role (§6: rights are the union) writes as that role (decision 0063).
 */
export function writesEverywhere(grants: readonly string[]): boolean {
  return grants.includes('super_manager');
}

/**
 * Whether a user with these grants who holds `held` ship-to-party numbers (ship_to_party and
 * managed_ship_to_party) may change the priorities of `code`: every number for the super manager,
 * only its own for anyone else, a read-only super manager too (decision 0065; the server's
 * shipToPartyWriteScope). The capability (`priority.write`) is checked apart.
 */
export function writesShipToParty(grants: readonly string[], held: readonly string[], code: string): boolean {
  return writesEverywhere(grants) || held.includes(code);
}

/**
 * Whether these grants see the orders of their plants whole: stock and customer-service admins
 * (§6 gives them their plants). Work centers and planner groups narrow a mechanic's or a
 * supervisor's plants; one who also holds a plant-wide role sees the union, the plants whole.
 */
export function seesPlantsWhole(grants: readonly string[]): boolean {
  return grants.includes('stock_admin') || grants.includes('custom_service_admin');
}

/** Whether an editor may change the expiration date of, or remove, a user of these grants: a super manager only by a super manager (#20). */
export function mayManageAccountOf(editorGrants: readonly string[], targetGrants: readonly string[]): boolean {
  return !isSuperManager(targetGrants) || writesEverywhere(editorGrants);
}

/** Whether a user with these grants and plants acts in `plant` (super managers: every plant). */
export function holdsPlant(grants: readonly string[], plants: readonly string[], plant: string): boolean {
  return isSuperManager(grants) || plants.includes(plant);
}

/** Whether a user with these grants and plants may change something of `plant` (holdsPlant for writes). */
export function writesInPlant(grants: readonly string[], plants: readonly string[], plant: string): boolean {
  return writesEverywhere(grants) || plants.includes(plant);
}

/**
 * The grants of a user whose notification settings a holder of `notificationSettings.editOthers`
 * with `caller` grants may not read or change (decision 0054, not upwards): for the writing super
 * manager none; for others a super manager's (either kind), and a stock admin's unless they are one.
 */
export function notificationEditBlockers(caller: readonly string[]): string[] {
  if (writesEverywhere(caller)) return [];
  return [...SUPER_MANAGER_ROLES, ...(caller.includes('stock_admin') ? [] : ['stock_admin'])];
}

/** Whether an editor may read and change the notification settings of a user with `target` grants. Plants are checked apart. */
export function mayEditNotificationsOf(caller: readonly string[], target: readonly string[]): boolean {
  const blockers = notificationEditBlockers(caller);
  return !target.some((grant) => blockers.includes(grant));
}

/** §6 Attachments: which grants may carry which attachment kind. */
export const ATTACHMENT_KINDS = [
  'plant',
  'planner_group',
  'work_center',
  'storage_location',
  'ship_to_party',
  'managed_ship_to_party',
] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

export const ATTACHMENT_HOLDERS: Record<AttachmentKind, readonly Grant[] | 'any'> = {
  plant: ['custom_service_admin', 'mechanic', 'stock_admin', 'supervisor'],
  planner_group: ['supervisor'],
  work_center: ['mechanic'],
  storage_location: 'any',
  // PM_read too: UM_PM_grant_read gives "PM read and the ship-to-party numbers that go with it" (§6).
  ship_to_party: ['PM_read', 'PM_write', 'mechanic', 'custom_service_admin', 'stock_admin'],
  managed_ship_to_party: ['PM_write'],
};

export function mayHoldAttachment(grants: readonly string[], kind: AttachmentKind): boolean {
  const holders = ATTACHMENT_HOLDERS[kind];
  if (holders === 'any') return true;
  return grants.some((grant) => (holders as readonly string[]).includes(grant));
}

/**
 * §6 grant matrix: what a granter may give to (or take from) another user.
 * `grants` lists the roles/permissions it may set; `attachments` the attachment kinds it may edit.
 * stock_admin edits only within its own plants; the server applies that scope.
 */
export const GRANTABLE: Partial<Record<Grant, { grants: readonly Grant[]; attachments: readonly AttachmentKind[] }>> = {
  super_manager: { grants: GRANTS, attachments: ATTACHMENT_KINDS },
  UM_PM_grant_read: {
    grants: ['PM_read'],
    attachments: ['plant', 'planner_group', 'ship_to_party', 'work_center'],
  },
  UM_PM_grant_write: {
    grants: ['PM_write'],
    attachments: ['plant', 'planner_group', 'ship_to_party', 'managed_ship_to_party', 'work_center'],
  },
  stock_admin: {
    grants: ['mechanic', 'supervisor'],
    attachments: ['storage_location'],
  },
};

export function grantableBy(grants: readonly string[]): { grants: Set<Grant>; attachments: Set<AttachmentKind> } {
  const result = { grants: new Set<Grant>(), attachments: new Set<AttachmentKind>() };
  for (const grant of grants) {
    if (!isGrant(grant)) continue;
    const entry = GRANTABLE[grant];
    if (!entry) continue;
    entry.grants.forEach((g) => result.grants.add(g));
    entry.attachments.forEach((a) => result.attachments.add(a));
  }
  return result;
}

/** §2 shell entries and what each needs. `plantGate` entries also need an allowed plant (§6). */
export type NavEntry =
  | 'status'
  | 'priority'
  | 'stock'
  | 'notifications'
  | 'users'
  | 'stockCount'
  | 'profile'
  | 'info'
  | 'dashboard';

export interface AllowedPlants {
  notifications_allowed_plants: string[];
  stock_count_allowed_plants: string[];
  count_deadline_allowed_plants: string[];
  show_zero_stock_material_plants: string[];
}

/** §6: super managers see notifications and stock count everywhere; others only in allowed plants they hold. */
export function inAllowedPlants(grants: readonly string[], userPlants: readonly string[], allowed: readonly string[]): boolean {
  if (isSuperManager(grants)) return true;
  return userPlants.some((plant) => allowed.includes(plant));
}

export function visibleNavEntries(
  grants: readonly string[],
  userPlants: readonly string[],
  allowedPlants: AllowedPlants,
): NavEntry[] {
  const entries: NavEntry[] = ['status'];
  if (can(grants, 'priority.read')) entries.push('priority');
  if (can(grants, 'stock.read')) entries.push('stock');
  if (inAllowedPlants(grants, userPlants, allowedPlants.notifications_allowed_plants)) entries.push('notifications');
  if (can(grants, 'userManagement.read')) entries.push('users');
  if (can(grants, 'stockCount.read') && inAllowedPlants(grants, userPlants, allowedPlants.stock_count_allowed_plants)) {
    entries.push('stockCount');
  }
  entries.push('profile', 'info');
  const dashboards: Capability[] = ['fileDashboard.read', 'frontliner.byPlant', 'frontliner.byPlannerGroup', 'frontliner.byEmail'];
  if (dashboards.some((capability) => can(grants, capability))) entries.push('dashboard');
  return entries;
}
