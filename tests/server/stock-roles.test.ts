/**
 * Issue #4: every seeded account against every stock-service call of §7, per §6. Each call is
 * allowed (and answers what that account may see), refused with 403 and the reason, or scoped;
 * envelopes carry their §3 fields; bad parameters are 400s naming the parameter.
 *
 * The expectations are written from the seed (README demo accounts, server/auth/demo-accounts.ts,
 * server/db/seed/) and §6,
 * not read from src/domain/permissions.ts, so a wrong row there fails here. A count outside
 * what the caller sees is a 404 "Stock count N not found" on every call that takes its id
 * (print sheet, lines, edit, cancel, submit, recount), as if it did not exist; a list filtered
 * by such an id is an empty page. Writes work on counts this file creates for itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '../../src/domain/constants';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const ACCOUNTS = ['mechanic', 'supervisor', 'stock.admin', 'cs.admin', 'manager', 'viewer', 'pm.reader', 'acceptance', 'pending', 'expired'] as const;
type Account = (typeof ACCOUNTS)[number];
const emailOf = (who: Account) => `${who}@example.com`;

// §6, account by account.
const READERS: readonly Account[] = ['mechanic', 'supervisor', 'stock.admin', 'cs.admin', 'manager', 'viewer'];
/** Create, edit, cancel, recount counts; delete lines. */
const PLANNERS = ['supervisor', 'stock.admin', 'manager'] as const;
type Planner = (typeof PLANNERS)[number];
/** Submit counts, add and count lines, request stock transfers. */
const COUNTERS = ['mechanic', 'supervisor', 'stock.admin', 'manager'] as const;
type Counter = (typeof COUNTERS)[number];
const SUPER_MANAGERS: readonly Account[] = ['manager', 'viewer'];

const ALL_PLANTS = ['DE02', 'FI01', 'FR03'];
const PLANTS_OF: Record<Account, string[]> = {
  mechanic: ['FI01'],
  supervisor: ['FI01'],
  'stock.admin': ['DE02', 'FI01'],
  'cs.admin': ['DE02'],
  manager: ALL_PLANTS,
  viewer: ALL_PLANTS,
  'pm.reader': [],
  acceptance: [],
  pending: [],
  expired: ['FI01'],
};
const STOCK_COUNT_PLANTS = ['DE02', 'FI01'];

/** Why an account is refused a call that needs `capability`. */
function refusal(who: Account, capability: string): string {
  if (who === 'pending') return MESSAGES.pendingApproval;
  if (who === 'expired') return MESSAGES.userExpired;
  return `Permission denied: your roles do not allow ${capability}`;
}

/** Where each account plans, counts and moves stock in this file's own counts. */
const HOME: Record<Counter, { plant: string; storageLocation: string; conductedBy: string; planner: Planner }> = {
  mechanic: { plant: 'FI01', storageLocation: 'V001', conductedBy: 'mechanic@example.com', planner: 'supervisor' },
  supervisor: { plant: 'FI01', storageLocation: 'V002', conductedBy: 'mikko.virtanen@lift.example', planner: 'supervisor' },
  'stock.admin': { plant: 'DE02', storageLocation: 'V003', conductedBy: 'felix.weber@lift.example', planner: 'stock.admin' },
  // FR03 uses no stock counts: only super managers plan there (§6 "super managers: all plants").
  manager: { plant: 'FR03', storageLocation: 'V001', conductedBy: 'julien.martin@parts.example', planner: 'manager' },
};

// ───────────── scopes of the stock lists (seed: locations per account) ─────────────

const locationsOf = (plant: string, codes = ['0001', '0002', 'V001', 'V002', 'V003', 'V004']) => codes.map((code) => `${plant}/${code}`);
const STOCK_TYPES = ['my_stock', 'my_team_stock', 'my_plant_stock'] as const;
type StockType = (typeof STOCK_TYPES)[number];
const warehouses = [...locationsOf('DE02', ['0001', '0002']), ...locationsOf('FI01', ['0001', '0002'])];
const everywhere = ALL_PLANTS.flatMap((plant) => locationsOf(plant));
/** my stock: own storage locations; team: the vans and people of the work centers of my planner group(s); plant: my plants (super managers: all). */
const STOCK_SCOPE: Record<string, Record<StockType, string[]>> = {
  mechanic: { my_stock: ['FI01/V001'], my_team_stock: ['FI01/V001', 'FI01/V002'], my_plant_stock: locationsOf('FI01') },
  supervisor: { my_stock: [], my_team_stock: ['FI01/V001', 'FI01/V002'], my_plant_stock: locationsOf('FI01') },
  // No work center or planner group: the team is the admin's own locations.
  'stock.admin': { my_stock: warehouses, my_team_stock: warehouses, my_plant_stock: [...locationsOf('DE02'), ...locationsOf('FI01')] },
  'cs.admin': { my_stock: [], my_team_stock: [], my_plant_stock: locationsOf('DE02') },
  // Super managers hold no storage location, work center or planner group: "all" is their plant stock.
  manager: { my_stock: [], my_team_stock: [], my_plant_stock: everywhere },
  viewer: { my_stock: [], my_team_stock: [], my_plant_stock: everywhere },
};

/** §3 stock item fields, with §3's names (#19 item 7: quantity_inspection_count; only the ERP STOCK file keeps quality_inspection_count). */
const STOCK_ITEM_FIELDS = [
  'bin',
  'blocked_count',
  'material_code',
  'material_description_english',
  'planner_groups',
  'plant',
  'quantity_inspection_count',
  'reorder_point',
  'reorder_quantity',
  'restricted_count',
  'storage_location',
  'transfer_count',
  'unrestricted_count',
  'work_centers',
  'total_quantity',
];
const PAGE_FIELDS = ['page', 'pages', 'has_next', 'has_prev'];

/** Rows of a raw query on either engine (node-postgres and PGlite both answer `{ rows }`). */
const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

interface CountFacts {
  id: number;
  plant: string;
  /** The planner group of the count's work center (the van's route). */
  planner_group: string | null;
  conducted_by: string | null;
  is_draft: boolean;
}

/** The seed's supervisor holds planner group F10 of FI01 (vans V001, V002). */
const SUPERVISOR_GROUP = { plant: 'FI01', code: 'F10' };

/**
 * §6 stock-count visibility, written out: super managers all; others their plants among the
 * allowed ones; a supervisor the counts of its planner group (#20); a mechanic only what is sent to them.
 */
function sees(who: Account, count: CountFacts): boolean {
  if (SUPER_MANAGERS.includes(who)) return true;
  if (!STOCK_COUNT_PLANTS.includes(count.plant) || !PLANTS_OF[who].includes(count.plant)) return false;
  const assigned = count.conducted_by === emailOf(who) && !count.is_draft;
  if (who === 'mechanic') return assigned;
  if (who === 'supervisor') return assigned || (count.plant === SUPERVISOR_GROUP.plant && count.planner_group === SUPERVISOR_GROUP.code);
  return true;
}

interface Fixtures {
  /** Open, sent counts with three uncounted lines (per counter). */
  open: Record<Counter, { id: number; lines: number[] }>;
  /** Counts whose only line is counted: ready to submit (per counter). */
  ready: Record<Counter, number>;
  /** Open counts to edit and to cancel (per planner). */
  editable: Record<Planner, number>;
  cancellable: Record<Planner, number>;
  /** Completed counts with a difference to recount (per planner). */
  completed: Record<Planner, number>;
  /** A material in stock at each home location that no fixture count lists yet. */
  spare: Record<Counter, string>;
  /** Materials in stock at each home location. */
  materials: Record<Counter, string[]>;
}

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: Record<string, unknown>;
}

interface Call {
  name: string;
  /** The capability the call needs; `gate` is the one checked first when it differs (PUT: read, then edit / cancel). */
  capability: string;
  gate?: string;
  allowed: readonly Account[];
  request(who: Account, fx: Fixtures): Request;
  /** What an allowed account gets. */
  check(res: LightMyRequestResponse, who: Account, fx: Fixtures): void;
  /**
   * Accounts the call admits for rows of their own only (a counter deletes a line they added),
   * asked here about a row they do not see: "not found", which does not tell that it exists.
   */
  notFoundFor?: readonly Account[];
}

const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};
const planner = (who: Account): Planner => ((PLANNERS as readonly string[]).includes(who) ? (who as Planner) : 'supervisor');
const counter = (who: Account): Counter => ((COUNTERS as readonly string[]).includes(who) ? (who as Counter) : 'mechanic');
/** A range holding the seed's counts and this file's, whatever the day the tests run. */
const OCCUPANCY = '/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2099-12-31';

/** The access matrix: one row per call, run for every account. */
const CALLS: Call[] = [
  ...STOCK_TYPES.map(
    (type): Call => ({
      name: `GET /${type}`,
      capability: 'stock.read',
      allowed: READERS,
      request: () => ({ method: 'GET', url: `/${type}?query=&page=1&maxResults=20` }),
      check: (res, who) => {
        const body = ok(res);
        expect(body.storage_location_count).toBe(STOCK_SCOPE[who]![type].length);
      },
    }),
  ),
  {
    name: 'GET /relationship/plant',
    capability: 'stock.read',
    allowed: READERS,
    request: () => ({ method: 'GET', url: '/relationship/plant' }),
    check: (res, who) => expect(ok(res).plants.map((p: { code: string }) => p.code)).toEqual(PLANTS_OF[who]),
  },
  ...(['storage_location', 'all_stock_visibility', 'work_center'] as const).map(
    (kind): Call => ({
      name: `GET /relationship/${kind}?plant=`,
      capability: 'stock.read',
      allowed: READERS,
      request: (who) => ({ method: 'GET', url: `/relationship/${kind}?plant=${PLANTS_OF[who][0] ?? 'FI01'}` }),
      check: (res, who) => {
        const body = ok(res);
        const rows = kind === 'work_center' ? body.work_centers : body.storage_locations;
        expect(rows.length).toBeGreaterThan(0);
        expect(new Set(rows.map((r: { plant: string }) => r.plant))).toEqual(new Set([PLANTS_OF[who][0]]));
      },
    }),
  ),
  {
    name: 'GET /relationship/mechanic_storage_location',
    capability: 'stock.read',
    allowed: READERS,
    request: () => ({ method: 'GET', url: '/relationship/mechanic_storage_location' }),
    check: (res, who) => {
      const vans = ok(res).storage_locations;
      expect(vans.map((l: { plant: string; code: string }) => `${l.plant}/${l.code}`)).toEqual(PLANTS_OF[who].flatMap((plant) => locationsOf(plant, ['V001', 'V002', 'V003', 'V004'])));
      expect(vans.every((l: { work_center: string | null }) => l.work_center !== null)).toBe(true);
    },
  },
  {
    name: 'GET /relationship/mechanic',
    capability: 'stock.read',
    allowed: READERS,
    request: () => ({ method: 'GET', url: '/relationship/mechanic' }),
    check: (res, who) => {
      const mechanics = ok(res).mechanics as Array<{ email: string; work_centers: string[] }>;
      expect(mechanics.length).toBeGreaterThan(0);
      for (const m of mechanics) expect(m.work_centers.every((wc) => PLANTS_OF[who].includes(wc.slice(0, 4)))).toBe(true);
    },
  },
  {
    name: 'GET /my_material',
    capability: 'stock.read',
    allowed: READERS,
    request: () => ({ method: 'GET', url: '/my_material?maxResults=20&page=1&materialCode=KM' }),
    check: (res) => {
      const body = ok(res);
      expect(Object.keys(body)).toEqual(expect.arrayContaining([...PAGE_FIELDS, 'my_material_items']));
      expect(body.my_material_items).toHaveLength(20);
      expect(body.my_material_items.every((m: { material_code: string }) => m.material_code.startsWith('KM'))).toBe(true);
    },
  },
  {
    name: 'GET /my_stock_count?page=1&maxResults=20',
    capability: 'stockCount.read',
    allowed: READERS,
    request: () => ({ method: 'GET', url: '/my_stock_count?page=1&maxResults=20' }),
    check: (res) => {
      const body = ok(res);
      expect(Object.keys(body)).toEqual(expect.arrayContaining([...PAGE_FIELDS, 'total', 'stock_counts']));
      expect(body.total).toBeGreaterThan(0);
    },
  },
  {
    name: 'GET /relationship/print_materials',
    capability: 'stockCount.read',
    allowed: READERS,
    // Count 2 is the demo mechanic's (FI01); cs.admin only sees DE02, where count 10 is.
    request: (who) => ({ method: 'GET', url: `/relationship/print_materials?stockCountId=${who === 'cs.admin' ? 10 : 2}` }),
    check: (res, who) => {
      const body = ok(res);
      expect(body.stock_count.id).toBe(who === 'cs.admin' ? 10 : 2);
      expect(body.lines.length).toBe(body.stock_count.total_lines);
    },
  },
  {
    name: 'GET /my_stock_count/occupancy_report',
    capability: 'frontliner.byPlant',
    gate: 'stockCount.read',
    // By plant: §6 gives the front-liner dashboard by plant to super managers, stock admins and customer-service admins.
    allowed: ['stock.admin', 'cs.admin', 'manager', 'viewer'],
    request: (who) => ({ method: 'GET', url: `${OCCUPANCY}&plant=${PLANTS_OF[who][0] ?? 'FI01'}` }),
    check: (res) => {
      const body = ok(res);
      expect(body.total.conducted_by).toBe('Total');
      expect(body.total.total_tasks).toBe(body.rows.reduce((sum: number, r: { total_tasks: number }) => sum + r.total_tasks, 0));
    },
  },
  {
    name: 'POST /my_stock_count?page=1&maxResults=20',
    capability: 'stockCount.create',
    allowed: PLANNERS,
    request: (who, fx) => {
      const home = HOME[planner(who)];
      return {
        method: 'POST',
        url: '/my_stock_count',
        payload: { plant: home.plant, storageLocation: home.storageLocation, type: 'single', materialCodes: fx.materials[planner(who)].slice(0, 2), conductedBy: home.conductedBy, draft: true },
      };
    },
    check: (res, who) => {
      const body = ok(res, 201);
      expect(body).toMatchObject({ created_by: emailOf(who), plant: HOME[who as Planner].plant, status: 'initiated', is_draft: true, type: 'single', total_lines: 2 });
    },
  },
  {
    name: 'PUT /my_stock_count (edit)',
    capability: 'stockCount.edit',
    gate: 'stockCount.read',
    allowed: PLANNERS,
    request: (who, fx) => ({ method: 'PUT', url: '/my_stock_count', payload: { stockCountId: fx.editable[planner(who)], conductedBy: HOME[planner(who)].conductedBy.toUpperCase() } }),
    check: (res, who, fx) => expect(ok(res)).toMatchObject({ id: fx.editable[who as Planner], conducted_by: HOME[who as Planner].conductedBy }),
  },
  {
    name: 'PUT /my_stock_count (cancel)',
    capability: 'stockCount.cancel',
    gate: 'stockCount.read',
    allowed: PLANNERS,
    request: (who, fx) => ({ method: 'PUT', url: '/my_stock_count', payload: { stockCountId: fx.cancellable[planner(who)], status: 'cancelled' } }),
    check: (res, who, fx) => expect(ok(res)).toMatchObject({ id: fx.cancellable[who as Planner], status: 'cancelled' }),
  },
  {
    name: 'POST /my_stock_count/recount',
    capability: 'stockCount.recount',
    allowed: PLANNERS,
    request: (who, fx) => ({ method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: fx.completed[planner(who)] } }),
    check: (res, who) => expect(ok(res, 201)).toMatchObject({ status: 'recount', plant: HOME[who as Planner].plant, created_by: emailOf(who), total_lines: 1 }),
  },
  {
    name: 'POST /my_material_count (add a line)',
    capability: 'materialCount.add',
    allowed: COUNTERS,
    request: (who, fx) => ({ method: 'POST', url: '/my_material_count', payload: { stockCountId: fx.open[counter(who)].id, materialCode: fx.spare[counter(who)] } }),
    check: (res, who, fx) => expect(ok(res, 201)).toMatchObject({ stock_count_id: fx.open[who as Counter].id, material_code: fx.spare[who as Counter], quantity: null }),
  },
  {
    name: 'PUT /my_material_count (count lines)',
    capability: 'materialCount.editQuantity',
    allowed: COUNTERS,
    request: (who, fx) => ({ method: 'PUT', url: '/my_material_count', payload: { modifiedMaterials: [{ id: fx.open[counter(who)].lines[0], quantity: 3 }] } }),
    check: (res, who, fx) => {
      const body = ok(res);
      expect(body.material_counts[0]).toMatchObject({ id: fx.open[who as Counter].lines[0], quantity: 3, updated_by: emailOf(who) });
      expect(body.stock_counts).toEqual([{ id: fx.open[who as Counter].id, status: 'in_progress' }]);
    },
  },
  {
    name: 'DELETE /my_material_count?page=1&maxResults=20',
    capability: 'materialCount.delete',
    allowed: PLANNERS,
    request: (who, fx) => ({ method: 'DELETE', url: `/my_material_count?materialCountId=${fx.open[planner(who)].lines[2]}` }),
    check: (res, who, fx) => expect(ok(res).id).toBe(fx.open[who as Planner].lines[2]),
    notFoundFor: ['mechanic'],
  },
  {
    name: 'GET /my_stock_count/submit',
    capability: 'stockCount.submit',
    allowed: COUNTERS,
    request: (who, fx) => ({ method: 'GET', url: `/my_stock_count/submit?stockCountId=${fx.ready[counter(who)]}` }),
    check: (res, who, fx) => {
      const body = ok(res);
      expect(body).toMatchObject({ id: fx.ready[who as Counter], status: 'completed', latest_sap_error: null });
      expect(body.physical_inventory_document_number).toEqual(expect.any(String));
    },
  },
  {
    name: 'POST /stock_transfer_request',
    capability: 'stockTransfer.request',
    allowed: COUNTERS,
    request: (who, fx) => {
      const home = HOME[counter(who)];
      return {
        method: 'POST',
        url: '/stock_transfer_request',
        payload: { plant: home.plant, storageLocationFrom: home.storageLocation, storageLocationTo: '0001', materialCode: fx.materials[counter(who)][0], quantity: 2 },
      };
    },
    check: (res, who, fx) =>
      expect(ok(res, 201)).toMatchObject({ plant: HOME[who as Counter].plant, storage_location_to: '0001', material_code: fx.materials[who as Counter][0], quantity: 2, status: 'requested' }),
  },
  {
    name: 'GET /stock_transfer_request',
    capability: 'stock.read',
    allowed: READERS,
    request: () => ({ method: 'GET', url: '/stock_transfer_request' }),
    check: (res) => expect(Array.isArray(ok(res).items)).toBe(true),
  },
];

describe.each(ENGINES)('stock service by role on %s', (engine) => {
  let product: TestProduct;
  const tokens = {} as Record<Account, string>;
  const fx = { open: {}, ready: {}, editable: {}, cancellable: {}, completed: {}, spare: {}, materials: {} } as Fixtures;

  const send = (who: Account, { method, url, payload }: Request) =>
    product.app.inject({ method, url: `/api/v2${url}`, headers: bearer(tokens[who]), ...(payload ? { payload } : {}) });
  const get = (who: Account, url: string) => send(who, { method: 'GET', url });
  const query = async (text: ReturnType<typeof sql>) => rowsOf(await product.database.db.execute(text));
  const countFacts = async (): Promise<CountFacts[]> =>
    (
      await query(sql`select c.id, c.plant, w.planner_group, c.conducted_by, c.is_draft from stock_counts c
        left join work_centers w on w.plant = c.plant and w.code = c.work_center order by c.id`)
    ).map((r) => ({
      id: Number(r.id),
      plant: String(r.plant),
      planner_group: r.planner_group === null ? null : String(r.planner_group),
      conducted_by: r.conducted_by === null ? null : String(r.conducted_by),
      is_draft: Boolean(r.is_draft),
    }));

  /** A sent single count of `codes` at the home of `owner`, planned by its planner; returns its id and line ids. */
  async function createCount(owner: Counter, codes: string[]) {
    const home = HOME[owner];
    const created = ok(
      await send(home.planner, {
        method: 'POST',
        url: '/my_stock_count',
        payload: { plant: home.plant, storageLocation: home.storageLocation, type: 'single', materialCodes: codes, conductedBy: home.conductedBy },
      }),
      201,
    );
    const lines = ok(await get(home.planner, `/my_material_count?stockCountId=${created.id}&orderByColumn=material_code&maxResults=500&page=1`));
    return { id: created.id as number, lines: lines.material_counts.map((l: { id: number }) => l.id) as number[] };
  }
  const countLines = async (who: Account, lines: Array<{ id: number; quantity: number }>) =>
    ok(await send(who, { method: 'PUT', url: '/my_material_count', payload: { modifiedMaterials: lines } }));

  beforeAll(async () => {
    product = await createTestProduct(engine, { RATE_LIMIT_PER_MINUTE: '100000' });
    for (const who of ACCOUNTS) tokens[who] = await product.token(emailOf(who));
    for (const who of COUNTERS) {
      const { plant, storageLocation } = HOME[who];
      // Materials whose five stock counts are all known, so the book quantity is a number.
      const rows = await query(sql`select material_code from stock_items where plant = ${plant} and storage_location = ${storageLocation}
        and unrestricted_count is not null and quality_inspection_count is not null and blocked_count is not null
        and restricted_count is not null and transfer_count is not null order by material_code limit 8`);
      fx.materials[who] = rows.map((r) => String(r.material_code));
      fx.spare[who] = fx.materials[who][7]!;
      fx.open[who] = await createCount(who, fx.materials[who].slice(0, 3));
      const ready = await createCount(who, [fx.materials[who][3]!]);
      await countLines(who, [{ id: ready.lines[0]!, quantity: 1 }]);
      fx.ready[who] = ready.id;
    }
    for (const who of PLANNERS) {
      fx.editable[who] = (await createCount(who, [fx.materials[who][4]!])).id;
      fx.cancellable[who] = (await createCount(who, [fx.materials[who][5]!])).id;
      const done = await createCount(who, [fx.materials[who][6]!]);
      const [book] = await query(sql`select book_quantity from material_counts where id = ${done.lines[0]!}`);
      // Counted one more than the book: a difference to recount.
      await countLines(who, [{ id: done.lines[0]!, quantity: Number(book!.book_quantity) + 1 }]);
      expect(ok(await get(who, `/my_stock_count/submit?stockCountId=${done.id}`)).status).toBe('completed');
      fx.completed[who] = done.id;
    }
  });
  afterAll(async () => product?.close());

  describe.each(CALLS)('who may call $name', (call) => {
    it.each(ACCOUNTS)('%s', async (who) => {
      const res = await send(who, call.request(who, fx));
      if (call.allowed.includes(who)) {
        call.check(res, who, fx);
      } else if (call.notFoundFor?.includes(who)) {
        expect(res.statusCode, res.body).toBe(404);
      } else {
        expect(res.statusCode, res.body).toBe(403);
        const capability = call.gate && !READERS.includes(who) ? call.gate : call.capability;
        // A refusal the auth plugin gives is coded (permissionDenied, decision 0055); a pending or
        // expired account's is not, nor yet those some routes give themselves (stock-count-management,
        // material-count): where a code comes, it is this one with the capability.
        const body = res.json();
        const coded = body.code === undefined || who === 'pending' || who === 'expired' ? {} : { code: 'permissionDenied', params: { capability } };
        expect(body).toEqual({ message: refusal(who, capability), ...coded });
      }
    });
  });

  describe.each(READERS.map((who) => [who]))('what %s sees', (who) => {
    it.each(STOCK_TYPES.map((type) => [type]))('%s: the scope’s locations and rows, every §3 field, a consistent envelope', async (type) => {
      const expected = STOCK_SCOPE[who]![type];
      const pairs = expected.map((l) => l.split('/'));
      const [{ n }] = (await query(
        pairs.length
          ? sql`select count(*)::int as n from stock_items where (plant, storage_location) in (${sql.join(pairs.map(([p, c]) => sql`(${p}, ${c})`), sql`, `)})`
          : sql`select 0 as n`,
      )) as [{ n: number }];
      const first = ok(await get(who, `/${type}?maxResults=50&page=1&query=`));
      expect(first).toMatchObject({ page: 1, has_prev: false, total: Number(n), storage_location_count: expected.length });
      const pages = Math.max(1, Math.ceil(Number(n) / 50));
      expect(first).toMatchObject({ pages, has_next: pages > 1 });
      if (expected.length === 0) {
        expect(first.stock_items).toEqual([]);
        return;
      }
      for (const item of first.stock_items) {
        expect(Object.keys(item)).toEqual(expect.arrayContaining(STOCK_ITEM_FIELDS));
        expect(expected).toContain(`${item.plant}/${item.storage_location}`);
      }
      // Rows run in location order: the first page starts in the first location, the last page ends in the last.
      expect(`${first.stock_items[0].plant}/${first.stock_items[0].storage_location}`).toBe(expected[0]);
      const last = ok(await get(who, `/${type}?maxResults=50&page=${pages}&query=`));
      expect(last).toMatchObject({ page: pages, has_next: false, has_prev: pages > 1 });
      const tail = last.stock_items.at(-1);
      expect(`${tail.plant}/${tail.storage_location}`).toBe(expected.at(-1));
      // Searching stays in the same scope.
      const found = ok(await get(who, `/${type}?maxResults=500&query=door&page=1`));
      for (const item of found.stock_items) expect(expected).toContain(`${item.plant}/${item.storage_location}`);
      expect(found.storage_location_count).toBeLessThanOrEqual(expected.length);
    });

    it('relationships: only the plants, locations, work centers and mechanics of visible plants', async () => {
      expect(ok(await get(who, '/relationship/plant')).plants.map((p: { code: string }) => p.code)).toEqual(PLANTS_OF[who]);
      for (const plant of ALL_PLANTS) {
        for (const kind of ['plant', 'storage_location', 'all_stock_visibility', 'work_center', 'mechanic', 'mechanic_storage_location']) {
          const res = await get(who, `/relationship/${kind}?plant=${plant}`);
          if (!PLANTS_OF[who].includes(plant)) {
            expect(res.statusCode).toBe(403);
            expect(res.json().message).toBe(`You do not see plant ${plant}`);
            continue;
          }
          const body = ok(res);
          const rows = [...body.plants.map((p: { code: string }) => ({ plant: p.code })), ...body.storage_locations, ...body.work_centers];
          expect(rows.every((r: { plant: string }) => r.plant === plant)).toBe(true);
          if (kind === 'storage_location' || kind === 'all_stock_visibility') expect(body.storage_locations.map((l: { code: string }) => l.code)).toEqual(['0001', '0002', 'V001', 'V002', 'V003', 'V004']);
          if (kind === 'work_center') expect(body.work_centers.map((w: { code: string }) => w.code)).toEqual(['M001', 'M002', 'M003', 'M004'].map((c) => plant + c));
          if (kind === 'mechanic') {
            const mechanics = await query(sql`select distinct u.email from users u
              join user_grants g on g.user_id = u.id and g.grant_id = 'mechanic'
              join user_attachments a on a.user_id = u.id and a.kind = 'plant' and a.code = ${plant}
              where u.approval_status = 'Approved' and (u.expiration_date is null or u.expiration_date >= (now() at time zone 'utc')::date)
              order by u.email`);
            // Someone whose access has expired (expired@example.com, a mechanic of FI01) is not offered.
            if (plant === 'FI01') expect(body.mechanics.map((m: { email: string }) => m.email)).not.toContain('expired@example.com');
            expect(body.mechanics.map((m: { email: string }) => m.email)).toEqual(mechanics.map((m) => m.email));
          }
        }
      }
      // A work-center filter never reaches into a plant the caller does not see.
      for (const workCenter of ['FI01M002', 'DE02M001', 'FR03M001']) {
        const visible = PLANTS_OF[who].includes(workCenter.slice(0, 4));
        const mechanics = ok(await get(who, `/relationship/mechanic?workCenter=${workCenter}`)).mechanics;
        expect(mechanics.length > 0).toBe(visible);
        for (const m of mechanics) expect(m.work_centers).toContain(workCenter);
        const vans = ok(await get(who, `/relationship/mechanic_storage_location?workCenter=${workCenter}`)).storage_locations;
        expect(vans.map((v: { plant: string; code: string }) => `${v.plant}/${v.code}`)).toEqual(visible ? [`${workCenter.slice(0, 4)}/V${workCenter.slice(-3)}`] : []);
      }
    });

    it('stock counts: the list holds exactly the counts §6 lets them see, and the type filter and sort apply', async () => {
      const facts = await countFacts();
      const visible = facts.filter((c) => sees(who, c)).map((c) => c.id);
      const listed = ok(await get(who, '/my_stock_count?maxResults=500&orderByColumn=id&sortDirection=desc&page=1'));
      expect(listed).toMatchObject({ page: 1, pages: 1, has_next: false, has_prev: false, total: visible.length });
      expect(listed.stock_counts.map((c: { id: number }) => c.id)).toEqual([...visible].sort((a, b) => b - a));
      const walls = ok(await get(who, '/my_stock_count?maxResults=500&type=wall_to_wall&page=1'));
      expect(walls.stock_counts.length).toBeGreaterThan(0);
      expect(walls.stock_counts.every((c: { type: string }) => c.type === 'wall_to_wall')).toBe(true);
      const paged = ok(await get(who, '/my_stock_count?maxResults=2&page=2&orderByColumn=id'));
      expect(paged).toMatchObject({ page: 2, has_prev: true, pages: Math.ceil(visible.length / 2) });
      expect(paged.stock_counts.map((c: { id: number }) => c.id)).toEqual([...visible].sort((a, b) => a - b).slice(2, 4));
    });

    it('a count outside their scope is "not found" on every call that names it; a list filtered by it is empty', async () => {
      const facts = await countFacts();
      // The mechanic's own, its draft, another FI01 mechanic's, DE02's, a DE02 draft, and an FR03 count.
      for (const id of [2, 8, 32, 10, 11, fx.open.manager.id]) {
        const count = facts.find((c) => c.id === id)!;
        const print = await get(who, `/relationship/print_materials?stockCountId=${id}`);
        const lines = await get(who, `/my_material_count?stockCountId=${id}&page=1&maxResults=20`);
        const listed = ok(await get(who, `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`));
        if (sees(who, count)) {
          expect(ok(print).stock_count.id).toBe(id);
          expect(ok(lines).material_counts.every((l: { stock_count_id: number }) => l.stock_count_id === id)).toBe(true);
          expect(listed.stock_counts.map((c: { id: number }) => c.id)).toEqual([id]);
        } else {
          for (const res of [print, lines]) {
            expect(res.statusCode).toBe(404);
            expect(res.json().message).toBe(`Stock count ${id} not found`);
          }
          expect(listed).toMatchObject({ total: 0, stock_counts: [] });
        }
      }
    });

    it('stock transfer requests: their own, their plants\' where they read storage locations (super managers: everyone’s), newest first', async () => {
      // Decision 0061: readers of storage locations (cs admin, stock admin) see their plants' requests.
      const plants = ['cs.admin', 'stock.admin'].includes(who) ? [...PLANTS_OF[who]] : [];
      const expected = await query(sql`select t.id from stock_transfer_requests t join users u on u.id = t.user_id
        where ${SUPER_MANAGERS.includes(who)} or u.email = ${emailOf(who)} or t.plant = any(string_to_array(${plants.join(',')}, ','))`);
      expect(expected.length).toBeLessThan(100);
      const items = ok(await get(who, '/stock_transfer_request')).items as Array<{ id: string; created: string }>;
      expect(items.map((t) => t.id).sort()).toEqual(expected.map((t) => String(t.id)).sort());
      expect(items.map((t) => t.created)).toEqual(items.map((t) => t.created).sort().reverse());
    });
  });

  describe('front-liner statistics by role', () => {
    const CASES: Array<[Account, string, number, string?]> = [
      ['mechanic', '&plant=FI01', 403, refusal('mechanic', 'frontliner.byPlant')],
      ['mechanic', '&planner_group=F10', 403, refusal('mechanic', 'frontliner.byPlannerGroup')],
      ['supervisor', '&planner_group=F10', 200],
      ['supervisor', '&planner_group=F10&conducted_by=mechanic@example.com', 200],
      ['supervisor', '&planner_group=F20', 403, 'You do not see planner group F20'],
      ['supervisor', '&plant=FI01', 403, refusal('supervisor', 'frontliner.byPlant')],
      ['stock.admin', '&plant=DE02', 200],
      ['stock.admin', '&plant=FI01&conducted_by=mechanic@example.com', 200],
      ['stock.admin', '&plant=FR03', 403, 'You do not see plant FR03'],
      ['stock.admin', '&planner_group=F10', 403, refusal('stock.admin', 'frontliner.byPlannerGroup')],
      ['cs.admin', '&plant=DE02', 200],
      ['cs.admin', '&plant=FI01', 403, 'You do not see plant FI01'],
      ['cs.admin', '&plant=DE02&conducted_by=lukas.mueller@lift.example', 403, refusal('cs.admin', 'frontliner.byEmail')],
      ['manager', '&plant=FI01', 200],
      ['manager', '&plant=FR03&conducted_by=julien.martin@parts.example', 200],
      ['manager', '&planner_group=F10', 403, refusal('manager', 'frontliner.byPlannerGroup')],
      ['viewer', '&plant=DE02', 200],
      ['viewer', '&plant=FI01&conducted_by=MECHANIC@example.com', 200],
      ['pm.reader', '&plant=FI01', 403, refusal('pm.reader', 'stockCount.read')],
      ['acceptance', '&plant=FI01', 403, refusal('acceptance', 'stockCount.read')],
      ['pending', '&plant=FI01', 403, MESSAGES.pendingApproval],
      ['expired', '&plant=FI01', 403, MESSAGES.userExpired],
    ];
    it.each(CASES)('%s %s → %i', async (who, filter, status, message) => {
      const res = await get(who, `${OCCUPANCY}${filter}`);
      expect(res.statusCode, res.body).toBe(status);
      if (message) {
        // The message, and for some refusals a code the app words (decision 0055).
        expect(res.json().message).toBe(message);
        return;
      }
      // The rows are the sent, not cancelled counts with someone counting, in the filter, per person.
      const params = new URLSearchParams(filter.slice(1));
      const plant = params.get('plant');
      const group = params.get('planner_group');
      const person = params.get('conducted_by')?.toLowerCase() ?? null;
      const expected = await query(sql`select conducted_by, count(*)::int as total, (count(*) filter (where status = 'completed'))::int as completed
        from stock_counts where created >= '2026-01-01T00:00:00Z' and created < '2100-01-01T00:00:00Z' and status <> 'cancelled' and not is_draft
          and conducted_by is not null
          and (${plant}::text is null or plant = ${plant})
          and (${group}::text is null or coalesce(planner_group, (select w.planner_group from work_centers w where w.plant = stock_counts.plant and w.code = stock_counts.work_center)) = ${group})
          and (${person}::text is null or conducted_by = ${person})
        group by conducted_by order by conducted_by`);
      const body = res.json();
      expect(body.rows.map((r: { conducted_by: string; total_tasks: number; completed_count: number }) => [r.conducted_by, r.total_tasks, r.completed_count])).toEqual(
        expected.map((r) => [r.conducted_by, Number(r.total), Number(r.completed)]),
      );
      expect(body.rows.length).toBeGreaterThan(0);
    });
  });

  describe('counting: the mechanic counts and submits its own counts only; planners stay in their plants', () => {
    it('follows a count from draft to completed, each step by the role §6 gives it', async () => {
      const home = HOME.mechanic;
      const draft = ok(
        await send('supervisor', {
          method: 'POST',
          url: '/my_stock_count',
          payload: { plant: home.plant, storageLocation: home.storageLocation, type: 'wall_to_wall', conductedBy: home.conductedBy, shouldBeDoneAt: '2099-12-15', draft: true },
        }),
        201,
      );
      expect(draft).toMatchObject({ is_draft: true, should_be_done_at: '2099-12-15', conducted_by: home.conductedBy });
      // A draft stays with the planner.
      expect((await get('mechanic', `/my_stock_count/submit?stockCountId=${draft.id}`)).statusCode).toBe(404);
      expect(ok(await send('supervisor', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: draft.id, draft: false } })).is_draft).toBe(false);
      // Sent: the mechanic may not edit or cancel it, but counts and submits it.
      for (const payload of [{ stockCountId: draft.id, workCenter: 'FI01M002' }, { stockCountId: draft.id, status: 'cancelled' }]) {
        const res = await send('mechanic', { method: 'PUT', url: '/my_stock_count', payload });
        expect(res.statusCode).toBe(403);
      }
      const lines = ok(await get('mechanic', `/my_material_count?stockCountId=${draft.id}&maxResults=500&page=1`)).material_counts as Array<{ id: number; book_quantity: number | null }>;
      expect(lines.length).toBe(draft.total_lines);
      const early = await get('mechanic', `/my_stock_count/submit?stockCountId=${draft.id}`);
      expect(early.statusCode).toBe(409);
      expect(early.json().message).toBe(`${lines.length} materials are not counted yet: count every line before submitting`);
      // Lines without a book quantity (a stock count unknown) are counted 1: found where the book says none.
      const counted = countLines('mechanic', lines.map((l) => ({ id: l.id, quantity: l.book_quantity ?? 1 })));
      expect((await counted).stock_counts).toEqual([{ id: draft.id, status: 'in_progress' }]);
      const submitted = ok(await get('mechanic', `/my_stock_count/submit?stockCountId=${draft.id}`));
      expect(submitted).toMatchObject({ id: draft.id, status: 'completed', counted_lines: lines.length });
      // Booked: submitting it again books nothing and answers the count as booked (decision 0053:
      // a phone whose answer was lost must not see its submission fail).
      const again = await get('mechanic', `/my_stock_count/submit?stockCountId=${draft.id}`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ id: draft.id, status: 'completed', physical_inventory_document_number: submitted.physical_inventory_document_number });
      // Closed: nothing changes it any more.
      const edit = await send('mechanic', { method: 'PUT', url: '/my_material_count', payload: { modifiedMaterials: [{ id: lines[0]!.id, quantity: 1 }] } });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().message).toBe(`Stock count ${draft.id} is completed and can no longer be changed`);
      // Lines without a book quantity read as a book of 0 (src/domain/stock.ts): counted 1, they differ and are recounted.
      const unknownBook = lines.filter((l) => l.book_quantity === null).length;
      expect(unknownBook).toBeGreaterThan(0);
      const recount = ok(await send('supervisor', { method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: draft.id } }), 201);
      expect(recount).toMatchObject({ status: 'recount', conducted_by: home.conductedBy, total_lines: unknownBook });
      expect(ok(await get('mechanic', `/my_stock_count?stockCountId=${recount.id}&page=1&maxResults=20`)).stock_counts).toHaveLength(1);
      // #19 item 14: one open recount per count; the count names it, and a cancelled one frees the count.
      const second = await send('supervisor', { method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: draft.id } });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe(`Stock count ${draft.id} already has an open recount (stock count ${recount.id}): finish or cancel it first`);
      expect(ok(await get('supervisor', `/my_stock_count?stockCountId=${draft.id}&page=1&maxResults=20`)).stock_counts[0]).toMatchObject({ open_recount_id: recount.id });
      ok(await send('supervisor', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: recount.id, status: 'cancelled' } }));
      expect(ok(await get('supervisor', `/my_stock_count?stockCountId=${draft.id}&page=1&maxResults=20`)).stock_counts[0]).toMatchObject({ open_recount_id: null });
      const third = ok(await send('supervisor', { method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: draft.id } }), 201);
      expect(third.id).not.toBe(recount.id);
      // A count that matched the book has nothing to recount.
      const exact = await createCount('mechanic', [fx.materials.mechanic[0]!]);
      const [book] = await query(sql`select book_quantity from material_counts where id = ${exact.lines[0]!}`);
      await countLines('mechanic', [{ id: exact.lines[0]!, quantity: Number(book!.book_quantity) }]);
      expect(ok(await get('mechanic', `/my_stock_count/submit?stockCountId=${exact.id}`)).status).toBe('completed');
      const nothing = await send('stock.admin', { method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: exact.id } });
      expect(nothing.statusCode).toBe(409);
      expect(nothing.json().message).toBe(`Stock count ${exact.id} has no differences to recount`);
      const open = await send('supervisor', { method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: fx.open.supervisor.id } });
      expect(open.statusCode).toBe(409);
      expect(open.json().message).toMatch(new RegExp(`^Only a completed count can be recounted; stock count ${fx.open.supervisor.id} is `));
    });

    it('refuses writes on counts outside the caller’s scope as "not found"', async () => {
      const [otherLine] = await query(sql`select id from material_counts where stock_count_id = 32 order by id limit 1`);
      const [de02Line] = await query(sql`select id from material_counts where stock_count_id = 10 order by id limit 1`);
      const fr03 = fx.open.manager.id;
      const cases: Array<[Account, Request, number]> = [
        // Another FI01 mechanic's count and the mechanic's own draft.
        ['mechanic', { method: 'GET', url: '/my_stock_count/submit?stockCountId=32' }, 32],
        ['mechanic', { method: 'GET', url: '/my_stock_count/submit?stockCountId=8' }, 8],
        ['mechanic', { method: 'POST', url: '/my_material_count', payload: { stockCountId: 32, materialCode: fx.spare.mechanic } }, 32],
        // A DE02 count for the FI01 supervisor.
        ['supervisor', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: 10, workCenter: 'DE02M002' } }, 10],
        ['supervisor', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: 10, status: 'cancelled' } }, 10],
        ['supervisor', { method: 'GET', url: '/my_stock_count/submit?stockCountId=10' }, 10],
        ['supervisor', { method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: 14 } }, 14],
        // FR03 counts: stock counts are not used there, so only super managers see them.
        ['stock.admin', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: fr03, status: 'cancelled' } }, fr03],
        ['stock.admin', { method: 'GET', url: `/my_stock_count/submit?stockCountId=${fr03}` }, fr03],
      ];
      for (const [who, request, id] of cases) {
        const res = await send(who, request);
        expect(res.statusCode, `${who} ${request.url}`).toBe(404);
        expect(res.json().message).toBe(`Stock count ${id} not found`);
      }
      for (const [who, line] of [['mechanic', otherLine!.id], ['supervisor', de02Line!.id]] as const) {
        const edit = await send(who, { method: 'PUT', url: '/my_material_count', payload: { modifiedMaterials: [{ id: Number(line), quantity: 1 }] } });
        expect(edit.statusCode).toBe(404);
        expect(edit.json().message).toBe(`Material count ${line} not found`);
        expect(edit.json()).toMatchObject({ code: 'materialCountGone', params: { count: 1 } });
      }
      const removal = await send('supervisor', { method: 'DELETE', url: `/my_material_count?materialCountId=${de02Line!.id}` });
      expect(removal.statusCode).toBe(404);
      expect(removal.json().message).toBe(`Material count ${de02Line!.id} not found`);
      expect(removal.json()).toMatchObject({ code: 'materialCountGone' });
      const [kept] = await query(sql`select count(*)::int as n from material_counts where id = ${de02Line!.id}`);
      expect(Number(kept!.n)).toBe(1);
      // Nothing was changed by the refusals.
      const [de02] = await query(sql`select status, work_center from stock_counts where id = 10`);
      expect(de02).toEqual({ status: 'in_progress', work_center: 'DE02M001' });
    });

    it('holds a supervisor to its planner group: another group’s counts of its plant are "not found", and it plans only its own (#20)', async () => {
      // FI01 V003 is the van of work center FI01M003, planner group F20; the supervisor holds F10.
      const [route] = await query(sql`select planner_group from work_centers where plant = 'FI01' and code = 'FI01M003'`);
      expect(route!.planner_group).toBe('F20');
      const codes = (await query(sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V003' order by material_code limit 2`)).map((r) =>
        String(r.material_code),
      );
      const other = ok(
        await send('stock.admin', {
          method: 'POST',
          url: '/my_stock_count',
          payload: { plant: 'FI01', storageLocation: 'V003', type: 'single', materialCodes: codes, conductedBy: 'mechanic@example.com' },
        }),
        201,
      );
      const [seeded] = await query(sql`select c.id from stock_counts c join work_centers w on w.plant = c.plant and w.code = c.work_center
        where c.plant = 'FI01' and w.planner_group <> 'F10' and c.conducted_by is distinct from 'supervisor@example.com' order by c.id limit 1`);
      for (const id of [other.id as number, Number(seeded!.id)]) {
        const calls: Request[] = [
          { method: 'GET', url: `/relationship/print_materials?stockCountId=${id}` },
          { method: 'GET', url: `/my_material_count?stockCountId=${id}&page=1&maxResults=20` },
          { method: 'GET', url: `/my_stock_count/submit?stockCountId=${id}` },
          { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: id, status: 'cancelled' } },
          { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: id, workCenter: 'FI01M001' } },
          { method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: id } },
          { method: 'POST', url: '/my_material_count', payload: { stockCountId: id, materialCode: fx.spare.supervisor } },
        ];
        for (const request of calls) {
          const res = await send('supervisor', request);
          expect(res.statusCode, `${request.method} ${request.url}`).toBe(404);
          expect(res.json().message).toBe(`Stock count ${id} not found`);
        }
        expect(ok(await get('supervisor', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`))).toMatchObject({ total: 0, stock_counts: [] });
      }
      const [line] = await query(sql`select id from material_counts where stock_count_id = ${other.id} order by id limit 1`);
      for (const request of [
        { method: 'PUT', url: '/my_material_count', payload: { modifiedMaterials: [{ id: Number(line!.id), quantity: 1 }] } },
        { method: 'DELETE', url: `/my_material_count?materialCountId=${line!.id}` },
      ] satisfies Request[]) {
        const res = await send('supervisor', request);
        expect(res.statusCode, request.method).toBe(404);
        expect(res.json().message).toBe(`Material count ${line!.id} not found`);
      }
      // Nothing changed; the stock admin and the mechanic counting still see the count.
      const [after] = await query(sql`select status, work_center, planner_group, (select count(*)::int from material_counts where stock_count_id = ${other.id}) as lines from stock_counts where id = ${other.id}`);
      expect(after).toEqual({ status: 'initiated', work_center: 'FI01M003', planner_group: 'F20', lines: 2 });
      expect(ok(await get('stock.admin', `/my_stock_count?stockCountId=${other.id}&page=1&maxResults=20`)).total).toBe(1);
      expect(ok(await get('mechanic', `/my_stock_count?stockCountId=${other.id}&page=1&maxResults=20`)).total).toBe(1);

      // Planning: counts of its own planner group only, so it never plans what it cannot see.
      const base = { plant: 'FI01', type: 'single', materialCodes: [fx.materials.mechanic[0]], conductedBy: 'mechanic@example.com' };
      const yours = 'You plan stock counts only for your planner groups (F10)';
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ ...base, storageLocation: 'V003' }, `${yours}: work center FI01M003 belongs to planner group F20`],
        // Another group's van stays theirs whatever work center the count names (decision 0018).
        [{ ...base, storageLocation: 'V003', workCenter: 'FI01M001' }, `${yours}: work center FI01M003 belongs to planner group F20`],
        [{ ...base, storageLocation: 'V001', workCenter: 'FI01M004' }, `${yours}: work center FI01M004 belongs to planner group F20`],
        [{ ...base, storageLocation: '0001' }, `${yours}: choose a work center of one of them for storage location 0001`],
      ];
      for (const [payload, message] of refusals) {
        const res = await send('supervisor', { method: 'POST', url: '/my_stock_count', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(403);
        // The message, and for some refusals a code the app words (decision 0055).
        expect(res.json().message).toBe(message);
        expect(res.json().code).toBe(message.includes('choose a work center') ? 'plannerGroupChooseWorkCenter' : 'plannerGroupNotYours');
      }
      const chooses = await send('supervisor', { method: 'POST', url: '/my_stock_count', payload: { ...base, storageLocation: '0001' } });
      expect(chooses.json()).toMatchObject({ code: 'plannerGroupChooseWorkCenter', params: { groups: 'F10', storageLocation: '0001' } });
      const warehouse = ok(await send('supervisor', { method: 'POST', url: '/my_stock_count', payload: { ...base, storageLocation: '0001', workCenter: 'FI01M001' } }), 201);
      expect(warehouse).toMatchObject({ storage_location: '0001', work_center: 'FI01M001' });
      expect(ok(await get('supervisor', `/my_stock_count?stockCountId=${warehouse.id}&page=1&maxResults=20`)).total).toBe(1);
      const moved = await send('supervisor', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: warehouse.id, workCenter: 'FI01M003' } });
      expect(moved.statusCode).toBe(403);
      expect(moved.json()).toEqual({
        message: `${yours}: work center FI01M003 belongs to planner group F20`,
        code: 'plannerGroupNotYours',
        params: { groups: 'F10', workCenter: 'FI01M003', plannerGroup: 'F20' },
      });
      // A stock admin plans for the whole plant, and the count follows its work center's planner group.
      const admin = ok(await send('stock.admin', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: warehouse.id, workCenter: 'FI01M003' } }));
      expect(admin.work_center).toBe('FI01M003');
      expect((await get('supervisor', `/relationship/print_materials?stockCountId=${warehouse.id}`)).statusCode).toBe(404);
    });

    /** A count of `lines` materials at FI01 V003 (planner group F20), planned by the stock admin for `conductedBy`. */
    async function plannedInF20(lines: number, conductedBy: string) {
      const codes = (await query(sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V003' order by material_code limit ${lines}`)).map((r) =>
        String(r.material_code),
      );
      const count = ok(
        await send('stock.admin', {
          method: 'POST',
          url: '/my_stock_count',
          payload: { plant: 'FI01', storageLocation: 'V003', type: 'single', materialCodes: codes, conductedBy },
        }),
        201,
      );
      return { codes, count };
    }

    it('a supervisor who also reads stock management (custom_service_admin) reads the plant’s counts but still plans only its planner groups', async () => {
      // FI01 V003 belongs to planner group F20; the supervisor holds F10.
      const { codes, count: other } = await plannedInF20(1, 'mechanic@example.com');
      await query(sql`insert into user_grants (user_id, grant_id) select id, 'custom_service_admin' from users where email = 'supervisor@example.com'`);
      try {
        product.invalidateCaches();
        expect(ok(await get('supervisor', `/my_stock_count?stockCountId=${other.id}&page=1&maxResults=20`)).stock_counts).toEqual([
          expect.objectContaining({ id: other.id, planned_by_you: false }),
        ]);
        const cancel = await send('supervisor', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: other.id, status: 'cancelled' } });
        expect(cancel.statusCode).toBe(403);
        expect(cancel.json()).toEqual({ message: `You may read stock count ${other.id}, not change it` });
        const planned = await send('supervisor', {
          method: 'POST',
          url: '/my_stock_count',
          payload: { plant: 'FI01', storageLocation: 'V003', type: 'single', materialCodes: codes, conductedBy: 'mechanic@example.com' },
        });
        expect(planned.statusCode).toBe(403);
        // Split among counters, it is still read whole by a reader of the plant who counts none of it.
        const split = await send('stock.admin', { method: 'PUT', url: '/my_stock_count/parts', payload: { stockCountId: other.id, parts: [{ counter: 'mechanic@example.com', rest: true }] } });
        expect(split.statusCode, split.body).toBe(200);
        const whole = await get('supervisor', `/my_material_count?stockCountId=${other.id}&page=1&maxResults=20`);
        expect(whole.statusCode, whole.body).toBe(200);
        expect(whole.json().material_counts).toHaveLength(1);
      } finally {
        await query(sql`delete from user_grants where grant_id = 'custom_service_admin' and user_id = (select id from users where email = 'supervisor@example.com')`);
        product.invalidateCaches();
      }
      expect(ok(await send('stock.admin', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: other.id, status: 'cancelled' } })).status).toBe('cancelled');
    });

    it('a mechanic who also reads stock management (custom_service_admin) reads the plant’s counts but counts only its own', async () => {
      const { count: other, codes } = await plannedInF20(1, 'supervisor@example.com');
      await query(sql`insert into user_grants (user_id, grant_id) select id, 'custom_service_admin' from users where email = 'mechanic@example.com'`);
      try {
        product.invalidateCaches();
        const lines = ok(await get('mechanic', `/my_material_count?stockCountId=${other.id}&page=1&maxResults=20`)).material_counts as Array<{ id: number; version: number }>;
        expect(lines).toHaveLength(1);
        const edit = await send('mechanic', { method: 'PUT', url: '/my_material_count', payload: { modifiedMaterials: [{ id: lines[0]!.id, quantity: 3, version: lines[0]!.version }] } });
        expect(edit.statusCode).toBe(404);
        for (const request of [
          { method: 'GET', url: `/my_stock_count/submit?stockCountId=${other.id}` },
          { method: 'POST', url: '/my_material_count', payload: { stockCountId: other.id, materialCode: codes[0]! } },
        ] satisfies Request[]) {
          const res = await send('mechanic', request);
          expect(res.statusCode, request.url).toBe(403);
          expect(res.json(), request.url).toEqual({ message: `You may read stock count ${other.id}, not change it` });
        }
      } finally {
        await query(sql`delete from user_grants where grant_id = 'custom_service_admin' and user_id = (select id from users where email = 'mechanic@example.com')`);
        product.invalidateCaches();
      }
    });

    it('lets a supervisor count another planner group’s count it is asked to count, but not plan it: edit, cancel, recount and delete lines are 403 (0018, 0033)', async () => {
      // FI01 V003 belongs to planner group F20; the supervisor holds F10 and is the one who counts.
      const { count: theirs } = await plannedInF20(2, 'supervisor@example.com');
      const id = theirs.id as number;
      // The count says who plans it, so the app offers planner actions only there.
      expect(theirs.planned_by_you).toBe(true);
      expect(ok(await get('supervisor', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`)).stock_counts).toEqual([expect.objectContaining({ id, planned_by_you: false })]);
      expect(ok(await get('stock.admin', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`)).stock_counts).toEqual([expect.objectContaining({ id, planned_by_you: true })]);
      const lines = ok(await get('supervisor', `/my_material_count?stockCountId=${id}&page=1&maxResults=20`)).material_counts as Array<{ id: number; version: number }>;
      expect(lines).toHaveLength(2);
      // Counting is theirs.
      const edited = await send('supervisor', { method: 'PUT', url: '/my_material_count', payload: { modifiedMaterials: [{ id: lines[0]!.id, quantity: 3, version: lines[0]!.version }] } });
      expect(edited.statusCode, edited.body).toBe(200);
      const refusals: Array<[Request, string]> = [
        [{ method: 'PUT', url: '/my_stock_count', payload: { stockCountId: id, status: 'cancelled' } }, `Only a planner of stock count ${id} can cancel it`],
        [{ method: 'PUT', url: '/my_stock_count', payload: { stockCountId: id, conductedBy: 'mechanic@example.com' } }, `Only a planner of stock count ${id} can change it`],
        [{ method: 'POST', url: '/my_stock_count/recount', payload: { stockCountId: id } }, `Only a planner of stock count ${id} can recount it`],
        [{ method: 'DELETE', url: `/my_material_count?materialCountId=${lines[1]!.id}` }, `Only a planner of stock count ${id} can delete its lines`],
      ];
      for (const [request, message] of refusals) {
        const res = await send('supervisor', request);
        expect(res.statusCode, `${request.method} ${request.url}`).toBe(403);
        // The message, and for some refusals a code the app words (decision 0055).
        expect(res.json().message).toBe(message);
      }
      const [after] = await query(sql`select status, conducted_by, (select count(*)::int from material_counts where stock_count_id = ${id}) as lines from stock_counts where id = ${id}`);
      expect(after).toEqual({ status: 'in_progress', conducted_by: 'supervisor@example.com', lines: 2 });
      // Its planner still plans it.
      expect(ok(await send('stock.admin', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: id, status: 'cancelled' } })).status).toBe('cancelled');
    });

    it('plans counts only where the rules allow, saying why', async () => {
      const base = { storageLocation: 'V001', type: 'single', materialCodes: [fx.materials.mechanic[0]] };
      const cases: Array<[Account, Record<string, unknown>, number, string]> = [
        ['supervisor', { ...base, plant: 'DE02' }, 403, 'You do not plan stock counts in plant DE02'],
        // A plant that does not exist is refused as one that is not the caller's: the answer tells no plant codes.
        ['supervisor', { ...base, plant: 'XX99' }, 403, 'You do not plan stock counts in plant XX99'],
        ['stock.admin', { ...base, plant: 'FR03' }, 403, 'You do not plan stock counts in plant FR03'],
        ['manager', { ...base, plant: 'XX99' }, 400, 'Plant XX99 does not exist'],
        ['supervisor', { ...base, plant: 'FI01', storageLocation: 'ZZ01' }, 400, 'Storage location ZZ01 does not exist in plant FI01'],
        ['supervisor', { ...base, plant: 'FI01', materialCodes: [] }, 400, 'Field materialCodes is required for a single count'],
        ['supervisor', { ...base, plant: 'FI01', materialCodes: ['NOPE'] }, 400, 'Unknown material: NOPE'],
        // Deadlines only in count_deadline_allowed_plants (FI01), for super managers too.
        ['stock.admin', { ...base, plant: 'DE02', storageLocation: 'V003', shouldBeDoneAt: '2099-12-01' }, 400, 'A deadline cannot be set for counts in plant DE02'],
        ['manager', { ...base, plant: 'FR03', shouldBeDoneAt: '2099-12-01' }, 400, 'A deadline cannot be set for counts in plant FR03'],
        ['supervisor', { ...base, plant: 'FI01', conductedBy: 'lukas.mueller@lift.example' }, 400, 'lukas.mueller@lift.example does not work in plant FI01'],
        ['supervisor', { ...base, plant: 'FI01', workCenter: 'DE02M001' }, 400, 'Work center DE02M001 does not exist in plant FI01'],
        ['supervisor', { ...base, plant: 'FI01', shouldBeDoneAt: '2026-02-30' }, 400, 'body.shouldBeDoneAt: must be a calendar day (YYYY-MM-DD)'],
        ['supervisor', { ...base, plant: 'FI01', shouldBeDoneAt: '1.12.2026' }, 400, 'body.shouldBeDoneAt: must be a date as YYYY-MM-DD'],
        ['supervisor', { ...base, plant: 'FI01', type: 'local' }, 400, 'body.type: type must be single or wall_to_wall'],
        ['supervisor', { ...base, plant: 'FI01', conductedBy: 'someone' }, 400, 'body.conductedBy: conductedBy must be an e-mail address'],
        ['supervisor', { ...base, plant: ' ' }, 400, 'body.plant: Field plant is required'],
        // Sent at once, a count needs someone counting it (a draft waits for the planner to name them).
        ['supervisor', { ...base, plant: 'FI01' }, 400, 'Choose who counts (conductedBy) or split the count among counters (parts), or save it as a draft (draft: true)'],
      ];
      // The codes the app words those refusals with (decision 0055), with their parameters.
      const coded: Record<string, { code: string; params?: Record<string, unknown> }> = {
        'Storage location ZZ01 does not exist in plant FI01': { code: 'transferLocationUnknown', params: { code: 'ZZ01', plant: 'FI01' } },
        'Unknown material: NOPE': { code: 'transferUnknownMaterial', params: { code: 'NOPE' } },
        'Work center DE02M001 does not exist in plant FI01': { code: 'workCenterUnknown', params: { code: 'DE02M001', plant: 'FI01' } },
        'Choose who counts (conductedBy) or split the count among counters (parts), or save it as a draft (draft: true)': { code: 'createNeedsCounter' },
      };
      for (const [who, payload, status, message] of cases) {
        const res = await send(who, { method: 'POST', url: '/my_stock_count', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(status);
        // The message, and for some refusals a code the app words (decision 0055).
        expect(res.json().message).toBe(message);
        if (coded[message]) expect(res.json(), message).toMatchObject(coded[message]);
      }
      // Nobody whose access has expired is asked to count, nor offered as a counter.
      const expired = await send('supervisor', { method: 'POST', url: '/my_stock_count', payload: { ...base, plant: 'FI01', conductedBy: 'expired@example.com' } });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().message).toMatch(/^expired@example\.com cannot count: their access expired on \d{4}-\d{2}-\d{2}$/);
      const offered = ok(await get('supervisor', '/relationship/mechanic?plant=FI01')).mechanics.map((m: { email: string }) => m.email);
      expect(offered).toContain('mechanic@example.com');
      expect(offered).not.toContain('expired@example.com');
      // Counts exist only in stock_count_allowed_plants: take DE02 off the list for a moment.
      const db = product.database.db;
      await db.execute(sql`delete from allowed_plants where parameter = 'stock_count_allowed_plants' and plant = 'DE02'`);
      try {
        const res = await send('stock.admin', { method: 'POST', url: '/my_stock_count', payload: { ...base, plant: 'DE02', storageLocation: 'V003' } });
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe('Stock counts are not used in plant DE02');
        expect(ok(await get('stock.admin', '/my_stock_count?maxResults=500&page=1')).stock_counts.every((c: { plant: string }) => c.plant === 'FI01')).toBe(true);
        // The front-liner report tells nothing of counts the lists hide (DE02 had counts a moment ago):
        // it says the plant does not use stock counts.
        for (const who of ['stock.admin', 'cs.admin'] as const) {
          const refused = await get(who, `${OCCUPANCY}&plant=DE02`);
          expect(refused.statusCode, who).toBe(403);
          expect(refused.json(), who).toMatchObject({ code: 'stockCountsNotUsed', params: { plant: 'DE02' } });
        }
        expect(ok(await get('manager', `${OCCUPANCY}&plant=DE02`)).rows.length).toBeGreaterThan(0);
      } finally {
        await db.execute(sql`insert into allowed_plants (parameter, plant) values ('stock_count_allowed_plants', 'DE02')`);
      }
    });

    it('edits and cancels with the rules of creation, and never a closed count', async () => {
      const id = (await createCount('supervisor', [fx.materials.supervisor[0]!])).id;
      const de02 = (await createCount('stock.admin', [fx.materials['stock.admin'][0]!])).id;
      const cases: Array<[Account, Record<string, unknown>, number, string]> = [
        ['supervisor', { stockCountId: id, shouldBeDoneAt: '2026-02-31' }, 400, 'body.shouldBeDoneAt: must be a calendar day (YYYY-MM-DD)'],
        ['supervisor', { stockCountId: id, conductedBy: 'cs.admin@example.com' }, 400, 'cs.admin@example.com does not work in plant FI01'],
        ['supervisor', { stockCountId: id, workCenter: 'FR03M001' }, 400, 'Work center FR03M001 does not exist in plant FI01'],
        ['stock.admin', { stockCountId: de02, shouldBeDoneAt: '2099-12-24' }, 400, 'A deadline cannot be set for counts in plant DE02'],
        ['supervisor', { stockCountId: 3, status: 'cancelled' }, 409, 'Stock count 3 is submitted and can no longer be changed'],
        ['supervisor', { stockCountId: 5, workCenter: 'FI01M001' }, 409, 'Stock count 5 is cancelled and can no longer be changed'],
        ['supervisor', { stockCountId: 999999, status: 'cancelled' }, 404, 'Stock count 999999 not found'],
      ];
      const coded: Record<string, { code: string; params?: Record<string, unknown> }> = {
        'Work center FR03M001 does not exist in plant FI01': { code: 'workCenterUnknown', params: { code: 'FR03M001', plant: 'FI01' } },
        'Stock count 3 is submitted and can no longer be changed': { code: 'stockCountIsSubmitted', params: { id: 3 } },
        'Stock count 5 is cancelled and can no longer be changed': { code: 'stockCountIsCancelled', params: { id: 5 } },
      };
      for (const [who, payload, status, message] of cases) {
        const res = await send(who, { method: 'PUT', url: '/my_stock_count', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(status);
        // The message, and for some refusals a code the app words (decision 0055).
        expect(res.json().message).toBe(message);
        if (coded[message]) expect(res.json(), message).toMatchObject(coded[message]);
      }
      const shapes = 'body: send {stockCountId, status: "cancelled"} to cancel, or stockCountId with any of conductedBy, workCenter, shouldBeDoneAt, draft: false to edit';
      const malformed: Array<[Record<string, unknown>, string]> = [
        [{ stockCountId: 'abc', status: 'cancelled' }, shapes],
        [{ stockCountId: id, status: 'cancelled', workCenter: 'FI01M001' }, shapes],
        [{}, shapes],
        [{ stockCountId: id, status: 'done' }, 'body: Unrecognized key: "status"'],
        [{ stockCountId: id, conductedBy: 'someone' }, 'body.conductedBy: conductedBy must be an e-mail address'],
      ];
      for (const [payload, message] of malformed) {
        const res = await send('supervisor', { method: 'PUT', url: '/my_stock_count', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        // The message, and for some refusals a code the app words (decision 0055).
        expect(res.json().message).toBe(message);
      }
      const edited = ok(await send('supervisor', { method: 'PUT', url: '/my_stock_count', payload: { stockCountId: id, shouldBeDoneAt: '2099-12-24', workCenter: 'FI01M002' } }));
      expect(edited).toMatchObject({ should_be_done_at: '2099-12-24', work_center: 'FI01M002', status: 'initiated' });
    });
  });

  describe('bad parameters are 400s naming the parameter', () => {
    const CASES: Array<[string, string]> = [
      ...STOCK_TYPES.flatMap((type): Array<[string, string]> => [
        [`/${type}?query=&page=1&maxResults=abc`, 'querystring.maxResults: maxResults must be a number'],
        [`/${type}?query=&page=1&maxResults=0`, 'querystring.maxResults: maxResults must be 1 or more'],
        [`/${type}?query=&page=1&maxResults=2.5`, 'querystring.maxResults: maxResults must be a whole number'],
        [`/${type}?query=&page=1&maxResults=501`, 'querystring.maxResults: maxResults must be 500 or less'],
        [`/${type}?query=&maxResults=20&page=0`, 'querystring.page: page must be 1 or more'],
        [`/${type}?query=&maxResults=20&page=two`, 'querystring.page: page must be a number'],
        [`/${type}?page=1&maxResults=20&query=a%00b`, 'querystring.query: query must not contain control characters'],
      ]),
      ['/my_stock_count?type=local&page=1&maxResults=20', 'querystring.type: type must be single or wall_to_wall'],
      ['/my_stock_count?orderByColumn=password&page=1&maxResults=20', 'querystring.orderByColumn: orderByColumn must be one of plant, created, should_be_done_at, status, storage_location, conducted_by, id, type'],
      ['/my_stock_count?sortDirection=up&page=1&maxResults=20', 'querystring.sortDirection: sortDirection must be asc or desc'],
      ['/my_stock_count?stockCountId=abc&page=1&maxResults=20', 'querystring.stockCountId: stockCountId must be a number'],
      ['/my_stock_count?page=0&maxResults=x', 'querystring.page: page must be 1 or more; querystring.maxResults: maxResults must be a number'],
      ['/my_material?maxResults=501', 'querystring.maxResults: maxResults must be 500 or less'],
      ['/my_material?page=-1', 'querystring.page: page must be 1 or more'],
      ['/relationship/print_materials?stockCountId=abc', 'querystring.stockCountId: stockCountId must be a number'],
      ['/relationship/print_materials?stockCountId=0', 'querystring.stockCountId: stockCountId must be positive'],
      ['/my_stock_count/submit?stockCountId=1.5', 'querystring.stockCountId: stockCountId must be a whole number'],
      ['/relationship/storage_location', 'Query parameter plant is required'],
      ['/relationship/all_stock_visibility', 'Query parameter plant is required'],
      ['/relationship/work_center', 'Query parameter plant is required'],
      ['/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2026-12-31', 'Give either plant or planner_group'],
      ['/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2026-12-31&plant=FI01&planner_group=F10', 'Give either plant or planner_group'],
      ['/my_stock_count/occupancy_report?start_date=2026-12-31&end_date=2026-01-01&plant=FI01', 'start_date must not be after end_date'],
      ['/my_stock_count/occupancy_report?start_date=01.01.2026&end_date=2026-12-31&plant=FI01', 'querystring.start_date: must be a date as YYYY-MM-DD'],
      ['/my_stock_count/occupancy_report?start_date=2026-02-30&end_date=2026-12-31&plant=FI01', 'querystring.start_date: must be a calendar day (YYYY-MM-DD)'],
      ['/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2026-13-45&plant=FI01', 'querystring.end_date: must be a calendar day (YYYY-MM-DD)'],
      ['/my_stock_count/occupancy_report?end_date=2026-12-31&plant=FI01', 'querystring.start_date: Invalid input: expected string, received undefined'],
    ];
    it.each(CASES)('GET %s', async (url, message) => {
      const res = await get('manager', url);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });

    it('a stock transfer request says what is wrong', async () => {
      const material = fx.materials.mechanic[0];
      const base = { plant: 'FI01', storageLocationFrom: 'V001', storageLocationTo: '0001', materialCode: material, quantity: 1 };
      const cases: Array<[Account, Record<string, unknown>, number, string]> = [
        ['mechanic', { ...base, quantity: 0 }, 400, 'body.quantity: Quantity should be greater than 0'],
        ['mechanic', { ...base, quantity: -3 }, 400, 'body.quantity: Quantity should be greater than 0'],
        ['mechanic', { ...base, quantity: 'two' }, 400, 'body.quantity: Quantity should be greater than 0'],
        ['mechanic', { ...base, storageLocationTo: 'V001' }, 400, 'body: Choose two different storage locations'],
        ['mechanic', { ...base, storageLocationTo: ' ' }, 400, 'body.storageLocationTo: Field storageLocationTo is required'],
        ['mechanic', { ...base, storageLocationTo: 'ZZ01' }, 400, 'Storage location ZZ01 does not exist in plant FI01'],
        ['mechanic', { ...base, materialCode: 'NOPE' }, 400, 'Unknown material: NOPE'],
        // Plants outside the caller's: refused before anything is looked up.
        ['mechanic', { ...base, plant: 'DE02' }, 403, 'You do not see plant DE02'],
        ['supervisor', { ...base, plant: 'FR03' }, 403, 'You do not see plant FR03'],
        ['stock.admin', { ...base, plant: 'FR03' }, 403, 'You do not see plant FR03'],
        ['manager', { ...base, plant: 'XX99' }, 400, 'Storage location V001 does not exist in plant XX99'],
      ];
      for (const [who, payload, status, message] of cases) {
        const res = await send(who, { method: 'POST', url: '/stock_transfer_request', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(status);
        // The message, and for some refusals a code the app words (decision 0055).
        expect(res.json().message).toBe(message);
      }
    });
  });
});
