/**
 * The demo accounts (README): who they are, their grants and what they are attached to. The sign-in
 * page lists them when the local issuer is on (routes/auth.ts), and the demo seed (db/seed) creates
 * them and builds its orders, counts and notifications around the demo mechanic.
 */
import type { Grant } from '../../src/domain/permissions';

export interface AttachmentSpec {
  kind: 'plant' | 'planner_group' | 'work_center' | 'storage_location' | 'ship_to_party' | 'managed_ship_to_party';
  plant: string;
  code: string;
}

export interface AccountSpec {
  email: string;
  displayName: string;
  grants: Grant[];
  note: string;
  attachments: AttachmentSpec[];
  pending?: boolean;
  expiresInDays?: number;
  locale?: string;
  organisation?: string;
  phoneNumber?: string;
}

export const plantAt = (code: string): AttachmentSpec => ({ kind: 'plant', plant: code, code });
export const perPlant = (kind: AttachmentSpec['kind'], plant: string, code: string): AttachmentSpec => ({ kind, plant, code });
const unscoped = (kind: AttachmentSpec['kind'], code: string): AttachmentSpec => ({ kind, plant: '', code });

/** The demo mechanic's world; orders, counts and notifications are built around it. */
export const DEMO_MECHANIC = {
  email: 'mechanic@example.com',
  plant: 'FI01',
  workCenter: 'FI01M001',
  storageLocation: 'V001',
  shipToParty: '0050010001',
} as const;

export const ACCOUNT_SPECS: readonly AccountSpec[] = [
  {
    email: DEMO_MECHANIC.email,
    displayName: 'Matti Laine',
    grants: ['mechanic'],
    note: 'Mechanic in FI01 with work center FI01M001, van V001 and ship-to-party 0050010001; many "My orders", stock counts to do.',
    attachments: [
      plantAt('FI01'),
      perPlant('work_center', 'FI01', DEMO_MECHANIC.workCenter),
      perPlant('storage_location', 'FI01', DEMO_MECHANIC.storageLocation),
      unscoped('ship_to_party', DEMO_MECHANIC.shipToParty),
    ],
    phoneNumber: '+358401234567',
  },
  {
    email: 'supervisor@example.com',
    displayName: 'Sanna Heikkinen',
    grants: ['supervisor'],
    note: 'Supervisor of planner group F10 in FI01: creates, edits, cancels stock counts; front-liner dashboard.',
    attachments: [plantAt('FI01'), perPlant('planner_group', 'FI01', 'F10')],
    phoneNumber: '+358407654321',
  },
  {
    email: 'stock.admin@example.com',
    displayName: 'Petra Lindqvist',
    grants: ['stock_admin'],
    note: 'Stock admin of FI01 and DE02 with their warehouse storage locations.',
    attachments: [
      plantAt('FI01'),
      plantAt('DE02'),
      perPlant('storage_location', 'FI01', '0001'),
      perPlant('storage_location', 'FI01', '0002'),
      perPlant('storage_location', 'DE02', '0001'),
      perPlant('storage_location', 'DE02', '0002'),
    ],
    phoneNumber: '+358405550101',
  },
  {
    email: 'cs.admin@example.com',
    displayName: 'Markus Schneider',
    grants: ['custom_service_admin'],
    note: 'Customer service admin of DE02.',
    attachments: [plantAt('DE02')],
    phoneNumber: '+491515550102',
  },
  {
    email: 'manager@example.com',
    displayName: 'Helena Koskinen',
    grants: ['super_manager'],
    note: 'Super manager: sees and changes everything, all plants.',
    attachments: [],
  },
  {
    email: 'viewer@example.com',
    displayName: 'Daniel Fischer',
    grants: ['super_manager_read_only'],
    note: 'Read-only super manager.',
    attachments: [],
  },
  {
    email: 'acceptance@example.com',
    displayName: 'Olivia Moreau',
    grants: ['UM_user_acceptance', 'UM_PM_grant_read', 'UM_PM_grant_write'],
    note: 'Approves users and grants PM read/write.',
    attachments: [],
  },
  {
    email: 'pm.writer@example.com',
    displayName: 'Antoine Girard',
    grants: ['PM_write', 'PM_upload_add', 'PM_upload_disable'],
    note: 'Priority manager writer with ship-to-party and managed ship-to-party numbers; CSV uploads.',
    attachments: [
      unscoped('ship_to_party', '0050010001'),
      unscoped('ship_to_party', '0050010002'),
      unscoped('managed_ship_to_party', '0050010001'),
      unscoped('managed_ship_to_party', '0050010002'),
      unscoped('managed_ship_to_party', '0050010003'),
      unscoped('managed_ship_to_party', '0050020001'),
    ],
  },
  {
    email: 'pm.reader@example.com',
    displayName: 'Eva Novak',
    grants: ['PM_read'],
    note: 'Reads access-point priorities only.',
    attachments: [],
  },
  {
    email: 'pending@example.com',
    displayName: 'Noah Keller',
    grants: [],
    note: 'Waits for approval: lands on the welcome page.',
    attachments: [],
    pending: true,
  },
  {
    email: 'expired@example.com',
    displayName: 'Timo Salonen',
    grants: ['mechanic'],
    note: 'Mechanic in FI01 whose account expired yesterday: every call answers 403 "User expired".',
    attachments: [plantAt('FI01'), perPlant('work_center', 'FI01', 'FI01M003'), perPlant('storage_location', 'FI01', 'V003')],
    expiresInDays: -1,
  },
];

export const DEMO_ACCOUNTS: ReadonlyArray<{ email: string; displayName: string; grants: string[]; note: string }> =
  ACCOUNT_SPECS.map(({ email, displayName, grants, note }) => ({ email, displayName, grants: [...grants], note }));
