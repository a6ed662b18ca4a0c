/**
 * Decision 0063: "a read-only super manager who holds another role acts as that role". It reads
 * every count, priority and transfer as any super manager does, and writes only where its other
 * role writes: stock counts (plan, cancel, edit, split, resolve, count, submit), priorities of
 * ship-to-party numbers (one edit, CSV uploads) and transfer requests. A pure read-only super
 * manager still reads everything it read (a split count whole, a blind count's book quantities)
 * and writes nothing; the super manager still writes everywhere.
 *
 * In this file's own database, supervisor@example.com (FI01, planner group F10),
 * mechanic@example.com (FI01, van V001) and pm.writer@example.com (PM_write and uploads, four
 * ship-to-party numbers) also hold super_manager_read_only. viewer@example.com holds only that;
 * manager@example.com is the super manager. The counts are planned by the super manager.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const SUPERVISOR = 'supervisor@example.com';
const MECHANIC = 'mechanic@example.com';
const PM_WRITER = 'pm.writer@example.com';
const VIEWER = 'viewer@example.com';
const MANAGER = 'manager@example.com';
const MIKKO = 'mikko.virtanen@lift.example';
const FELIX = 'felix.weber@lift.example';
const LUKAS = 'lukas.mueller@lift.example';
const WITH_READ_ONLY = [SUPERVISOR, MECHANIC, PM_WRITER];
const WRITER_CODES = ['0050010001', '0050010002', '0050010003', '0050020001'];
const HEADER = 'shipToPartyCode;accessPointId;priority';

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

interface Line {
  id: number;
  material_code: string;
  quantity: number | null;
  book_quantity: number | null;
}

describe.each(ENGINES)('a read-only super manager writes only as its other roles on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  /** Materials with a known book quantity at FI01/V001 (planner group F10), DE02/V003, and an FI01 location of another planner group. */
  let fiCodes: string[] = [];
  let deCodes: string[] = [];
  let other = { location: '', codes: [] as string[] };

  const query = async (text: ReturnType<typeof sql>) => rowsOf(await product.database.db.execute(text));
  const knownBooks = (plant: string, location: string) =>
    query(sql`select material_code from stock_items where plant = ${plant} and storage_location = ${location}
      and unrestricted_count is not null and quality_inspection_count is not null and blocked_count is not null
      and restricted_count is not null and transfer_count is not null order by material_code limit 6`).then((rows) => rows.map((row) => String(row.material_code)));

  beforeAll(async () => {
    product = await createTestProduct(engine, { RATE_LIMIT_PER_MINUTE: '100000' });
    for (const email of [SUPERVISOR, MECHANIC, PM_WRITER, VIEWER, MANAGER, MIKKO]) tokens[email] = await product.token(email);
    for (const email of WITH_READ_ONLY) {
      await product.database.db.execute(sql`insert into user_grants (user_id, grant_id) select id, 'super_manager_read_only' from users where email = ${email}`);
    }
    fiCodes = await knownBooks('FI01', 'V001');
    deCodes = await knownBooks('DE02', 'V003');
    const [location] = await query(sql`select s.code from storage_locations s join work_centers w on w.plant = s.plant and w.code = s.work_center
      where s.plant = 'FI01' and w.planner_group <> 'F10' order by s.code limit 1`);
    other = { location: String(location!.code), codes: [] };
    other.codes = await knownBooks('FI01', other.location);
    expect([fiCodes.length, deCodes.length, other.codes.length]).toEqual([6, 6, 6]);
  });
  afterAll(async () => {
    await product?.close();
  });

  const api = (who: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) =>
    product.app.inject({ method, url: url.startsWith('/user_api') ? url : `/api/v2${url}`, headers: bearer(tokens[who]!), ...(payload ? { payload } : {}) });
  const status = async (who: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await api(who, method, url, payload);
    return { status: res.statusCode, message: res.statusCode >= 400 ? (res.json().message as string) : undefined };
  };
  /** A sent count planned by the super manager. */
  const plan = async (body: Record<string, unknown>) => {
    const res = await api(MANAGER, 'POST', '/my_stock_count', { type: 'single', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const linesOf = async (who: string, id: number) => {
    const res = await api(who, 'GET', `/my_material_count?stockCountId=${id}&page=1&maxResults=500&orderByColumn=material_code`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().material_counts as Line[];
  };
  const countStatus = async (id: number) => String((await query(sql`select status from stock_counts where id = ${id}`))[0]!.status);
  const plannedByYou = async (who: string, id: number) =>
    ((await api(who, 'GET', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`)).json().stock_counts as Array<{ planned_by_you?: boolean }>)[0]?.planned_by_you;
  /** writable_by_you of one count, as the caller's list (and so the count sheet's header) gives it. */
  const writableByYou = async (who: string, id: number) =>
    ((await api(who, 'GET', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`)).json().stock_counts as Array<{ writable_by_you?: boolean }>)[0]?.writable_by_you;
  /** writable_by_you of every count on the first page of the caller's list. */
  const writableOnPage = async (who: string) => {
    const res = await api(who, 'GET', '/my_stock_count?page=1&maxResults=500');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().stock_counts as Array<{ writable_by_you?: boolean }>).map((row) => row.writable_by_you);
  };

  describe('[super_manager_read_only, supervisor] plans as the supervisor of F10 in FI01', () => {
    it('cancels and edits no count of another plant, nor one of another planner group it only counts; its own group’s it does', async () => {
      const germany = await plan({ plant: 'DE02', storageLocation: 'V003', materialCodes: deCodes.slice(0, 2), conductedBy: FELIX });
      const counted = await plan({ plant: 'FI01', storageLocation: other.location, materialCodes: other.codes.slice(0, 2), conductedBy: SUPERVISOR });
      const own = await plan({ plant: 'FI01', storageLocation: 'V001', materialCodes: fiCodes.slice(0, 2), conductedBy: MECHANIC });

      // It reads them all, as any super manager; it plans only its group's.
      expect((await linesOf(SUPERVISOR, germany)).length).toBe(2);
      expect([await plannedByYou(SUPERVISOR, germany), await plannedByYou(SUPERVISOR, counted), await plannedByYou(SUPERVISOR, own)]).toEqual([false, false, true]);

      expect(await status(SUPERVISOR, 'PUT', '/my_stock_count', { stockCountId: germany, status: 'cancelled' })).toEqual({
        status: 403,
        message: `You may read stock count ${germany}, not change it`,
      });
      expect((await status(SUPERVISOR, 'PUT', '/my_stock_count', { stockCountId: germany, conductedBy: LUKAS })).status).toBe(403);
      expect(await status(SUPERVISOR, 'PUT', '/my_stock_count', { stockCountId: counted, status: 'cancelled' })).toEqual({
        status: 403,
        message: `Only a planner of stock count ${counted} can cancel it`,
      });
      expect([await countStatus(germany), await countStatus(counted)]).toEqual(['initiated', 'initiated']);
      const [row] = await query(sql`select conducted_by from stock_counts where id = ${germany}`);
      expect(row!.conducted_by).toBe(FELIX);

      expect((await status(SUPERVISOR, 'PUT', '/my_stock_count', { stockCountId: own, conductedBy: MIKKO })).status).toBe(200);
      expect((await status(SUPERVISOR, 'PUT', '/my_stock_count', { stockCountId: own, status: 'cancelled' })).status).toBe(200);
      expect(await countStatus(own)).toBe('cancelled');
    });

    it('creates counts only in its plants and planner groups', async () => {
      const inGermany = await status(SUPERVISOR, 'POST', '/my_stock_count', { plant: 'DE02', storageLocation: 'V003', type: 'single', materialCodes: deCodes.slice(0, 1) });
      expect(inGermany).toEqual({ status: 403, message: 'You do not plan stock counts in plant DE02' });
      const otherGroup = await status(SUPERVISOR, 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: other.location, type: 'single', materialCodes: other.codes.slice(0, 1) });
      expect(otherGroup.status).toBe(403);
      expect(otherGroup.message).toContain('You plan stock counts only for your planner groups (F10)');
      const own = await api(SUPERVISOR, 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: fiCodes.slice(0, 1), conductedBy: MECHANIC });
      expect(own.statusCode, own.body).toBe(201);
      expect(own.json()).toMatchObject({ plant: 'FI01', created_by: SUPERVISOR });
    });

    it('splits and resolves no count of another plant; its own group’s it does', async () => {
      const germany = await plan({ plant: 'DE02', storageLocation: 'V003', materialCodes: deCodes.slice(0, 3), conductedBy: FELIX });
      const parts = { parts: [{ counter: FELIX, materialCodes: [deCodes[0]!] }, { counter: LUKAS, rest: true }] };
      expect((await status(MANAGER, 'PUT', '/my_stock_count/parts', { stockCountId: germany, ...parts })).status).toBe(200);
      const [line] = await query(sql`select id from material_counts where stock_count_id = ${germany} order by material_code limit 1`);
      const [part] = await query(sql`select id from stock_count_parts where stock_count_id = ${germany} order by id limit 1`);
      expect(await status(SUPERVISOR, 'PUT', '/my_stock_count/parts', { stockCountId: germany, parts: [{ counter: LUKAS, rest: true }] })).toEqual({
        status: 403,
        message: `You may read stock count ${germany}, not change it`,
      });
      const resolve = { stockCountId: germany, materialCountId: Number(line!.id), action: 'take', partId: Number(part!.id) };
      expect((await status(SUPERVISOR, 'POST', '/my_stock_count/merge/resolve', resolve)).status).toBe(403);
      expect((await query(sql`select counter from stock_count_parts where stock_count_id = ${germany} order by counter`)).map((r) => r.counter)).toEqual([FELIX, LUKAS]);

      // Its own group's count: split between the mechanic and Mikko, who disagree on a control line.
      const own = await plan({ plant: 'FI01', storageLocation: 'V001', materialCodes: fiCodes.slice(0, 3), conductedBy: MECHANIC });
      const split = await api(SUPERVISOR, 'PUT', '/my_stock_count/parts', {
        stockCountId: own,
        parts: [{ counter: MECHANIC, materialCodes: [fiCodes[0]!, fiCodes[1]!] }, { counter: MIKKO, materialCodes: [fiCodes[1]!], rest: true }],
        controlMaterialCodes: [fiCodes[1]!],
      });
      expect(split.statusCode, split.body).toBe(200);
      const control = (await linesOf(SUPERVISOR, own)).find((l) => l.material_code === fiCodes[1])!;
      for (const [who, quantity] of [[MECHANIC, 5], [MIKKO, 7]] as const) {
        const res = await api(who, 'PUT', '/my_stock_count/part/quantities', { stockCountId: own, quantities: [{ materialCountId: control.id, quantity }] });
        expect(res.statusCode, res.body).toBe(200);
      }
      const merge = await api(SUPERVISOR, 'GET', `/my_stock_count/merge?stockCountId=${own}`);
      expect(merge.statusCode, merge.body).toBe(200);
      const variance = merge.json().lines[0] as { material_count_id: number; counts: Array<{ part_id: number }> };
      const take = await api(SUPERVISOR, 'POST', '/my_stock_count/merge/resolve', { stockCountId: own, materialCountId: variance.material_count_id, action: 'take', partId: variance.counts[0]!.part_id });
      expect(take.statusCode, take.body).toBe(200);
    });
  });

  describe('[super_manager_read_only, mechanic] counts as the mechanic', () => {
    it('writes quantities, adds lines and submits only the counts it is given', async () => {
      const germany = await plan({ plant: 'DE02', storageLocation: 'V003', materialCodes: deCodes.slice(0, 2), conductedBy: FELIX });
      const theirs = (await linesOf(MECHANIC, germany)).map((line) => ({ id: line.id, quantity: 1 }));
      expect(theirs).toHaveLength(2);
      expect(await status(MECHANIC, 'PUT', '/my_material_count', { modifiedMaterials: theirs })).toEqual({
        status: 404,
        message: `Material count ${theirs.map((line) => line.id).join(', ')} not found`,
      });
      expect((await query(sql`select quantity from material_counts where stock_count_id = ${germany}`)).every((row) => row.quantity === null)).toBe(true);
      expect((await status(MECHANIC, 'POST', '/my_material_count', { stockCountId: germany, materialCode: deCodes[2]! })).status).toBe(403);
      expect((await status(MECHANIC, 'GET', `/my_stock_count/submit?stockCountId=${germany}`)).status).toBe(403);
      expect(await countStatus(germany)).toBe('initiated');

      const own = await plan({ plant: 'FI01', storageLocation: 'V001', materialCodes: fiCodes.slice(0, 2), conductedBy: MECHANIC });
      const mine = (await linesOf(MECHANIC, own)).map((line) => ({ id: line.id, quantity: 1 }));
      expect((await status(MECHANIC, 'PUT', '/my_material_count', { modifiedMaterials: mine })).status).toBe(200);
      const submitted = await api(MECHANIC, 'GET', `/my_stock_count/submit?stockCountId=${own}`);
      expect(submitted.statusCode, submitted.body).toBe(200);
      expect(submitted.json()).toMatchObject({ id: own, status: 'completed' });
    });

    it('is told which counts it may change (writable_by_you): its own, not another plant’s it only reads', async () => {
      const germany = await plan({ plant: 'DE02', storageLocation: 'V003', materialCodes: deCodes.slice(0, 2), conductedBy: FELIX });
      const own = await plan({ plant: 'FI01', storageLocation: 'V001', materialCodes: fiCodes.slice(0, 2), conductedBy: MECHANIC });
      const mikkos = await plan({ plant: 'FI01', storageLocation: 'V001', materialCodes: fiCodes.slice(0, 2), conductedBy: MIKKO });

      const ids = [germany, own, mikkos];
      const flags = async (who: string) => Promise.all(ids.map((id) => writableByYou(who, id)));
      expect(await flags(MECHANIC)).toEqual([false, true, false]);
      // A mechanic alone: its counts, each writable (the others it does not see).
      expect(await flags(MIKKO)).toEqual([undefined, undefined, true]);
      const mikkosPage = await writableOnPage(MIKKO);
      expect(mikkosPage.length).toBeGreaterThan(0);
      expect(mikkosPage.every((flag) => flag === true)).toBe(true);
      // The super manager changes every count; a pure read-only super manager none.
      expect(await flags(MANAGER)).toEqual([true, true, true]);
      expect((await writableOnPage(MANAGER)).every((flag) => flag === true)).toBe(true);
      expect(await flags(VIEWER)).toEqual([false, false, false]);
      expect((await writableOnPage(VIEWER)).every((flag) => flag === false)).toBe(true);
    });

    it('on a split count it counts, writes its part only; it still reads the count whole', async () => {
      const own = await plan({ plant: 'FI01', storageLocation: 'V001', materialCodes: fiCodes.slice(0, 2), conductedBy: MECHANIC });
      const split = await api(MANAGER, 'PUT', '/my_stock_count/parts', { stockCountId: own, parts: [{ counter: MECHANIC, materialCodes: [fiCodes[0]!] }, { counter: MIKKO, rest: true }] });
      expect(split.statusCode, split.body).toBe(200);
      const lines = await linesOf(MECHANIC, own);
      expect(lines).toHaveLength(2);
      const refused = await status(MECHANIC, 'PUT', '/my_material_count', { modifiedMaterials: [{ id: lines[0]!.id, quantity: 1 }] });
      expect(refused.status).toBe(403);
      expect(refused.message).toContain('write quantities to your part');
    });

    it('requests stock transfers only in its plants', async () => {
      const transfer = (plant: string, from: string, material: string) => ({ plant, storageLocationFrom: from, storageLocationTo: '0001', materialCode: material, quantity: 2 });
      const inGermany = async () => Number((await query(sql`select count(*)::int as n from stock_transfer_requests where plant = 'DE02'`))[0]!.n);
      const before = await inGermany();
      expect(await status(MECHANIC, 'POST', '/stock_transfer_request', transfer('DE02', 'V003', deCodes[0]!))).toEqual({ status: 403, message: 'You do not see plant DE02' });
      expect(await inGermany()).toBe(before);
      const own = await api(MECHANIC, 'POST', '/stock_transfer_request', transfer('FI01', 'V001', fiCodes[0]!));
      expect(own.statusCode, own.body).toBe(201);
      expect((await status(MANAGER, 'POST', '/stock_transfer_request', transfer('DE02', 'V003', deCodes[0]!))).status).toBe(201);
    });
  });

  describe('[super_manager_read_only, PM_write] writes priorities of the numbers it holds', () => {
    const priorityRow = async (mine: boolean) => {
      const [row] = await query(
        mine
          ? sql`select ship_to_party_code as code, access_point_id as ap, priority from access_point_priorities where ship_to_party_code = ${WRITER_CODES[0]} order by access_point_id limit 1`
          : sql`select ship_to_party_code as code, access_point_id as ap, priority from access_point_priorities where ship_to_party_code not in (${sql.join(WRITER_CODES.map((c) => sql`${c}`), sql`, `)}) order by ship_to_party_code, access_point_id limit 1`,
      );
      return { code: String(row!.code), accessPointId: String(row!.ap), priority: Number(row!.priority) };
    };
    const upload = (who: string, kind: 'add' | 'disable', body: string) =>
      product.app.inject({
        method: 'POST',
        url: `/user_api/v1/uap_priority/uploads/${kind}?dryRun=true`,
        headers: { ...bearer(tokens[who]!), 'content-type': 'text/csv; charset=utf-8' },
        payload: body,
      });

    it('changes one priority of its own numbers, of no other (the super manager: of any)', async () => {
      const foreign = await priorityRow(false);
      const stored = () => query(sql`select * from access_point_priorities where ship_to_party_code = ${foreign.code} and access_point_id = ${foreign.accessPointId}`);
      const before = await stored();
      const body = { shipToPartyCode: foreign.code, accessPointId: foreign.accessPointId, priority: foreign.priority, isEnabled: false };
      expect(await status(PM_WRITER, 'PUT', '/user_api/v1/uap_priority', body)).toEqual({
        status: 404,
        message: `No priority of access point ${foreign.accessPointId} for ship-to-party ${foreign.code}`,
      });
      expect(await stored()).toEqual(before);
      const own = await priorityRow(true);
      expect((await status(PM_WRITER, 'PUT', '/user_api/v1/uap_priority', { shipToPartyCode: own.code, accessPointId: own.accessPointId, priority: own.priority })).status).toBe(200);
      expect((await status(MANAGER, 'PUT', '/user_api/v1/uap_priority', { shipToPartyCode: foreign.code, accessPointId: foreign.accessPointId, priority: foreign.priority })).status).toBe(200);
    });

    it('lists every number and says per entry which it may change (writableByYou, from this request’s attachments)', async () => {
      const foreign = await priorityRow(false);
      const own = await priorityRow(true);
      const listed = async (who: string, code: string) => {
        const res = await api(who, 'GET', `/user_api/v1/tracking/uap/priorities?query=${encodeURIComponent(code)}`);
        expect(res.statusCode, res.body).toBe(200);
        const entries = res.json().items as Array<{ shipToPartyCode: string; writableByYou?: boolean }>;
        return entries.find((e) => e.shipToPartyCode === code)?.writableByYou;
      };
      expect(await listed(PM_WRITER, own.code)).toBe(true);
      expect(await listed(PM_WRITER, foreign.code)).toBe(false);
      expect(await listed(MANAGER, foreign.code)).toBe(true);
      // A number given to the writer just now is writable in the very next list, with no profile re-read.
      const [writer] = await query(sql`select id from users where email = ${PM_WRITER}`);
      await query(sql`insert into user_attachments (user_id, kind, code) values (${writer!.id}, 'ship_to_party', ${foreign.code})`);
      try {
        expect(await listed(PM_WRITER, foreign.code)).toBe(true);
      } finally {
        await query(sql`delete from user_attachments where user_id = ${writer!.id} and kind = 'ship_to_party' and code = ${foreign.code}`);
      }
    });

    it('uploads rows of its own numbers only', async () => {
      const foreign = await priorityRow(false);
      const own = await priorityRow(true);
      const added = await upload(PM_WRITER, 'add', `${HEADER}\n${own.code};${own.accessPointId};${own.priority}\n${foreign.code};${foreign.accessPointId};${foreign.priority}\n`);
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json().errors).toEqual([expect.objectContaining({ line: 3, code: 'notYours', params: { shipToPartyCode: foreign.code } })]);
      const disabled = await upload(PM_WRITER, 'disable', `shipToPartyCode,accessPointId,action\n${foreign.code},${foreign.accessPointId},disable\n`);
      expect(disabled.json().errors).toEqual([expect.objectContaining({ line: 2, code: 'notYours' })]);
      const byManager = await upload(MANAGER, 'add', `${HEADER}\n${foreign.code};${foreign.accessPointId};${foreign.priority}\n`);
      expect(byManager.json().errors).toEqual([]);
    });
  });

  describe('another user’s notification settings (not a read-only rule: the same review)', () => {
    it('refuses an editor a user id that does not exist, one outside its plants and one who ranks above it with one answer', async () => {
      const editor = 'stock.admin@example.com';
      tokens[editor] ??= await product.token(editor);
      const idOf = async (email: string) => String((await query(sql`select id from users where email = ${email}`))[0]!.id);
      const uids = ['00000000-0000-4000-8000-000000000000', await idOf('julien.martin@parts.example'), await idOf(MANAGER)];
      // A well-formed body (the editor's own settings), so that only the rules of access answer.
      const own = (await api(editor, 'GET', `/user_api/v1/users/${await idOf(editor)}/notifications_settings`)).json().notification_settings as Array<Record<string, unknown>>;
      const body = { notificationSettings: own.map((entry) => (entry.primary ? { ...entry, pushNotificationsSettings: [] } : entry)) };
      const answers: Array<{ status: number; body: unknown }> = [];
      for (const uid of uids) {
        for (const method of ['GET', 'PUT'] as const) {
          const res = await api(editor, method, `/user_api/v1/users/${uid}/notifications_settings`, method === 'PUT' ? body : undefined);
          answers.push({ status: res.statusCode, body: res.json() as unknown });
        }
      }
      expect(answers[0]!.status, JSON.stringify(answers)).toBe(403);
      expect(answers.every((answer) => JSON.stringify(answer) === JSON.stringify(answers[0]))).toBe(true);
      // One of its plants and below it: allowed.
      expect((await api(editor, 'GET', `/user_api/v1/users/${await idOf(MIKKO)}/notifications_settings`)).statusCode).toBe(200);
    });
  });

  describe('reads stay unrestricted', () => {
    it('a pure read-only super manager reads a split count whole, every part and the merge, and changes nothing', async () => {
      const germany = await plan({ plant: 'DE02', storageLocation: 'V003', materialCodes: deCodes.slice(0, 3), conductedBy: FELIX });
      expect((await status(MANAGER, 'PUT', '/my_stock_count/parts', { stockCountId: germany, parts: [{ counter: FELIX, materialCodes: [deCodes[0]!] }, { counter: LUKAS, rest: true }] })).status).toBe(200);
      expect(await linesOf(VIEWER, germany)).toHaveLength(3);
      const [part] = await query(sql`select id from stock_count_parts where stock_count_id = ${germany} and counter = ${LUKAS}`);
      const read = await api(VIEWER, 'GET', `/my_stock_count/part?stockCountId=${germany}&partId=${Number(part!.id)}`);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().lines).toHaveLength(2);
      expect((await api(VIEWER, 'GET', `/my_stock_count/merge?stockCountId=${germany}`)).statusCode).toBe(200);
      expect((await api(VIEWER, 'GET', `/relationship/print_materials?stockCountId=${germany}`)).json().lines).toHaveLength(3);
      // Every write is refused by its capability, as before.
      expect((await status(VIEWER, 'PUT', '/my_stock_count', { stockCountId: germany, status: 'cancelled' })).status).toBe(403);
      expect((await status(VIEWER, 'PUT', '/my_stock_count/parts', { stockCountId: germany, parts: [{ counter: LUKAS, rest: true }] })).status).toBe(403);
      expect(await countStatus(germany)).toBe('initiated');
      // The super manager changes it.
      expect((await status(MANAGER, 'PUT', '/my_stock_count', { stockCountId: germany, status: 'cancelled' })).status).toBe(200);
    });

    it('read-only super managers read a blind count’s book quantities, also one they count themselves', async () => {
      const germany = await plan({ plant: 'DE02', storageLocation: 'V003', materialCodes: deCodes.slice(0, 2), conductedBy: FELIX, blind: true });
      const counted = await plan({ plant: 'FI01', storageLocation: 'V001', materialCodes: fiCodes.slice(0, 2), conductedBy: MECHANIC, blind: true });
      for (const [who, id] of [[VIEWER, germany], [SUPERVISOR, germany], [MECHANIC, germany], [MECHANIC, counted]] as const) {
        const lines = await linesOf(who, id);
        expect(lines.every((line) => line.book_quantity !== null), `${who} reads the book quantities of ${id}`).toBe(true);
      }
      // The mechanic who is not a read-only super manager does not (Mikko counts none of these: a blind count of his).
      const mikkos = await plan({ plant: 'FI01', storageLocation: 'V001', materialCodes: fiCodes.slice(0, 2), conductedBy: MIKKO, blind: true });
      expect((await linesOf(MIKKO, mikkos)).every((line) => line.book_quantity === null)).toBe(true);
    });
  });
});
