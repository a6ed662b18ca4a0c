/**
 * Deterministic demo seed (ARCHITECTURE §4): fills an EMPTY database with a realistic world of
 * three plants, their people, parts, stock, orders in every tracking stage (§4), stock counts in
 * every status, notifications, file-dashboard rows and the rest of §3.
 *
 * Strategy:
 * - Every random choice comes from a seeded mulberry32 stream, one stream per section, so the same
 *   `now` and `scale` always give identical rows, and changing one section does not reshuffle the
 *   others. Math.random and gen_random_uuid are never used; UUIDs come from the stream too.
 * - All dates are offsets from `options.now`, so "ETA next week" and "goods receipt 2 days ago"
 *   stay true whenever the seed runs.
 * - Rows are built in memory first (pure functions), then written in ONE transaction with
 *   multi-row inserts, which keeps PGlite fast. Tables with ids that other rows point to
 *   (order_items, stock_counts) get explicit ids and their sequences are moved past them.
 * - `scale` multiplies orders, vans (storage locations) and thus stock rows and stock counts.
 */
import { getTableColumns, getTableName, sql, type InferInsertModel } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { GRANTS, GRANT_DESCRIPTIONS, ROLES, type Grant } from '../../src/domain/permissions';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KEYS,
  type NotificationChannel,
  type StockCountStatus,
} from '../../src/domain/constants';
import { DOCUMENT_STAGES, type DeliveryStatus } from '../../src/domain/tracking';
import type { Db } from './client';
import * as schema from './schema';
import { ingestSeedFiles } from '../ingestion/seed-files';
import { copyLines, isPostgresTx } from '../ingestion/staging';
import { bookOfStockItem } from '../repositories/stock-counts';
import {
  ACCESS_POINTS,
  BUILDING_KINDS,
  CARRIER_TRACKING_URLS,
  EQUIPMENT_KINDS,
  IMPORTANT_MESSAGE,
  MODEL_SERIES,
  PART_CATALOG,
  PLANTS,
  SHIP_TO_PARTIES,
  STAFF,
  type CarrierName,
  type PlantDef,
} from './seed-data';

export interface SeedOptions {
  /** Multiplies orders, vans, stock rows and stock counts. 1 = hand-sized demo. */
  scale?: number;
  /** Reference time; every date is derived from it. */
  now?: Date;
  /** Manager address of the pending approval request. */
  supportEmail?: string;
}

type Insert<T extends PgTable> = InferInsertModel<T>;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

// ───────────────────────────── demo accounts ─────────────────────────────

interface AttachmentSpec {
  kind: 'plant' | 'planner_group' | 'work_center' | 'storage_location' | 'ship_to_party' | 'managed_ship_to_party';
  plant: string;
  code: string;
}

interface AccountSpec {
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

const plantAt = (code: string): AttachmentSpec => ({ kind: 'plant', plant: code, code });
const perPlant = (kind: AttachmentSpec['kind'], plant: string, code: string): AttachmentSpec => ({ kind, plant, code });
const unscoped = (kind: AttachmentSpec['kind'], code: string): AttachmentSpec => ({ kind, plant: '', code });

/** The demo mechanic's world; orders, counts and notifications are built around it. */
const DEMO_MECHANIC = {
  email: 'mechanic@example.com',
  plant: 'FI01',
  workCenter: 'FI01M001',
  storageLocation: 'V001',
  shipToParty: '0050010001',
} as const;

const ACCOUNT_SPECS: readonly AccountSpec[] = [
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

// ───────────────────────────── randomness and time ─────────────────────────────

/** A seeded mulberry32 stream with the few helpers the builders need. */
class Random {
  private state: number;

  constructor(label: string) {
    // FNV-1a of the label: each section gets its own independent, stable stream.
    let hash = 0x811c9dc5;
    for (const char of `partstrack-demo:${label}`) {
      hash ^= char.charCodeAt(0);
      hash = Math.imul(hash, 0x01000193);
    }
    this.state = hash >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return item(items, Math.floor(this.next() * items.length));
  }

  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return item(entries, entries.length - 1)[0];
  }

  /** n distinct items, in random order (partial Fisher–Yates on a copy). */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    const count = Math.min(n, copy.length);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [item(copy, j), item(copy, i)];
    }
    return copy.slice(0, count);
  }

  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String(Math.floor(this.next() * 10));
    return out;
  }

  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = (8 + Math.floor(this.next() * 4)).toString(16); // RFC 4122 variant bits
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

/** Indexed access that fails loudly instead of yielding undefined (noUncheckedIndexedAccess). */
function item<T>(items: readonly T[], index: number): T {
  const value = items[index];
  if (value === undefined) throw new Error(`seed: index ${index} out of range (${items.length})`);
  return value;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const addHours = (date: Date, hours: number): Date => new Date(date.getTime() + hours * HOUR);
const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY);
const isoDate = (date: Date): string => date.toISOString().slice(0, 10);
const maxDate = (a: Date, b: Date): Date => (a > b ? a : b);
const minDate = (a: Date, b: Date): Date => (a < b ? a : b);
const pad = (value: number, length: number): string => String(value).padStart(length, '0');

/** Increasing SAP-like document numbers: zero-padded, with random gaps like a busy ERP. */
class DocNumbers {
  private value: number;
  constructor(
    private readonly rng: Random,
    start: number,
    private readonly length = 10,
  ) {
    this.value = start + rng.int(0, 9_999);
  }
  next(): string {
    this.value += this.rng.int(1, 29);
    return pad(this.value, this.length);
  }
}

// ───────────────────────────── scale ─────────────────────────────

/** Vans per plant: 4 at scale 1; each further unit adds 6 (≈ 72k stock rows at scale 50 per plant). */
const vansPerPlant = (scale: number): number => Math.max(4, Math.round(6 * scale) - 2);
/** 300 orders at scale 1; each further unit adds 900 so scale 50 passes 100k order items. */
const orderCount = (scale: number): number =>
  scale <= 1 ? Math.max(30, Math.round(300 * scale)) : Math.round(300 + 900 * (scale - 1));
const extraStockCounts = (scale: number): number => Math.max(6, Math.round(24 * scale));
const MATERIAL_COUNT = 2_000;

// ───────────────────────────── world: plants, places, people, parts, stock ─────────────────────────────

interface WorkCenter {
  plant: string;
  code: string;
  name: string;
  plannerGroup: string;
  van: string;
}

interface SeedUser {
  id: string;
  spec: AccountSpec;
  row: Insert<typeof schema.users>;
}

interface Material {
  code: string;
  descriptionEnglish: string;
  unit: string;
  materialGroup: string;
}

type StockRow = Insert<typeof schema.stockItems> & { unrestrictedCount: string | null };

interface World {
  now: Date;
  scale: number;
  workCenters: WorkCenter[];
  storageLocations: Insert<typeof schema.storageLocations>[];
  users: SeedUser[];
  materials: Material[];
  /** Stock rows per `${plant}/${storageLocation}`, in insertion order. */
  stock: Map<string, StockRow[]>;
  /** Mechanic e-mails per `${plant}/${workCenter}`. */
  mechanicsByWorkCenter: Map<string, string[]>;
  /** Access-point ids per ship-to-party in priority order. */
  accessPointsByShipTo: Map<string, string[]>;
}

const plantDef = (code: string): PlantDef => {
  const plant = PLANTS.find((p) => p.code === code);
  if (!plant) throw new Error(`seed: unknown plant ${code}`);
  return plant;
};

function buildWorkCenters(scale: number): WorkCenter[] {
  const centers: WorkCenter[] = [];
  for (const plant of PLANTS) {
    const count = vansPerPlant(scale);
    for (let i = 0; i < count; i++) {
      const district = item(plant.districts, i % plant.districts.length);
      const round = Math.floor(i / plant.districts.length);
      centers.push({
        plant: plant.code,
        code: `${plant.code}M${pad(i + 1, 3)}`,
        name: `Maintenance route ${district}${round > 0 ? ` ${round + 1}` : ''}`,
        // Pairs of routes share a planner group, so a mechanic always has a team (§2 My team stock).
        plannerGroup: item(plant.plannerGroups, Math.floor(i / 2) % plant.plannerGroups.length).code,
        van: `V${pad(i + 1, 3)}`,
      });
    }
  }
  return centers;
}

function buildStorageLocations(workCenters: readonly WorkCenter[]): Insert<typeof schema.storageLocations>[] {
  const warehouses = PLANTS.flatMap((plant) => [
    { plant: plant.code, code: '0001', name: 'Central warehouse', workCenter: null },
    { plant: plant.code, code: '0002', name: 'Modernization project stock', workCenter: null },
  ]);
  const vans = workCenters.map((wc) => ({
    plant: wc.plant,
    code: wc.van,
    name: `Service van ${wc.name.replace('Maintenance route ', '')}`,
    workCenter: wc.code,
  }));
  return [...warehouses, ...vans];
}

function buildMaterials(): Material[] {
  const rng = new Random('materials');
  // Every part × variant × series combination is a distinct description; take 2,000 of them.
  const combos: Array<{ part: (typeof PART_CATALOG)[number]; variant: string; series: string }> = [];
  for (const part of PART_CATALOG) {
    const variants = part.variants.length > 0 ? part.variants : [''];
    for (const variant of variants) for (const series of MODEL_SERIES) combos.push({ part, variant, series });
  }
  const codes = new Set<string>();
  return rng.sample(combos, MATERIAL_COUNT).map(({ part, variant, series }) => {
    let code: string;
    do {
      // Two code families exist in the ERP: "KM" + 6 digits and plain 8-digit numbers.
      code = rng.chance(0.7) ? `KM${rng.digits(6)}` : `${rng.int(1, 9)}${rng.digits(7)}`;
    } while (codes.has(code));
    codes.add(code);
    return {
      code,
      descriptionEnglish: [part.name, variant, series].filter(Boolean).join(', '),
      unit: part.unit,
      materialGroup: part.group,
    };
  });
}

/** A count in the unit's natural granularity: whole pieces, decimal metres, half kilos. */
function stockQuantity(rng: Random, unit: string, max: number): string {
  switch (unit) {
    case 'M':
      return (Math.round(rng.float(0, max * 10) * 10) / 10).toFixed(1);
    case 'KG':
      return (Math.round(rng.float(0, max) * 2) / 2).toFixed(1);
    default:
      return String(Math.floor(rng.next() ** 2 * (max + 1)));
  }
}

function buildStockRows(rng: Random, now: Date, location: Insert<typeof schema.storageLocations>, materials: readonly Material[], workCenter: WorkCenter | undefined): StockRow[] {
  const plant = plantDef(location.plant);
  const isWarehouse = !workCenter;
  const isDemoVan = location.plant === DEMO_MECHANIC.plant && location.code === DEMO_MECHANIC.storageLocation;
  // The demo van is fuller than usual so its wall-to-wall count has ≥ 300 lines.
  const size = isDemoVan ? 380 : location.code === '0001' ? rng.int(450, 600) : location.code === '0002' ? rng.int(120, 200) : rng.int(160, 320);
  const picked = rng.sample(materials, size).sort((a, b) => a.code.localeCompare(b.code));
  const maxCount = isWarehouse ? 40 : 8;
  return picked.map((material) => {
    const isZero = rng.chance(0.1);
    const isUnknown = rng.chance(0.01);
    const hasReorder = rng.chance(isWarehouse ? 0.7 : 0.4);
    return {
      plant: location.plant,
      storageLocation: location.code,
      materialCode: material.code,
      bin: rng.chance(0.1) ? null : isWarehouse ? `${rng.pick(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'])}-${pad(rng.int(1, 24), 2)}-${rng.int(1, 5)}` : `D-${pad(rng.int(1, 12), 2)}-${rng.int(1, 3)}`,
      unrestrictedCount: isUnknown ? null : isZero ? '0' : stockQuantity(rng, material.unit, maxCount),
      qualityInspectionCount: rng.chance(0.03) ? String(rng.int(1, 3)) : '0',
      blockedCount: rng.chance(0.04) ? String(rng.int(1, 2)) : '0',
      restrictedCount: '0',
      // A few rows miss a count: §3 "total quantity is null if any count is not a number".
      transferCount: rng.chance(0.01) ? null : rng.chance(0.05) ? String(rng.int(1, 4)) : '0',
      reorderPoint: hasReorder ? String(isWarehouse ? rng.int(2, 20) : rng.int(1, 3)) : null,
      reorderQuantity: hasReorder ? String(isWarehouse ? rng.int(5, 50) : rng.int(2, 6)) : null,
      plannerGroups: workCenter ? [workCenter.plannerGroup] : plant.plannerGroups.map((pg) => pg.code),
      workCenters: workCenter ? [workCenter.code] : [],
      updatedAt: addHours(now, -rng.int(1, 96)),
    };
  });
}

function buildStock(now: Date, locations: readonly Insert<typeof schema.storageLocations>[], workCenters: readonly WorkCenter[], materials: readonly Material[]): Map<string, StockRow[]> {
  const rng = new Random('stock');
  const wcByCode = new Map(workCenters.map((wc) => [`${wc.plant}/${wc.code}`, wc]));
  const stock = new Map<string, StockRow[]>();
  for (const location of locations) {
    const wc = location.workCenter ? wcByCode.get(`${location.plant}/${location.workCenter}`) : undefined;
    stock.set(`${location.plant}/${location.code}`, buildStockRows(rng, now, location, materials, wc));
  }
  return stock;
}

function staffSpecs(workCenters: readonly WorkCenter[]): AccountSpec[] {
  return STAFF.map((staff) => {
    const plant = plantDef(staff.plant);
    const attachments: AttachmentSpec[] = [plantAt(staff.plant)];
    if (staff.role === 'mechanic') {
      const wc = item(workCenters.filter((w) => w.plant === staff.plant), staff.workCenterIndex ?? 0);
      attachments.push(perPlant('work_center', wc.plant, wc.code), perPlant('storage_location', wc.plant, wc.van));
    } else if (staff.plannerGroup) {
      attachments.push(perPlant('planner_group', staff.plant, staff.plannerGroup));
    }
    return {
      email: staff.email,
      displayName: staff.displayName,
      grants: [staff.role],
      note: `${staff.role} in ${staff.plant}`,
      attachments,
      expiresInDays: staff.expiresInDays,
      locale: plant.staffLocale,
      organisation: plant.organisation,
    };
  });
}

function buildUsers(now: Date, workCenters: readonly WorkCenter[]): SeedUser[] {
  const rng = new Random('users');
  return [...ACCOUNT_SPECS, ...staffSpecs(workCenters)].map((spec) => {
    const id = rng.uuid();
    const homePlant = spec.attachments.find((a) => a.kind === 'plant')?.plant;
    const phone = spec.phoneNumber ?? (homePlant ? `${plantDef(homePlant).phonePrefix}${rng.digits(7)}` : null);
    const createdAt = addDays(now, -rng.int(90, 400));
    return {
      id,
      spec,
      row: {
        id,
        email: spec.email,
        displayName: spec.displayName,
        licensed: true,
        organisation: spec.organisation ?? (homePlant ? plantDef(homePlant).organisation : 'Lift Service Group'),
        locale: spec.locale ?? 'en-US',
        isLocaleLocked: false,
        phoneNumber: phone,
        expirationDate: spec.expiresInDays === undefined ? null : isoDate(addDays(now, spec.expiresInDays)),
        firstLogin: spec.pending === true,
        approvalStatus: spec.pending ? 'Pending' : 'Approved',
        lastLoginAt: spec.pending ? null : addHours(now, spec.expiresInDays === -1 ? -24 * 9 : -rng.int(1, 72)),
        createdAt: spec.pending ? addHours(now, -3) : createdAt,
        updatedAt: spec.pending ? addHours(now, -3) : addDays(createdAt, rng.int(0, 30)),
      },
    };
  });
}

const isExpired = (user: SeedUser, now: Date): boolean =>
  user.row.expirationDate !== null && user.row.expirationDate !== undefined && user.row.expirationDate < isoDate(now);

function buildWorld(now: Date, scale: number): World {
  const workCenters = buildWorkCenters(scale);
  const storageLocations = buildStorageLocations(workCenters);
  const materials = buildMaterials();
  const users = buildUsers(now, workCenters);
  const mechanicsByWorkCenter = new Map<string, string[]>();
  for (const user of users) {
    if (!user.spec.grants.includes('mechanic') || isExpired(user, now)) continue;
    for (const a of user.spec.attachments.filter((x) => x.kind === 'work_center')) {
      const key = `${a.plant}/${a.code}`;
      mechanicsByWorkCenter.set(key, [...(mechanicsByWorkCenter.get(key) ?? []), user.spec.email]);
    }
  }
  const accessPointsByShipTo = new Map<string, string[]>();
  const apRng = new Random('access-points');
  for (const stp of SHIP_TO_PARTIES) {
    // Nearest first: access points in the ship-to-party's own city, then elsewhere in the country.
    const city = stp.address.split(' ').at(-1) ?? '';
    const local = ACCESS_POINTS.filter((ap) => ap.country === stp.country);
    const near = apRng.sample(local.filter((ap) => ap.city === city), local.length);
    const far = apRng.sample(local.filter((ap) => ap.city !== city), local.length);
    accessPointsByShipTo.set(stp.code, [...near, ...far].slice(0, apRng.int(3, 5)).map((ap) => ap.id));
  }
  return {
    now,
    scale,
    workCenters,
    storageLocations,
    users,
    materials,
    stock: buildStock(now, storageLocations, workCenters, materials),
    mechanicsByWorkCenter,
    accessPointsByShipTo,
  };
}

// ───────────────────────────── orders and parcels (§4 tracking stages) ─────────────────────────────

// The stage rules live in src/domain/tracking.ts; the seed plans items for each document stage.
const TRACKING_STAGES = DOCUMENT_STAGES;
type Stage = (typeof DOCUMENT_STAGES)[number];
type ShippedStatus = DeliveryStatus;

interface ItemPlan {
  stage: Stage;
  /** Delivery-order items only: null = delivery order created, not shipped yet. */
  status: ShippedStatus | null;
  /** Goods-receipt items: posted within the last 5 days (grey location icon, §4). */
  recentReceipt: boolean;
}

/** The first items of the demo mechanic: every stage and every delivery status, guaranteed. */
const SHOWCASE_PLANS: readonly ItemPlan[] = [
  { stage: 'ServiceOrder', status: null, recentReceipt: false },
  { stage: 'ReservationItem', status: null, recentReceipt: false },
  { stage: 'PurchaseOrderItem', status: null, recentReceipt: false },
  { stage: 'PurchaseOrderConfirmationItem', status: null, recentReceipt: false },
  { stage: 'PurchaseOrderGoodsReceiptItem', status: null, recentReceipt: true },
  { stage: 'PurchaseOrderGoodsReceiptItem', status: null, recentReceipt: false },
  { stage: 'SalesOrderItem', status: null, recentReceipt: false },
  { stage: 'SalesOrderScheduleLineItem', status: null, recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: null, recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'OnTheWay', recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'ToBePickedUp', recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'At access point', recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'Delivered', recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'Delivery Failed', recentReceipt: false },
];

const STAGE_WEIGHTS: ReadonlyArray<readonly [Stage, number]> = [
  ['ServiceOrder', 6],
  ['ReservationItem', 9],
  ['PurchaseOrderItem', 10],
  ['PurchaseOrderConfirmationItem', 11],
  ['PurchaseOrderGoodsReceiptItem', 10],
  ['SalesOrderItem', 8],
  ['SalesOrderScheduleLineItem', 9],
  ['DeliveryOrderItem', 37],
];

const STATUS_WEIGHTS: ReadonlyArray<readonly [ShippedStatus | null, number]> = [
  [null, 12],
  ['OnTheWay', 24],
  ['ToBePickedUp', 8],
  ['At access point', 9],
  ['Delivered', 42],
  ['Delivery Failed', 5],
];

interface ParcelEvent {
  status: string;
  description: string;
  location: string;
  occurredAt: Date;
}

interface OrderContext {
  rng: Random;
  world: World;
  docs: {
    reservation: DocNumbers;
    purchaseOrder: DocNumbers;
    salesOrder: DocNumbers;
    delivery: DocNumbers;
    notification: DocNumbers;
  };
}

interface OrderRows {
  orders: Insert<typeof schema.orders>[];
  items: Insert<typeof schema.orderItems>[];
  events: Insert<typeof schema.parcelEvents>[];
  /** Order id → the mechanic it is for ("My orders"). */
  ownerOf: Map<string, string | null>;
}

function orderedQuantity(rng: Random, unit: string): string {
  switch (unit) {
    case 'M':
      return String(rng.int(1, 16) * 5);
    case 'KG':
      return String(rng.int(1, 10));
    case 'L':
      return String(rng.int(1, 20));
    case 'SET':
      return String(rng.int(1, 2));
    default:
      return String(rng.int(1, 6));
  }
}

/** Youngest orders cannot have travelled far yet; cap the stage by the order's age. */
function randomPlan(rng: Random, ageDays: number): ItemPlan {
  let stage = rng.weighted(STAGE_WEIGHTS);
  const cap = ageDays < 1 ? 2 : ageDays < 3 ? 4 : ageDays < 6 ? 6 : 7;
  if (TRACKING_STAGES.indexOf(stage) > cap) stage = item(TRACKING_STAGES, cap);
  return {
    stage,
    status: stage === 'DeliveryOrderItem' ? rng.weighted(STATUS_WEIGHTS) : null,
    recentReceipt: rng.chance(0.55),
  };
}

/** Carrier scans from "information received" to the status's last event, ending before now. */
function parcelEvents(rng: Random, plan: ItemPlan & { status: ShippedStatus }, viaAccessPoint: boolean, plant: PlantDef, created: Date, now: Date, apName: string): ParcelEvent[] {
  const steps: Array<[string, string, string]> = [
    ['InfoReceived', 'Shipment information received', 'Distribution center'],
    ['InTransit', 'In transit', rng.pick(plant.parcelHubs)],
  ];
  if (rng.chance(0.5)) steps.push(['InTransit', 'Arrived at sorting center', rng.pick(plant.parcelHubs)]);
  const ready: [string, string, string] = ['AtAccessPoint', 'Ready for pickup at access point', apName];
  switch (plan.status) {
    case 'OnTheWay':
      if (steps.length < 3) steps.push(['InTransit', 'Departed from sorting center', rng.pick(plant.parcelHubs)]);
      if (rng.chance(0.4)) steps.push(['OutForDelivery', 'Out for delivery', plant.city]);
      break;
    case 'At access point':
      steps.push(ready);
      break;
    case 'ToBePickedUp':
      steps.push(ready, ['ToBePickedUp', 'Pickup reminder sent to recipient', apName]);
      break;
    case 'Delivery Failed':
      steps.push(['OutForDelivery', 'Out for delivery', plant.city], ['DeliveryFailed', 'Delivery attempt failed – recipient not available', plant.city]);
      break;
    case 'Delivered':
      if (viaAccessPoint) steps.push(ready, ['Delivered', 'Delivered – picked up at access point', apName]);
      else steps.push(['OutForDelivery', 'Out for delivery', plant.city], ['Delivered', 'Delivered', plant.city]);
      break;
  }
  const ageDays = (now.getTime() - created.getTime()) / DAY;
  const lastEventHoursAgo = plan.status === 'Delivered' ? rng.float(3, 24 * Math.max(0.5, Math.min(20, ageDays - 5))) : rng.float(1, 30);
  let at = addHours(now, -lastEventHoursAgo);
  const times: Date[] = [at];
  for (let i = 1; i < steps.length; i++) {
    at = addHours(at, -rng.float(3, 18));
    times.unshift(at);
  }
  const earliest = addHours(created, 2);
  let previous = earliest;
  return steps.map(([status, description, location], i) => {
    // Clamp into (created, now): a young order keeps its events in order, just closer together.
    const occurredAt = maxDate(item(times, i), addHours(previous, i === 0 ? 0 : 0.25));
    previous = occurredAt;
    return { status, description, location, occurredAt };
  });
}

function trackingNumber(rng: Random, carrier: CarrierName): string {
  switch (carrier) {
    case 'Posti':
      return `JJFI${rng.digits(17)}`;
    case 'DHL':
      return `JJD${rng.digits(18)}`;
    case 'DPD':
      return rng.digits(14);
    case 'UPS':
      return `1Z${Array.from({ length: 16 }, () => rng.pick([...'0123456789ABCDEFGHJKLMNPRSTVWXYZ'])).join('')}`;
    case 'Colissimo':
      return `6A${rng.digits(11)}`;
  }
}

/** Fills the document fields exactly as §4's stage rules read them. */
function documentFields(ctx: OrderContext, plan: ItemPlan, quantity: string, created: Date): Partial<Insert<typeof schema.orderItems>> {
  const { rng, docs, world } = ctx;
  const index = TRACKING_STAGES.indexOf(plan.stage);
  if (index === 0) return {};
  const fields: Partial<Insert<typeof schema.orderItems>> = {
    reservationDocNumber: docs.reservation.next(),
    reservationQuantity: quantity,
    pending: quantity,
  };
  // Stages 6–8 come either from the central warehouse (sales order only) or from a supplier PO.
  const viaPurchase = index >= 2 && index <= 4 ? true : index >= 5 ? rng.chance(0.4) : false;
  if (viaPurchase) {
    const po = docs.purchaseOrder.next();
    Object.assign(fields, { purchaseOrderDocNumber: po, purchaseOrder: `${po}/${pad(rng.int(1, 5) * 10, 5)}`, purchaseOrderQuantity: quantity });
  }
  if (plan.stage === 'PurchaseOrderConfirmationItem' || (index >= 6 && viaPurchase && rng.chance(0.6))) {
    // "AB" order acknowledgement, "LA" shipping notification; a partial confirmation now and then.
    fields.purchaseOrderConfirmationCategory = rng.chance(0.7) ? 'AB' : 'LA';
    fields.purchaseOrderConfirmationQuantity = rng.chance(0.85) ? quantity : String(Math.max(1, Math.floor(Number(quantity) / 2)));
  }
  if (plan.stage === 'PurchaseOrderGoodsReceiptItem') {
    fields.purchaseOrderGoodsReceiptQuantity = quantity;
    fields.goodsReceiptPostedAt = receiptTime(rng, plan.recentReceipt, created, world.now);
    fields.pending = '0';
  }
  if (index >= 5) {
    const so = docs.salesOrder.next();
    fields.salesOrderDocNumber = so;
    fields.salesOrderQuantity = quantity;
    if (viaPurchase) fields.salesOrderDocNumberAtPO = so;
  }
  if (index >= 6) fields.salesOrderScheduleLineQuantity = quantity;
  if (index >= 7) {
    fields.deliveryOrderDocNumber = docs.delivery.next();
    fields.deliveryQuantity = quantity;
    fields.pending = '0';
  }
  return fields;
}

/** Goods receipt either within the last 5 days (grey icon) or older, never before the order. */
function receiptTime(rng: Random, recent: boolean, created: Date, now: Date): Date {
  const ageHours = (now.getTime() - created.getTime()) / HOUR;
  const hoursAgo = recent || ageHours < 6 * 24 ? rng.float(1, Math.min(4.8 * 24, ageHours - 1)) : rng.float(5.5 * 24, ageHours - 1);
  return addHours(now, -Math.max(0.5, hoursAgo));
}

interface OrderHeader {
  id: string;
  plant: PlantDef;
  workCenter: WorkCenter;
  shipToParty: (typeof SHIP_TO_PARTIES)[number];
  userEmail: string | null;
  created: Date;
}

function buildItem(ctx: OrderContext, header: OrderHeader, plan: ItemPlan, lineNumber: number, itemId: number, rows: OrderRows): void {
  const { rng, world } = ctx;
  const { now } = world;
  const material = rng.pick(world.materials);
  const quantity = orderedQuantity(rng, material.unit);
  const mustUseAccessPoint = plan.status === 'At access point' || plan.status === 'ToBePickedUp';
  const viaAccessPoint = mustUseAccessPoint || (plan.status !== 'Delivery Failed' && rng.chance(0.4));
  const apIds = world.accessPointsByShipTo.get(header.shipToParty.code) ?? [];
  // Mostly the priority-1 access point of the ship-to-party, sometimes the second choice.
  const apId = rng.chance(0.8) ? apIds[0] : (apIds[1] ?? apIds[0]);
  const ap = ACCESS_POINTS.find((a) => a.id === apId);
  const useAp = viaAccessPoint && ap !== undefined;
  const stageIndex = TRACKING_STAGES.indexOf(plan.stage);
  const row: Insert<typeof schema.orderItems> = {
    id: itemId,
    orderId: header.id,
    lineNumber,
    materialCode: material.code,
    materialDescription: material.descriptionEnglish,
    unit: material.unit,
    deliveryType: useAp ? 'AccessPoint' : 'Warehouse',
    deliveryAddress: useAp ? `${ap.name}, ${ap.address}, ${ap.postalCode} ${ap.city}` : `${header.shipToParty.name}, ${header.shipToParty.address}`,
    addressCode: useAp ? ap.id : header.shipToParty.code,
    actionPoint: useAp ? ap.id : null,
    storageLocation: header.workCenter.van,
    deliveryDate: stageIndex >= 1 ? isoDate(addDays(header.created, rng.int(3, 14))) : null,
    eta: stageIndex >= 3 && stageIndex !== 4 ? isoDate(addDays(now, rng.int(1, 10))) : null,
    notification: rng.chance(0.3) ? ctx.docs.notification.next() : null,
    costCenter: rng.chance(0.08) ? `${header.plant.code}${rng.int(4100, 4199)}` : null,
    network: rng.chance(0.05) ? `90${rng.digits(8)}` : null,
    mainAssetNumber: rng.chance(0.03) ? `3000${rng.digits(6)}` : null,
    updatedAt: addHours(header.created, rng.float(1, Math.max(1, (now.getTime() - header.created.getTime()) / HOUR))),
    ...documentFields(ctx, plan, quantity, header.created),
  };
  if (plan.stage === 'PurchaseOrderGoodsReceiptItem' && row.goodsReceiptPostedAt) {
    row.deliveryDate = isoDate(row.goodsReceiptPostedAt);
  }
  if (plan.status) shipItem(ctx, header, { ...plan, status: plan.status }, row, useAp ? ap.name : header.shipToParty.name, useAp, rows);
  rows.items.push(row);
}

/** Tracking number, carrier events, transport details, SMS stamps and dates of a shipped item. */
function shipItem(ctx: OrderContext, header: OrderHeader, plan: ItemPlan & { status: ShippedStatus }, row: Insert<typeof schema.orderItems>, apName: string, viaAccessPoint: boolean, rows: OrderRows): void {
  const { rng, world } = ctx;
  const carrier = rng.pick(header.plant.carriers);
  const tn = trackingNumber(rng, carrier);
  const events = parcelEvents(rng, plan, viaAccessPoint, header.plant, header.created, world.now, apName);
  const last = item(events, events.length - 1);
  const readyAt = events.find((e) => e.status === 'AtAccessPoint')?.occurredAt;
  row.trackingNumber = tn;
  row.deliveryStatus = plan.status;
  row.transportDetails = {
    carrier,
    trackingUrl: CARRIER_TRACKING_URLS[carrier](tn),
    events: events.map((e) => ({ ...e, occurredAt: e.occurredAt.toISOString() })),
  };
  const sms = [readyAt, plan.status === 'ToBePickedUp' ? last.occurredAt : undefined].filter((d): d is Date => d !== undefined);
  if (plan.status === 'Delivery Failed' && rng.chance(0.5)) sms.push(last.occurredAt);
  row.smsTimestamps = sms.length > 0 ? sms.map((d) => d.toISOString()) : null;
  if (plan.status === 'Delivered') {
    row.deliveryDate = isoDate(last.occurredAt);
    row.eta = null;
    if (!viaAccessPoint && rng.chance(0.3)) {
      row.purchaseOrderGoodsReceiptQuantity = row.deliveryQuantity;
      row.goodsReceiptPostedAt = minDate(world.now, addHours(last.occurredAt, rng.float(2, 20)));
    }
  } else if (plan.status === 'OnTheWay') {
    row.eta = isoDate(addDays(world.now, rng.int(0, 3)));
  } else if (plan.status === 'Delivery Failed') {
    row.deliveryDate = isoDate(last.occurredAt);
    row.eta = isoDate(addDays(world.now, rng.int(1, 2)));
  } else {
    // At the access point: the ETA is the day it arrived; the pickup window is a week.
    row.deliveryDate = isoDate(readyAt ?? last.occurredAt);
    row.eta = isoDate(readyAt ?? last.occurredAt);
  }
  row.updatedAt = last.occurredAt;
  for (const event of events) {
    rows.events.push({ orderItemId: Number(row.id), trackingNumber: tn, carrier, ...event });
  }
}

function buildOrders(world: World): OrderRows {
  const rng = new Random('orders');
  const ctx: OrderContext = {
    rng,
    world,
    docs: {
      reservation: new DocNumbers(rng, 2_100_000),
      purchaseOrder: new DocNumbers(rng, 4_500_100_000),
      salesOrder: new DocNumbers(rng, 1_200_300_000),
      delivery: new DocNumbers(rng, 8_000_400_000),
      notification: new DocNumbers(rng, 1_000_500_000),
    },
  };
  const serviceOrders = new DocNumbers(rng, 4_001_200_000);
  const equipment = new DocNumbers(rng, 41_000_000, 8);
  const rows: OrderRows = { orders: [], items: [], events: [], ownerOf: new Map() };
  const showcase = [...SHOWCASE_PLANS];
  const demoWorkCenter = world.workCenters.find((wc) => wc.plant === DEMO_MECHANIC.plant && wc.code === DEMO_MECHANIC.workCenter);
  const demoShipTo = SHIP_TO_PARTIES.find((stp) => stp.code === DEMO_MECHANIC.shipToParty);
  if (!demoWorkCenter || !demoShipTo) throw new Error('seed: demo mechanic work center or ship-to-party missing');
  const total = orderCount(world.scale);
  let itemId = 0;
  for (let i = 0; i < total; i++) {
    const isShowcase = showcase.length > 0;
    const isDemo = isShowcase || rng.chance(0.18);
    // Showcase orders are old enough for every stage; others span the last 60 days.
    const ageDays = isShowcase ? rng.float(20, 30) : rng.float(0.05, 60);
    const plant = isDemo ? plantDef(DEMO_MECHANIC.plant) : plantDef(rng.weighted([['FI01', 5], ['DE02', 3], ['FR03', 2]] as const));
    const workCenter = isDemo ? demoWorkCenter : rng.pick(world.workCenters.filter((wc) => wc.plant === plant.code));
    const mechanics = world.mechanicsByWorkCenter.get(`${plant.code}/${workCenter.code}`) ?? [];
    const header: OrderHeader = {
      id: serviceOrders.next(),
      plant,
      workCenter,
      shipToParty: isDemo ? demoShipTo : rng.pick(SHIP_TO_PARTIES.filter((stp) => stp.plant === plant.code)),
      userEmail: isDemo ? DEMO_MECHANIC.email : mechanics.length > 0 && rng.chance(0.9) ? rng.pick(mechanics) : null,
      created: addDays(world.now, -ageDays),
    };
    const itemCount = isShowcase ? Math.min(3, showcase.length) : rng.weighted([[1, 25], [2, 30], [3, 25], [4, 20]] as const);
    for (let line = 1; line <= itemCount; line++) {
      const plan = showcase.shift() ?? randomPlan(rng, ageDays);
      buildItem(ctx, header, plan, line * 10, ++itemId, rows);
    }
    rows.orders.push(orderRow(rng, header, equipment.next(), rows.items.slice(-itemCount)));
    rows.ownerOf.set(header.id, header.userEmail);
  }
  return rows;
}

function orderRow(rng: Random, header: OrderHeader, equipmentCode: string, items: readonly Insert<typeof schema.orderItems>[]): Insert<typeof schema.orders> {
  const street = `${rng.pick(header.plant.streets)} ${rng.int(1, 120)}`;
  const destination = `${street}, ${rng.pick(header.plant.postalCodes)} ${header.plant.city}`;
  const updatedAt = items.reduce((latest, it) => (it.updatedAt && it.updatedAt > latest ? it.updatedAt : latest), header.created);
  return {
    id: header.id,
    serviceOrder: header.id,
    equipmentCode,
    equipmentDescription: `${rng.pick(EQUIPMENT_KINDS)}, ${rng.pick(BUILDING_KINDS)} ${street}`,
    destination,
    plant: header.plant.code,
    workCenter: header.workCenter.code,
    plannerGroup: header.workCenter.plannerGroup,
    shipToParty: header.shipToParty.code,
    userEmail: header.userEmail,
    createdAt: header.created,
    updatedAt,
  };
}

// ───────────────────────────── stock counts ─────────────────────────────

interface CountPlan {
  plant: string;
  storageLocation: string;
  type: 'single' | 'wall_to_wall';
  status: StockCountStatus;
  conductedBy: string | null;
  createdBy: string;
  isDraft?: boolean;
  ageDays: number;
  /** Lines: 'all' for wall-to-wall, otherwise a number of sampled stock rows. */
  lines: number | 'all';
  recountOfIndex?: number;
}

const STOCK_COUNT_PLANTS = ['FI01', 'DE02'] as const;

/** Hand-made counts around the demo mechanic's van: every status, drafts and one big wall-to-wall. */
function showcaseCountPlans(): CountPlan[] {
  const van = { plant: DEMO_MECHANIC.plant, storageLocation: DEMO_MECHANIC.storageLocation, conductedBy: DEMO_MECHANIC.email, createdBy: 'supervisor@example.com' };
  return [
    { ...van, type: 'wall_to_wall', status: 'initiated', ageDays: 1, lines: 'all' },
    { ...van, type: 'single', status: 'in_progress', ageDays: 3, lines: 40 },
    { ...van, type: 'single', status: 'submitted', ageDays: 6, lines: 25 },
    { ...van, type: 'single', status: 'completed', ageDays: 20, lines: 30 },
    { ...van, type: 'single', status: 'cancelled', ageDays: 12, lines: 15 },
    { ...van, type: 'single', status: 'error', ageDays: 8, lines: 20 },
    { ...van, type: 'single', status: 'recount', ageDays: 2, lines: 12, recountOfIndex: 3 },
    { ...van, type: 'single', status: 'initiated', ageDays: 0.2, lines: 18, isDraft: true },
    { plant: 'FI01', storageLocation: 'V002', conductedBy: 'mikko.virtanen@lift.example', createdBy: 'supervisor@example.com', type: 'wall_to_wall', status: 'completed', ageDays: 30, lines: 'all' },
    { plant: 'DE02', storageLocation: 'V001', conductedBy: 'lukas.mueller@lift.example', createdBy: 'stock.admin@example.com', type: 'single', status: 'in_progress', ageDays: 2, lines: 35 },
    { plant: 'DE02', storageLocation: '0001', conductedBy: null, createdBy: 'stock.admin@example.com', type: 'single', status: 'initiated', ageDays: 0.5, lines: 50, isDraft: true },
  ];
}

/** Supervisors per `${plant}/${plannerGroup}`: the demo supervisor and the staff ones. */
const SUPERVISORS_OF = new Map<string, string[]>();
for (const [plant, group, email] of [
  ...ACCOUNT_SPECS.filter((spec) => spec.grants.includes('supervisor')).flatMap((spec) =>
    spec.attachments.filter((a) => a.kind === 'planner_group').map((a) => [a.plant, a.code, spec.email] as const),
  ),
  ...STAFF.filter((staff) => staff.role === 'supervisor' && staff.plannerGroup).map((staff) => [staff.plant, staff.plannerGroup!, staff.email] as const),
]) {
  SUPERVISORS_OF.set(`${plant}/${group}`, [...(SUPERVISORS_OF.get(`${plant}/${group}`) ?? []), email]);
}

function randomCountPlans(world: World): CountPlan[] {
  const rng = new Random('stock-count-plans');
  const plans: CountPlan[] = [];
  const statuses: ReadonlyArray<readonly [StockCountStatus, number]> = [
    ['initiated', 4], ['in_progress', 3], ['submitted', 2], ['completed', 6], ['cancelled', 1], ['error', 1], ['recount', 1],
  ];
  for (let i = 0; i < extraStockCounts(world.scale); i++) {
    const plant = rng.pick(STOCK_COUNT_PLANTS);
    const wc = rng.pick(world.workCenters.filter((w) => w.plant === plant));
    // Vans without a registered mechanic are counted by a colleague of the same plant.
    const own = world.mechanicsByWorkCenter.get(`${plant}/${wc.code}`) ?? [];
    const colleagues = [...world.mechanicsByWorkCenter.entries()].filter(([key]) => key.startsWith(`${plant}/`)).flatMap(([, emails]) => emails);
    const status = rng.weighted(statuses);
    plans.push({
      plant,
      storageLocation: wc.van,
      type: rng.chance(0.15) ? 'wall_to_wall' : 'single',
      status,
      conductedBy: own.length > 0 ? rng.pick(own) : rng.chance(0.8) ? rng.pick(colleagues) : null,
      // Planned by the supervisor of the van's planner group (§6, #20) or the plant's stock admin.
      createdBy: rng.pick([...(SUPERVISORS_OF.get(`${plant}/${wc.plannerGroup}`) ?? []), 'stock.admin@example.com']),
      isDraft: status === 'initiated' && rng.chance(0.25),
      ageDays: rng.float(0.2, 60),
      lines: rng.int(10, 60),
    });
  }
  return plans;
}

/** What the ERP answers when a posting fails; shown verbatim with the count (§3 latest_sap_error). */
function sapError(storageLocation: string, plant: string, materialCode: string): string {
  return JSON.stringify({
    type: 'E',
    id: 'M7',
    number: '021',
    message: `Deficit of SL Unrestricted-use 2 PC : ${materialCode} ${plant} ${storageLocation}`,
    logNo: '',
    messageV1: materialCode,
    messageV2: plant,
    messageV3: storageLocation,
  });
}

function countedQuantity(rng: Random, book: string | null, unit: string): string {
  if (book === null) return stockQuantity(rng, unit, 6);
  // Most lines match the book; a few show the differences stock counts exist to find.
  if (rng.chance(0.85)) return book;
  return String(Math.max(0, Math.round(Number(book)) + rng.pick([-2, -1, 1, 2])));
}

interface CountRows {
  counts: Insert<typeof schema.stockCounts>[];
  lines: Insert<typeof schema.materialCounts>[];
}

function buildStockCounts(world: World): CountRows {
  const rng = new Random('stock-counts');
  const pid = new DocNumbers(rng, 100_020_000);
  const materials = new Map(world.materials.map((m) => [m.code, m]));
  const wcByVan = new Map(world.workCenters.map((wc) => [`${wc.plant}/${wc.van}`, wc]));
  const rows: CountRows = { counts: [], lines: [] };
  const plans = [...showcaseCountPlans(), ...randomCountPlans(world)];
  const pickedByIndex: StockRow[][] = [];
  plans.forEach((plan, index) => {
    const id = index + 1;
    const created = addDays(world.now, -plan.ageDays);
    // A recount re-counts some lines of the count it repeats; others sample the location's stock.
    const source = plan.recountOfIndex === undefined ? (world.stock.get(`${plan.plant}/${plan.storageLocation}`) ?? []) : (pickedByIndex[plan.recountOfIndex] ?? []);
    const picked = plan.lines === 'all' ? source : rng.sample(source, plan.lines).sort((a, b) => a.materialCode.localeCompare(b.materialCode));
    pickedByIndex.push(picked);
    const wc = wcByVan.get(`${plan.plant}/${plan.storageLocation}`);
    const isDone = ['submitted', 'completed', 'error'].includes(plan.status);
    const countedShare = isDone ? 1 : plan.status === 'in_progress' ? 0.5 : plan.status === 'cancelled' ? 0.3 : 0;
    // §3 deadline only where count_deadline_allowed_plants lists the plant (FI01).
    const shouldBeDoneAt = plan.plant === 'FI01' ? isoDate(addDays(created, plan.type === 'wall_to_wall' ? 14 : 7)) : null;
    rows.counts.push({
      id,
      created,
      createdBy: plan.createdBy,
      plant: plan.plant,
      type: plan.type,
      shouldBeDoneAt,
      // The demo's history: counts already due by tomorrow had their "due" reminder (#6).
      dueReminderSentAt: shouldBeDoneAt !== null && shouldBeDoneAt <= isoDate(addDays(world.now, 1)) ? world.now : null,
      status: plan.status,
      isDraft: plan.isDraft ?? false,
      storageLocation: plan.storageLocation,
      conductedBy: plan.conductedBy,
      workCenter: wc?.code ?? null,
      plannerGroup: wc?.plannerGroup ?? null,
      latestSapError: plan.status === 'error' ? sapError(plan.storageLocation, plan.plant, picked[0]?.materialCode ?? 'KM000000') : null,
      physicalInventoryDocumentNumber: ['submitted', 'completed', 'error'].includes(plan.status) ? pid.next() : null,
      recountOf: plan.recountOfIndex === undefined ? null : plan.recountOfIndex + 1,
      submittedAt: isDone ? minDate(world.now, addHours(created, rng.float(4, 48))) : null,
      updatedAt: addHours(created, rng.float(0.5, 4)),
    });
    for (const stockRow of picked) {
      const material = materials.get(stockRow.materialCode);
      if (!material) continue;
      const isCounted = rng.chance(countedShare);
      rows.lines.push({
        stockCountId: id,
        materialCode: material.code,
        materialDescriptionEnglish: material.descriptionEnglish,
        quantity: isCounted ? countedQuantity(rng, stockRow.unrestrictedCount, material.unit) : null,
        unit: material.unit,
        bookQuantity: bookOfStockItem(stockRow),
        bookQuantityAt: created,
        version: 0,
        updatedBy: isCounted ? plan.conductedBy : null,
        updatedAt: created,
      });
    }
  });
  return rows;
}

// ───────────────────────────── notifications and settings ─────────────────────────────

interface NotificationText {
  subject: string;
  title: string;
  message: string;
}

type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

function notificationText(rng: Random, key: NotificationKey, channel: NotificationChannel, user: SeedUser, orders: OrderRows): NotificationText {
  const firstName = user.spec.displayName.split(' ')[0] ?? user.spec.displayName;
  switch (key) {
    case 'delivery_notification': {
      const waiting = orders.items.filter((it) => it.deliveryStatus === 'ToBePickedUp' || it.deliveryStatus === 'At access point');
      const own = waiting.filter((it) => orders.ownerOf.get(it.orderId) === user.spec.email);
      const parcel = rng.pick(own.length > 0 ? own : waiting);
      const details = parcel.transportDetails as { trackingUrl: string };
      const code = rng.digits(4);
      const where = parcel.deliveryAddress ?? 'the access point';
      return {
        subject: `Parcel for service order ${parcel.orderId} is ready for pickup`,
        title: 'Parcel ready for pickup',
        message:
          channel === 'email'
            ? `Hello ${firstName},\n\nparcel ${parcel.trackingNumber} (${parcel.materialDescription}) for service order ${parcel.orderId} is waiting at ${where}. Pickup code: ${code}. It goes back to the sender after 7 days.\n\nTrack it: ${details.trackingUrl}\nQuestions: logistics@example.com`
            : channel === 'sms'
              ? `Parcel ${parcel.trackingNumber} for order ${parcel.orderId} is ready at ${where}. Pickup code ${code}. ${details.trackingUrl}`
              : `${parcel.materialDescription} for order ${parcel.orderId} is ready for pickup.`,
      };
    }
    case 'inventory_count_notification': {
      const id = rng.int(1, 8);
      const storageLocation = user.spec.attachments.find((a) => a.kind === 'storage_location')?.code ?? DEMO_MECHANIC.storageLocation;
      return {
        subject: `Stock count #${id} assigned to you`,
        title: 'Stock count assigned',
        message:
          channel === 'email'
            ? `Hello ${firstName},\n\na stock count (#${id}) was assigned to you for storage location ${storageLocation}. Please count by Friday: https://parts.example/mechanic-view/${id}\nQuestions: stock.admin@example.com`
            : `Stock count #${id} for ${storageLocation} is waiting. Open https://parts.example/stock-count`,
      };
    }
    case 'contact_notification': {
      const stp = rng.pick(SHIP_TO_PARTIES);
      return {
        subject: `Access point contact updated for ${stp.code}`,
        title: 'Access point contact updated',
        message: `The pickup contact for ship-to-party ${stp.code} (${stp.name}) changed. New contact: logistics.${stp.country.toLowerCase()}@example.com, ${plantDef(stp.plant).phonePrefix}${rng.digits(7)}.`,
      };
    }
    case 'other_notification':
      return {
        subject: 'Planned maintenance on Saturday',
        title: 'Service announcement',
        message: channel === 'email' ? `${IMPORTANT_MESSAGE}\n\nStatus page: https://status.example.com` : 'Reminder: ordering is unavailable Saturday 22:00–23:30 CET.',
      };
  }
}

/** Users who see notifications: super managers and users of notification-allowed plants (§6). */
function notificationRecipients(world: World): SeedUser[] {
  const allowed = ['FI01', 'DE02'];
  return world.users.filter(
    (u) =>
      u.row.approvalStatus === 'Approved' &&
      !isExpired(u, world.now) &&
      ACCOUNT_SPECS.includes(u.spec) &&
      (u.spec.grants.some((g) => g === 'super_manager' || g === 'super_manager_read_only') || u.spec.attachments.some((a) => a.kind === 'plant' && allowed.includes(a.plant))),
  );
}

function buildNotifications(world: World, orders: OrderRows): Insert<typeof schema.notifications>[] {
  const rng = new Random('notifications');
  const rows: Insert<typeof schema.notifications>[] = [];
  for (const user of notificationRecipients(world)) {
    const attached = (kind: AttachmentSpec['kind']) => user.spec.attachments.find((a) => a.kind === kind);
    const perCombination = user.spec.email === DEMO_MECHANIC.email ? 2 : 1;
    for (const channel of NOTIFICATION_CHANNELS) {
      for (const key of NOTIFICATION_KEYS) {
        for (let n = 0; n < perCombination; n++) {
          const text = notificationText(rng, key, channel, user, orders);
          const created = n === 0 && key === 'delivery_notification' ? addHours(world.now, -rng.float(0.2, 5)) : addHours(world.now, -rng.float(6, 24 * 14));
          const failed = channel === 'sms' && key === 'other_notification' && n === 0 && user.spec.email === DEMO_MECHANIC.email;
          rows.push({
            userId: user.id,
            channel,
            notificationKey: key,
            userEmail: user.spec.email,
            phoneNumber: channel === 'sms' ? user.row.phoneNumber ?? null : null,
            plant: attached('plant')?.plant ?? null,
            plannerGroup: attached('planner_group')?.code ?? null,
            storageLocation: attached('storage_location')?.code ?? null,
            workCenter: attached('work_center')?.code ?? null,
            subject: channel === 'email' ? text.subject : null,
            title: channel === 'push' ? text.title : null,
            message: text.message,
            // Older ones were read (§4: read sets active to false).
            active: created > addDays(world.now, -3) ? rng.chance(0.8) : rng.chance(0.2),
            deliveryState: failed ? 'failed' : 'sent',
            deliveryError: failed ? 'SMS gateway: recipient number unreachable' : null,
            created,
          });
        }
      }
    }
  }
  return rows.sort((a, b) => Number(a.created) - Number(b.created));
}

function buildNotificationSettings(world: World): Insert<typeof schema.notificationSettings>[] {
  const rows: Insert<typeof schema.notificationSettings>[] = [];
  for (const user of world.users.filter((u) => ACCOUNT_SPECS.includes(u.spec) && u.row.approvalStatus === 'Approved')) {
    const isFrontline = user.spec.grants.some((g) => g === 'mechanic' || g === 'supervisor');
    const preferences = Object.fromEntries(
      NOTIFICATION_KEYS.map((key) => [key, { emailEnabled: true, smsEnabled: isFrontline && key === 'delivery_notification', pushEnabled: isFrontline && key !== 'other_notification' }]),
    );
    rows.push(
      {
        userId: user.id,
        primary: true,
        emailEnabled: true,
        email: user.spec.email,
        mobileEnabled: Boolean(user.row.phoneNumber),
        mobileNumber: user.row.phoneNumber ?? null,
        pushNotificationsEnabled: isFrontline,
        preferences,
        updatedAt: addDays(world.now, -10),
      },
      {
        userId: user.id,
        primary: false,
        emailEnabled: isFrontline,
        email: isFrontline ? 'service.fi01@example.com' : null,
        mobileEnabled: false,
        mobileNumber: null,
        pushNotificationsEnabled: false,
        preferences: Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, { emailEnabled: key === 'delivery_notification', smsEnabled: false, pushEnabled: false }])),
        updatedAt: addDays(world.now, -10),
      },
    );
  }
  return rows;
}

function buildDevices(world: World, mechanic: SeedUser): Insert<typeof schema.notificationDevices>[] {
  const rng = new Random('devices');
  const token = () => `${rng.digits(4)}:APA91b${Array.from({ length: 134 }, () => rng.pick([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'])).join('')}`;
  return [
    { userId: mechanic.id, deviceId: rng.digits(13), token: token(), deviceName: 'Android / Chrome', isEnabled: true, isLoggedIn: true, updatedAt: addDays(world.now, -2) },
    { userId: mechanic.id, deviceId: rng.digits(13), token: token(), deviceName: 'Windows / Edge', isEnabled: false, isLoggedIn: false, updatedAt: addDays(world.now, -40) },
  ];
}

// ───────────────────────────── dashboards, feedback, admin rows ─────────────────────────────

function buildFeedback(world: World, byEmail: (email: string) => SeedUser): Insert<typeof schema.feedback>[] {
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

function buildAccessPointPriorities(world: World): Insert<typeof schema.accessPointPriorities>[] {
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

function buildAdminRows(world: World, byEmail: (email: string) => SeedUser, supportEmail: string) {
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

function buildAllowedPlants(): Insert<typeof schema.allowedPlants>[] {
  const lists: Record<Insert<typeof schema.allowedPlants>['parameter'], string[]> = {
    notifications_allowed_plants: ['FI01', 'DE02'],
    stock_count_allowed_plants: [...STOCK_COUNT_PLANTS],
    count_deadline_allowed_plants: ['FI01'],
    show_zero_stock_material_plants: ['DE02'],
  };
  return Object.entries(lists).flatMap(([parameter, plants]) => plants.map((plant) => ({ parameter, plant })));
}

// ───────────────────────────── writing ─────────────────────────────

/**
 * Rows go in as ONE JSON text parameter per batch, unpacked by json_populate_recordset: PGlite
 * spends most of its time binding parameters, and an insert of 1,000 order items would otherwise
 * bind 42,000 of them. This is ~3× faster on PGlite and works the same on PostgreSQL.
 */
const ROWS_PER_INSERT = 500;

/** One row as JSON keyed by SQL column name; Dates as ISO text, which Postgres parses back. */
function toJsonRow(row: Record<string, unknown>, columns: ReadonlyArray<readonly [string, PgColumn]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = row[key];
    if (value === undefined && column.notNull && column.hasDefault) {
      // json_populate_recordset would write NULL, not the default: the builder must set it.
      throw new Error(`seed: ${key} of a ${column.name} row must be set explicitly`);
    }
    out[column.name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return out;
}

/** A value in COPY's text format (null → \N; arrays as text[] literals; JSON as text; dates as ISO). */
function copyValue(value: unknown, column: PgColumn): string {
  if (value === null || value === undefined) return '\\N';
  let text: string;
  if (value instanceof Date) text = value.toISOString();
  else if (column.columnType === 'PgArray' && Array.isArray(value)) text = `{${value.map((v) => `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  else if (typeof value === 'object' || column.columnType === 'PgJsonb' || column.columnType === 'PgJson') text = JSON.stringify(value);
  else if (typeof value === 'boolean') text = value ? 't' : 'f';
  else text = String(value as string | number);
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : text;
}

/** Tables this large go in by COPY on PostgreSQL (#16: the scale-500 seed in minutes). */
const COPY_FROM_ROWS = 5000;

async function insertAll<T extends PgTable>(tx: Tx, table: T, rows: readonly Insert<T>[], counts: Record<string, number>): Promise<void> {
  const records = rows as readonly Record<string, unknown>[];
  // Only columns some row sets; the others (serial ids) keep their database defaults.
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(([key]) => records.some((r) => r[key] !== undefined));
  const names = sql.join(columns.map(([, column]) => sql.identifier(column.name)), sql`, `);
  if (records.length >= COPY_FROM_ROWS && isPostgresTx(tx)) {
    toJsonRow(records[0]!, columns); // the builders' rows share one shape: the first one's check stands for all
    const lines = function* () {
      for (const row of records) yield `${columns.map(([key, column]) => copyValue(row[key], column)).join('\t')}\n`;
    };
    await copyLines(tx, getTableName(table), columns.map(([, column]) => column.name), lines());
    const name = getTableName(table);
    counts[name] = (counts[name] ?? 0) + rows.length;
    return;
  }
  for (let i = 0; i < records.length; i += ROWS_PER_INSERT) {
    const json = JSON.stringify(records.slice(i, i + ROWS_PER_INSERT).map((row) => toJsonRow(row, columns)));
    await tx.execute(sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${json}::json)`);
  }
  const name = getTableName(table);
  counts[name] = (counts[name] ?? 0) + rows.length;
}

/** Explicit ids were written; move the sequence past them so the app's next insert does not collide. */
async function syncSequence(tx: Tx, table: string, maxId: number): Promise<void> {
  if (maxId < 1) return;
  await tx.execute(sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${maxId})`);
}

function attachmentRows(users: readonly SeedUser[]): Insert<typeof schema.userAttachments>[] {
  return users.flatMap((u) => u.spec.attachments.map((a) => ({ userId: u.id, ...a })));
}

/** Fills an EMPTY database; returns counts per table. No-op (returns null) if users table already has rows. */
export async function seedDatabase(db: Db, options: SeedOptions = {}): Promise<Record<string, number> | null> {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`seed: scale must be a positive number, got ${scale}`);
  const now = options.now ?? new Date();
  const supportEmail = options.supportEmail ?? 'support@example.com';

  const tally = await db.transaction(async (tx) => {
    const existing = await tx.select({ id: schema.users.id }).from(schema.users).limit(1);
    if (existing.length > 0) return null;

    const world = buildWorld(now, scale);
    const byEmail = (email: string): SeedUser => {
      const user = world.users.find((u) => u.spec.email === email);
      if (!user) throw new Error(`seed: no user ${email}`);
      return user;
    };
    const orders = buildOrders(world);
    const counts = buildStockCounts(world);
    const admin = buildAdminRows(world, byEmail, supportEmail);
    const tally: Record<string, number> = {};
    const write = <T extends PgTable>(table: T, rows: readonly Insert<T>[]) => insertAll(tx, table, rows, tally);

    await write(schema.grants, GRANTS.map((id) => ({ id, kind: (ROLES as readonly string[]).includes(id) ? 'role' : 'permission', ...GRANT_DESCRIPTIONS[id] })));
    await write(schema.plants, PLANTS.map(({ code, name, country, city, timezone }) => ({ code, name, country, city, timezone })));
    await write(schema.plannerGroups, PLANTS.flatMap((p) => p.plannerGroups.map((pg) => ({ plant: p.code, ...pg }))));
    await write(schema.workCenters, world.workCenters.map(({ plant, code, name, plannerGroup }) => ({ plant, code, name, plannerGroup })));
    await write(schema.storageLocations, world.storageLocations);
    await write(schema.shipToParties, SHIP_TO_PARTIES.map((stp) => ({ ...stp })));
    await write(schema.accessPoints, ACCESS_POINTS.map((ap) => ({ ...ap })));
    await write(schema.accessPointPriorities, buildAccessPointPriorities(world));
    await write(schema.allowedPlants, buildAllowedPlants());

    await write(schema.users, world.users.map((u) => u.row));
    await write(schema.userGrants, world.users.flatMap((u) => u.spec.grants.map((grantId) => ({ userId: u.id, grantId, createdAt: u.row.createdAt }))));
    await write(schema.userAttachments, attachmentRows(world.users));
    await write(schema.approvalRequests, admin.approvalRequests);
    await write(schema.auditLog, admin.auditLog);

    await write(schema.materials, world.materials);
    await write(schema.stockItems, [...world.stock.values()].flat());
    await write(schema.stockTransferRequests, admin.transfers);
    await write(schema.stockCounts, counts.counts);
    await syncSequence(tx, 'stock_counts', counts.counts.length);
    await write(schema.materialCounts, counts.lines);

    await write(schema.orders, orders.orders);
    await write(schema.orderItems, orders.items);
    await syncSequence(tx, 'order_items', orders.items.length);
    await write(schema.parcelEvents, orders.events);

    await write(schema.notifications, buildNotifications(world, orders));
    await write(schema.notificationSettings, buildNotificationSettings(world));
    await write(schema.notificationDevices, buildDevices(world, byEmail(DEMO_MECHANIC.email)));
    await write(schema.importantMessages, admin.importantMessages);
    await write(schema.feedback, buildFeedback(world, byEmail));
    // #9: the file-processing rows come from really ingesting 30 days of generated ERP files.
    const stockRows = [...world.stock.values()].flat();
    await ingestSeedFiles(tx, { now, materials: world.materials, stock: stockRows, orders: orders.orders, items: orders.items, events: orders.events });
    tally.file_processing = (await tx.select({ n: sql<number>`count(*)::int` }).from(schema.fileProcessing))[0]?.n ?? 0;
    return tally;
  });
  // Fresh statistics, so the planner uses the indexes of the just-filled tables at once; and the
  // row versions the summary triggers rewrote while filling are reclaimed (all-visible pages let
  // index-only scans skip the table). PGlite has no autovacuum to do either later (db/maintenance.ts).
  if (tally) await db.execute(sql`vacuum (analyze)`);
  return tally;
}
