/**
 * §6 read row by row (what each role or permission may do), checked against the column-wise
 * CAPABILITY_GRANTS the server and the browser use. A row written here that the table does not
 * grant, or a grant the table gives that no row names, fails.
 */
import { describe, expect, it } from 'vitest';
import {
  holdsPlant,
  mayEditNotificationsOf,
  mayManageAccountOf,
  CAPABILITIES,
  GRANTS,
  can,
  grantableBy,
  mayHoldAttachment,
  visibleNavEntries,
  writesShipToParty,
  type Capability,
  type Grant,
} from './permissions';

const SUPER_MANAGER_WRITES: Capability[] = [
  'users.delete',
  'users.updateExpiration',
  'users.updatePermissions',
  'fileIngestion.upload',
  'materialCount.add',
  'materialCount.editQuantity',
  'materialCount.delete',
  'stockCount.create',
  'stockCount.edit',
  'stockCount.cancel',
  'stockCount.submit',
  'stockCount.recount',
  'storageLocations.update',
  'shipToParty.update',
  'stockTransfer.request',
  'priority.write',
  'priority.uploadAdd',
  'priority.uploadDisable',
  'notificationSettings.editOthers',
  'importantMessages.write',
  'approvals.decide',
];
const MANAGER_READS: Capability[] = [
  'stock.read',
  'userManagement.read',
  'users.listAll',
  'users.listApproved',
  'users.readPermissions',
  'auditLog.read',
  'fileDashboard.read',
  'frontliner.byPlant',
  'frontliner.byEmail',
  'stockCount.read',
  'storageLocations.read',
  'shipToParty.read',
  'priority.read',
];

/** §6, one row per role or permission. */
const ROWS: Record<Grant, Capability[]> = {
  super_manager: [...MANAGER_READS, ...SUPER_MANAGER_WRITES],
  super_manager_read_only: MANAGER_READS,
  UM_user_acceptance: ['userManagement.read', 'users.listAll', 'users.listApproved', 'users.delete', 'users.updateExpiration', 'approvals.decide'],
  UM_PM_grant_read: ['users.readPermissions', 'users.updatePermissions', 'priority.read'],
  UM_PM_grant_write: ['users.readPermissions', 'users.updatePermissions', 'priority.read'],
  PM_read: ['priority.read'],
  PM_write: ['priority.read', 'priority.write'],
  PM_upload_add: ['priority.read', 'priority.uploadAdd'],
  PM_upload_disable: ['priority.read', 'priority.uploadDisable'],
  mechanic: [
    'stock.read',
    'stockCount.read',
    'materialCount.add',
    'materialCount.editQuantity',
    'stockCount.submit',
    'stockTransfer.request',
    'tracking.myOrders',
  ],
  custom_service_admin: ['stock.read', 'stockCount.read', 'storageLocations.read', 'shipToParty.read', 'frontliner.byPlant', 'tracking.myOrders'],
  supervisor: [
    'stock.read',
    'stockCount.read',
    'materialCount.add',
    'materialCount.editQuantity',
    'materialCount.delete',
    'stockCount.create',
    'stockCount.edit',
    'stockCount.cancel',
    'stockCount.submit',
    'stockCount.recount',
    'stockTransfer.request',
    'frontliner.byPlannerGroup',
    'frontliner.byEmail',
    'notificationSettings.editOthers',
    'tracking.myOrders',
  ],
  stock_admin: [
    'stock.read',
    'stockCount.read',
    'userManagement.read',
    'users.listMyPlant',
    'users.readPermissions',
    'users.updatePermissions',
    'storageLocations.read',
    'storageLocations.update',
    'materialCount.add',
    'materialCount.editQuantity',
    'materialCount.delete',
    'stockCount.create',
    'stockCount.edit',
    'stockCount.cancel',
    'stockCount.submit',
    'stockCount.recount',
    'shipToParty.read',
    'shipToParty.update',
    'stockTransfer.request',
    'frontliner.byPlant',
    'frontliner.byEmail',
    'notificationSettings.editOthers',
    'fileIngestion.upload',
  ],
};

describe('§6 permissions table', () => {
  const cases = GRANTS.flatMap((grant) => CAPABILITIES.map((capability) => [grant, capability, ROWS[grant].includes(capability)] as const));

  it.each(cases)('%s → %s is %s', (grant, capability, expected) => {
    expect(can([grant], capability)).toBe(expected);
  });

  it('checks a request against the union of the user’s grants', () => {
    expect(can(['PM_read'], 'priority.write')).toBe(false);
    expect(can(['PM_read', 'PM_write'], 'priority.write')).toBe(true);
    expect(can([], 'stock.read')).toBe(false);
    expect(can(['not_a_grant'], 'stock.read')).toBe(false);
  });

  it('gives the read-only manager no write capability at all', () => {
    for (const capability of SUPER_MANAGER_WRITES) expect(can(['super_manager_read_only'], capability)).toBe(false);
  });

  it('attaches plants, planner groups, work centers and ship-to-party numbers only to the roles §6 names', () => {
    expect(mayHoldAttachment(['mechanic'], 'work_center')).toBe(true);
    expect(mayHoldAttachment(['supervisor'], 'work_center')).toBe(false);
    expect(mayHoldAttachment(['supervisor'], 'planner_group')).toBe(true);
    expect(mayHoldAttachment(['mechanic'], 'planner_group')).toBe(false);
    expect(mayHoldAttachment(['PM_write'], 'managed_ship_to_party')).toBe(true);
    expect(mayHoldAttachment(['PM_read'], 'managed_ship_to_party')).toBe(false);
    expect(mayHoldAttachment(['super_manager_read_only'], 'plant')).toBe(false);
    for (const role of ['custom_service_admin', 'mechanic', 'stock_admin', 'supervisor'] as const) {
      expect(mayHoldAttachment([role], 'plant')).toBe(true);
    }
  });

  it('lets grant managers give only their own permission and its attachments', () => {
    const read = grantableBy(['UM_PM_grant_read']);
    expect([...read.grants]).toEqual(['PM_read']);
    expect(read.attachments.has('storage_location')).toBe(false);
    expect([...grantableBy(['UM_PM_grant_write']).grants]).toEqual(['PM_write']);
    expect(grantableBy(['super_manager']).grants.size).toBe(GRANTS.length);
    expect(grantableBy(['super_manager_read_only']).grants.size).toBe(0);
    expect([...grantableBy(['stock_admin']).attachments]).toEqual(['storage_location']);
  });

  it('acts in a plant only where the user holds it, super managers in every plant (stock transfer, its button on team stock)', () => {
    expect(holdsPlant(['mechanic'], ['FI01'], 'FI01')).toBe(true);
    expect(holdsPlant(['mechanic'], ['FI01'], 'DE02')).toBe(false);
    expect(holdsPlant(['stock_admin'], [], 'FI01')).toBe(false);
    expect(holdsPlant(['super_manager'], [], 'DE02')).toBe(true);
  });
});

describe('§2 shell entries', () => {
  const allowed = {
    notifications_allowed_plants: ['FI01'],
    stock_count_allowed_plants: ['FI01'],
    count_deadline_allowed_plants: [],
    show_zero_stock_material_plants: [],
  };

  it('shows a mechanic in an allowed plant status, stock, notifications, stock count, profile and info', () => {
    expect(visibleNavEntries(['mechanic'], ['FI01'], allowed)).toEqual(['status', 'stock', 'notifications', 'stockCount', 'profile', 'info']);
  });

  it('hides notifications and stock count outside the allowed plants', () => {
    expect(visibleNavEntries(['mechanic'], ['DE02'], allowed)).toEqual(['status', 'stock', 'profile', 'info']);
  });

  it('shows super managers everything in every plant', () => {
    expect(visibleNavEntries(['super_manager'], [], allowed)).toEqual([
      'status', 'priority', 'stock', 'notifications', 'users', 'stockCount', 'profile', 'info', 'dashboard',
    ]);
  });

  it('shows Priority to any PM permission and nothing else extra', () => {
    expect(visibleNavEntries(['PM_read'], [], allowed)).toEqual(['status', 'priority', 'profile', 'info']);
  });
});

describe('others\u2019 notification settings (decision 0054)', () => {
  it('are edited by super managers for anyone, and otherwise never upwards', () => {
    expect(mayEditNotificationsOf(['super_manager'], ['super_manager_read_only'])).toBe(true);
    expect(mayEditNotificationsOf(['supervisor'], ['mechanic'])).toBe(true);
    expect(mayEditNotificationsOf(['supervisor'], ['supervisor'])).toBe(true);
    expect(mayEditNotificationsOf(['supervisor'], ['stock_admin'])).toBe(false);
    expect(mayEditNotificationsOf(['stock_admin'], ['stock_admin', 'supervisor'])).toBe(true);
    expect(mayEditNotificationsOf(['stock_admin'], ['super_manager'])).toBe(false);
    expect(mayEditNotificationsOf(['supervisor', 'stock_admin'], ['super_manager_read_only'])).toBe(false);
    // A read-only super manager who is also a supervisor edits as a supervisor, not as a super manager.
    expect(mayEditNotificationsOf(['supervisor', 'super_manager_read_only'], ['super_manager'])).toBe(false);
    expect(mayEditNotificationsOf(['supervisor', 'super_manager_read_only'], ['mechanic'])).toBe(true);
  });
});

describe('whose account an editor may expire or remove (#20)', () => {
  it('a super manager’s only by a super manager; anyone else’s by whoever may', () => {
    expect(mayManageAccountOf(['super_manager'], ['super_manager_read_only'])).toBe(true);
    expect(mayManageAccountOf(['UM_user_acceptance'], ['super_manager'])).toBe(false);
    expect(mayManageAccountOf(['UM_user_acceptance'], ['super_manager_read_only'])).toBe(false);
    expect(mayManageAccountOf(['UM_user_acceptance'], ['mechanic'])).toBe(true);
  });
});

describe('whose priorities a user may change (decision 0065)', () => {
  const held = ['0050010001', '0050010002'];
  it('the super manager every ship-to-party number, held or not', () => {
    expect(writesShipToParty(['super_manager'], [], '0099990001')).toBe(true);
  });
  it('a read-only super manager who writes priorities only the numbers it holds (it reads them all)', () => {
    expect(writesShipToParty(['super_manager_read_only', 'PM_write'], held, '0050010002')).toBe(true);
    expect(writesShipToParty(['super_manager_read_only', 'PM_write'], held, '0099990001')).toBe(false);
  });
  it('a PM writer only its own', () => {
    expect(writesShipToParty(['PM_write'], held, '0050010001')).toBe(true);
    expect(writesShipToParty(['PM_write'], held, '0099990001')).toBe(false);
  });
});
