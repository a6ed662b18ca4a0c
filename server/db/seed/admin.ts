/** Dashboards, feedback and admin rows: priorities, allowed plants, approvals, audit log, transfers. */
import { DEMO_MECHANIC } from '../../auth/demo-accounts';
import type * as schema from '../schema';
import { IMPORTANT_MESSAGE, SHIP_TO_PARTIES } from './data';
import { STOCK_COUNT_PLANTS } from './counts';
import type { Insert, SeedUser, World } from './model';
import { item, Random } from './random';
import { addDays, addHours } from './time';

export function buildFeedback(world: World, byEmail: (email: string) => SeedUser): Insert<typeof schema.feedback>[] {
  const rng = new Random('feedback');
  const mechanic = byEmail(DEMO_MECHANIC.email);
  const supervisor = byEmail('supervisor@example.com');
  const csAdmin = byEmail('cs.admin@example.com');
  const vanStock = world.stock.get(`${DEMO_MECHANIC.plant}/${DEMO_MECHANIC.storageLocation}`) ?? [];
  const material = item(vanStock, 5).materialCode;
  const entries: Array<[SeedUser, string, string | null, Record<string, unknown>]> = [
    [mechanic, 'Feedback', 'FI01', { rating: 4, openFeedback: 'Pickup codes in the SMS save me a call every day. Please show them in the app too.' }],
    [mechanic, 'ReportIssue', 'FI01', { page: '/status-monitor', description: 'The ETA of order 4001200345 jumped back a week after the sync.' }],
    [mechanic, 'RequestStockTransfer', 'FI01', { storageLocationFrom: '0001', storageLocationTo: DEMO_MECHANIC.storageLocation, materialCode: material, quantity: 2 }],
    [supervisor, 'ReportStockDifference', 'FI01', { storageLocation: 'V002', materialCode: material, bookQuantity: 4, countedQuantity: 2, comment: 'Two pieces used on a callout, not booked.' }],
    [supervisor, 'RequestUpdateOrder', 'FI01', { serviceOrder: '4001200345', message: 'Please change delivery to the Pasila parcel locker.' }],
    [csAdmin, 'RequestUpdateAccessPointContactNotification', 'DE02', { shipToPartyCode: '0050020001', accessPointId: 'DE-AP-20114', contactEmail: 'lager.muenchen@example.com' }],
  ];
  return entries.map(([user, type, plant, payload]) => ({ id: rng.uuid(), userId: user.id, type, plant, payload, created: addHours(world.now, -rng.float(2, 24 * 20)) }));
}

export function buildAccessPointPriorities(world: World): Insert<typeof schema.accessPointPriorities>[] {
  const rng = new Random('priorities');
  return SHIP_TO_PARTIES.flatMap((stp) =>
    (world.accessPointsByShipTo.get(stp.code) ?? []).map((accessPointId, index) => ({
      shipToPartyCode: stp.code,
      accessPointId,
      priority: index + 1,
      // The lowest priority is sometimes switched off via a "disable" CSV upload.
      isEnabled: !(index >= 2 && rng.chance(0.3)),
      updatedBy: 'pm.writer@example.com',
      updatedAt: addDays(world.now, -rng.int(1, 60)),
    })),
  );
}

export function buildAdminRows(world: World, byEmail: (email: string) => SeedUser, supportEmail: string) {
  const rng = new Random('admin');
  const manager = byEmail('manager@example.com');
  const mechanic = byEmail(DEMO_MECHANIC.email);
  const pending = byEmail('pending@example.com');
  const expired = byEmail('expired@example.com');
  const pmWriter = byEmail('pm.writer@example.com');
  const approvedAt = addDays(mechanic.row.createdAt ?? world.now, 1);
  const approvalRequests: Insert<typeof schema.approvalRequests>[] = [
    { id: rng.uuid(), requestingUserId: mechanic.id, requestingUserEmail: mechanic.spec.email, managerEmail: supportEmail, approvalStatus: 'Approved', decidedBy: manager.id, decidedAt: approvedAt, createdAt: mechanic.row.createdAt },
    { id: rng.uuid(), requestingUserId: pending.id, requestingUserEmail: pending.spec.email, managerEmail: supportEmail, approvalStatus: 'Pending', createdAt: addHours(world.now, -3) },
  ];
  const actor = { actorUserId: manager.id, actorEmail: manager.spec.email };
  const auditLog: Insert<typeof schema.auditLog>[] = [
    { ...actor, action: 'user.approve', targetType: 'user', targetId: mechanic.id, before: { approvalStatus: 'Pending' }, after: { approvalStatus: 'Approved' }, createdAt: approvedAt },
    { ...actor, action: 'user.updatePermissions', targetType: 'user', targetId: pmWriter.id, before: { grants: ['PM_read'] }, after: { grants: ['PM_write', 'PM_upload_add', 'PM_upload_disable'] }, createdAt: addDays(world.now, -21) },
    { ...actor, action: 'user.updateExpiration', targetType: 'user', targetId: expired.id, before: { expirationDate: null }, after: { expirationDate: expired.row.expirationDate }, createdAt: addDays(world.now, -45) },
  ];
  const transfers: Insert<typeof schema.stockTransferRequests>[] = (world.stock.get('FI01/0001') ?? []).slice(0, 2).map((stockRow, i) => ({
    id: rng.uuid(),
    userId: mechanic.id,
    plant: 'FI01',
    storageLocationFrom: '0001',
    storageLocationTo: DEMO_MECHANIC.storageLocation,
    materialCode: stockRow.materialCode,
    quantity: String(i + 1),
    status: 'requested',
    createdAt: addHours(world.now, -rng.float(2, 48)),
  }));
  const importantMessages: Insert<typeof schema.importantMessages>[] = [{ position: 1, text: IMPORTANT_MESSAGE, createdBy: manager.spec.email, createdAt: addDays(world.now, -1) }];
  return { approvalRequests, auditLog, transfers, importantMessages };
}

export function buildAllowedPlants(): Insert<typeof schema.allowedPlants>[] {
  const lists: Record<Insert<typeof schema.allowedPlants>['parameter'], string[]> = {
    notifications_allowed_plants: ['FI01', 'DE02'],
    stock_count_allowed_plants: [...STOCK_COUNT_PLANTS],
    count_deadline_allowed_plants: ['FI01'],
    show_zero_stock_material_plants: ['DE02'],
  };
  return Object.entries(lists).flatMap(([parameter, plants]) => plants.map((plant) => ({ parameter, plant })));
}
