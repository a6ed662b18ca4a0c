/** Stock counts in every status, with their counted lines. */
import type { StockCountStatus } from '../../../src/domain/constants';
import { ACCOUNT_SPECS, DEMO_MECHANIC } from '../../auth/demo-accounts';
import { bookOfStockItem } from '../../repositories/stock-counts';
import type * as schema from '../schema';
import { STAFF } from './data';
import type { Insert, StockRow, World } from './model';
import { DocNumbers, Random } from './random';
import { extraStockCounts } from './scale';
import { stockQuantity } from './stock';
import { addDays, addHours, isoDate, minDate } from './time';

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

export const STOCK_COUNT_PLANTS = ['FI01', 'DE02'] as const;

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

export function buildStockCounts(world: World): CountRows {
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
