/**
 * Answers that told a caller what its scope hides (a review of refusals and side channels):
 *
 * 1. A blind count's counter learnt from `has_differences` whether its count matched the hidden
 *    book quantity (decision 0054: a blind counter gets no book, nor a yes/no about it).
 * 2. A read-only super manager (or user-acceptance manager) who is also a stock admin changed the
 *    permissions of users outside its plants: reading every user is not changing them (0063).
 * 3. Planning a count in a plant the caller does not plan answered "does not exist" for unknown
 *    plant codes before the 403: the answer told which plants exist.
 * 4. A ship-to-party upload of an uploader held to its plants told unknown numbers from other
 *    plants' numbers.
 * 5. Re-sending the bytes of another uploader's ERP file answered that file's row (name, status,
 *    errors naming the other's plants and e-mail), which GET /dashboard/files/:id hides.
 *
 * Seed facts: supervisor@example.com plans planner group F10 of FI01 (van V001 is in it);
 * mechanic@example.com is a mechanic of FI01 (van V001); stock.admin@example.com holds FI01 and
 * DE02; manager@example.com is the super manager; 0050030001 is a ship-to-party of FR03.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { fileProcessing, stockItems, userAttachments, userGrants, users } from '../../server/db/schema';
import { processPending } from '../../server/ingestion/queue';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

type Attachment = { kind: 'plant' | 'storage_location' | 'work_center'; plant: string; code: string };
const plantAt = (code: string): Attachment => ({ kind: 'plant', plant: code, code });

const MECHANIC = 'mechanic@example.com';
const SUPERVISOR = 'supervisor@example.com';
const STOCK_ADMIN = 'stock.admin@example.com';
const MANAGER = 'manager@example.com';

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

describe.each(ENGINES)('answers that do not tell what the scope hides on %s', (engine) => {
  let product: TestProduct;
  const tokens = new Map<string, string>();
  const db = () => product.database.db;

  const token = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, await product.token(email));
    return tokens.get(email)!;
  };
  const api = async (who: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    product.app.inject({ method, url, headers: { ...bearer(await token(who)), ...headers }, ...(payload === undefined ? {} : { payload: payload as never }) });

  /** A user made straight in the database (setup, not under test). */
  async function makeUser(email: string, grants: readonly string[], attachments: readonly Attachment[] = []): Promise<string> {
    const [row] = await db().insert(users).values({ email, displayName: email.split('@')[0]!, approvalStatus: 'Approved', firstLogin: false }).returning();
    if (grants.length) await db().insert(userGrants).values(grants.map((grantId) => ({ userId: row!.id, grantId })));
    if (attachments.length) await db().insert(userAttachments).values(attachments.map((a) => ({ userId: row!.id, ...a })));
    return row!.id;
  }

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => product?.close());

  describe('1. a blind count tells its counter nothing about the book through has_differences', () => {
    let codes: string[] = [];
    beforeAll(async () => {
      const found = rowsOf(
        await db().execute(sql`select material_code from stock_items where plant = 'FI01' and storage_location = 'V001' and unrestricted_count is not null and quality_inspection_count is not null and blocked_count is not null and restricted_count is not null and transfer_count is not null order by material_code limit 3`),
      );
      codes = found.map((row) => String(row.material_code));
      expect(codes).toHaveLength(3);
    });

    const rowAs = async (who: string, id: number) => {
      const res = await api(who, 'GET', `/api/v2/my_stock_count?stockCountId=${id}&page=1&maxResults=20`);
      expect(res.statusCode, res.body).toBe(200);
      const [row] = res.json().stock_counts as Array<Record<string, unknown>>;
      expect(row).toMatchObject({ id });
      return row!;
    };
    /** Every line counted: as the book says (`matches`), or one off. */
    const countAll = async (id: number, matches: boolean) => {
      await db().execute(sql`update material_counts set quantity = book_quantity + ${matches ? 0 : 1} where stock_count_id = ${id}`);
    };

    it('gives the counter no has_differences on a blind count, whether its count matches the book or not; the planner gets it', async () => {
      const res = await api(SUPERVISOR, 'POST', '/api/v2/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, conductedBy: MECHANIC, blind: true });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as number;
      expect(res.json()).toMatchObject({ is_blind: true });

      await countAll(id, true);
      const matching = await rowAs(MECHANIC, id);
      expect(matching).toMatchObject({ is_blind: true, counted_lines: 3, total_lines: 3 });
      expect(matching).not.toHaveProperty('has_differences');
      expect(await rowAs(SUPERVISOR, id)).toMatchObject({ has_differences: false });

      await countAll(id, false);
      const differing = await rowAs(MECHANIC, id);
      expect(differing).not.toHaveProperty('has_differences');
      // Nothing in the counter's row tells the two apart.
      expect(differing).toEqual(matching);
      expect(await rowAs(SUPERVISOR, id)).toMatchObject({ has_differences: true });
      // A super manager reads book quantities, and the differences with them.
      expect(await rowAs(MANAGER, id)).toMatchObject({ has_differences: true });
    });

    it('still tells a counter of a count that is not blind', async () => {
      const res = await api(SUPERVISOR, 'POST', '/api/v2/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, conductedBy: MECHANIC });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as number;
      await countAll(id, false);
      expect(await rowAs(MECHANIC, id)).toMatchObject({ is_blind: false, has_differences: true });
    });
  });

  describe('2. reading every user is not changing every user', () => {
    const NOTHING = { grants: [], attachments: [], plantScopedGrants: [], plantScopedAttachments: [], plants: [] };
    let farAway = '';
    let nearBy = '';
    beforeAll(async () => {
      farAway = await makeUser('de02.only@example.com', ['mechanic'], [plantAt('DE02')]);
      nearBy = await makeUser('fi01.only@example.com', ['mechanic'], [plantAt('FI01')]);
    });

    for (const reader of ['super_manager_read_only', 'UM_user_acceptance']) {
      it(`refuses a stock admin of FI01 who also holds ${reader} a change to a DE02 user (404, as a plain stock admin), and lets it read the user`, async () => {
        const editor = `fi01.admin.${reader.toLowerCase().replaceAll('_', '-')}@example.com`;
        await makeUser(editor, ['stock_admin', reader], [plantAt('FI01')]);
        const plain = `fi01.admin.plain.${reader.toLowerCase().replaceAll('_', '-')}@example.com`;
        await makeUser(plain, ['stock_admin'], [plantAt('FI01')]);
        const before = await api(MANAGER, 'GET', `/user_api/v1/users/${farAway}/permissions`);

        // Reading stays as it was: every user, read-only where it may not change them.
        const read = await api(editor, 'GET', `/user_api/v1/users/${farAway}/permissions`);
        expect(read.statusCode, read.body).toBe(200);
        expect(read.json()).toMatchObject({ grants: ['mechanic'], editable: NOTHING });

        // A storage location of the editor's own plant, given to a user of another plant: the
        // plant-scoped rules alone let it through before.
        const wanted = { grants: ['mechanic'], attachments: [plantAt('DE02'), { kind: 'storage_location', plant: 'FI01', code: '0001' }] };
        const refused = await api(editor, 'PUT', `/user_api/v1/users/${farAway}/permissions`, wanted);
        const plainRefused = await api(plain, 'PUT', `/user_api/v1/users/${farAway}/permissions`, wanted);
        expect(refused.statusCode, refused.body).toBe(404);
        expect(refused.json()).toEqual(plainRefused.json());
        expect(refused.json().message).toBe(`No user with id ${farAway}`);
        const taken = await api(editor, 'PUT', `/user_api/v1/users/${farAway}/permissions`, { grants: [], attachments: [plantAt('DE02')] });
        expect(taken.statusCode, taken.body).toBe(404);
        // Nothing was written.
        expect((await api(MANAGER, 'GET', `/user_api/v1/users/${farAway}/permissions`)).json()).toEqual(before.json());

        // A user of its own plant stays the editor's to change, as a stock admin's.
        expect((await api(editor, 'GET', `/user_api/v1/users/${nearBy}/permissions`)).json().editable).toMatchObject({ grants: ['mechanic', 'supervisor'], plants: ['FI01'] });
        const own = await api(editor, 'PUT', `/user_api/v1/users/${nearBy}/permissions`, { grants: ['mechanic'], attachments: [plantAt('FI01'), { kind: 'storage_location', plant: 'FI01', code: '0001' }] });
        expect(own.statusCode, own.body).toBe(200);
        await db().delete(userAttachments).where(sql`${userAttachments.userId} = ${nearBy} and ${userAttachments.kind} = 'storage_location'`);
      });
    }

    it('leaves the super manager and the PM granters unscoped', async () => {
      await makeUser('pm.granter.only@example.com', ['UM_PM_grant_read']);
      const pm = await api('pm.granter.only@example.com', 'PUT', `/user_api/v1/users/${farAway}/permissions`, { grants: ['mechanic', 'PM_read'], attachments: [plantAt('DE02')] });
      expect(pm.statusCode, pm.body).toBe(200);
      const manager = await api(MANAGER, 'PUT', `/user_api/v1/users/${farAway}/permissions`, { grants: ['mechanic'], attachments: [plantAt('DE02')] });
      expect(manager.statusCode, manager.body).toBe(200);
      expect(manager.json()).toMatchObject({ grants: ['mechanic'] });
    });
  });

  describe('3. planning a count does not tell which plants exist', () => {
    const base = { storageLocation: 'V001', type: 'single', materialCodes: ['ANY'] };

    it('answers a plant the caller does not plan with one 403, whether or not the plant exists', async () => {
      for (const who of [SUPERVISOR, STOCK_ADMIN]) {
        const existing = await api(who, 'POST', '/api/v2/my_stock_count', { ...base, plant: 'FR03' });
        const missing = await api(who, 'POST', '/api/v2/my_stock_count', { ...base, plant: 'XX99' });
        expect(existing.statusCode, existing.body).toBe(403);
        expect(missing.statusCode, missing.body).toBe(403);
        expect(existing.json().message).toBe('You do not plan stock counts in plant FR03');
        expect(missing.json().message).toBe('You do not plan stock counts in plant XX99');
        expect(Object.keys(missing.json()).sort()).toEqual(Object.keys(existing.json()).sort());
      }
      // The super manager plans everywhere: it is told the plant does not exist.
      const manager = await api(MANAGER, 'POST', '/api/v2/my_stock_count', { ...base, plant: 'XX99' });
      expect(manager.statusCode).toBe(400);
      expect(manager.json().message).toBe('Plant XX99 does not exist');
    });
  });

  describe('4. a ship-to-party upload does not tell which customer numbers exist', () => {
    const upload = async (email: string, csv: string, dryRun: boolean) =>
      api(email, 'POST', `/user_api/v1/ship_to_party_codes/uploads${dryRun ? '?dryRun=true' : ''}`, csv, { 'content-type': 'text/csv; charset=utf-8' });

    it('refuses a number of another plant and one that does not exist alike, to an uploader held to its plants', async () => {
      await makeUser('pm.fi01.leaks@example.com', ['PM_write', 'custom_service_admin'], [plantAt('FI01')]);
      for (const dryRun of [true, false]) {
        const res = await upload('pm.fi01.leaks@example.com', 'shipToPartyCode\n0050030001\n0059999997\n', dryRun);
        expect(res.statusCode, res.body).toBe(dryRun ? 200 : 422);
        // Line 2 is of FR03, line 3 of no customer at all: the same refusal but for the number.
        expect(res.json().errors).toEqual(
          ['0050030001', '0059999997'].map((code, i) => ({
            line: i + 2,
            column: 'shipToPartyCode',
            value: code,
            message: `Ship-to-party number ${code} is not of one of your plants (FI01); ask a manager to give it to you`,
            code: 'shipToPartyOtherPlant',
            params: { shipToPartyCode: code, plants: 'FI01' },
          })),
        );
      }
      // One who may add any number (a priority writer of no plant) is told it does not exist.
      const any = await upload('pm.writer@example.com', 'shipToPartyCode\n0059999997\n', true);
      expect(any.json().errors).toEqual([expect.objectContaining({ code: 'unknownShipToParty', params: { shipToPartyCode: '0059999997' } })]);
    });
  });

  describe('5. a duplicate of another uploader\'s ERP file answers nothing of that file', () => {
    const upload = async (who: string, fileName: string, payload: string) =>
      api(who, 'POST', `/user_api/v1/dashboard/files?fileName=${encodeURIComponent(fileName)}`, payload, { 'content-type': 'text/csv' });
    const csv = (rows: Array<Array<string | number>>) => `${Papa.unparse({ fields: ['plant', 'storage_location', 'material_code', 'unrestricted_count'], data: rows }, { newline: '\n' })}\n`;

    it('answers the other uploader only that it is a duplicate; its own uploader and a super manager get the row', async () => {
      const [stock] = await db().select().from(stockItems).where(eq(stockItems.plant, 'FI01')).limit(1);
      // Processed: the bytes of an errored file are queued again when sent again (decision 0072), not a duplicate.
      const content = csv([[stock!.plant, stock!.storageLocation, stock!.materialCode, '5']]);
      const first = await upload(STOCK_ADMIN, 'ERP_STOCK_20320301_MORNING.csv', content);
      expect(first.statusCode, first.body).toBe(202);
      const id = first.json().file.id as string;
      await processPending(db(), { workerId: 'leaks-test', leaseSeconds: 60 });
      const [stored] = await db().select().from(fileProcessing).where(eq(fileProcessing.id, id));
      expect(stored).toMatchObject({ status: 'processed', uploadedBy: STOCK_ADMIN });

      const other = 'second.fi01.admin@example.com';
      await makeUser(other, ['stock_admin'], [plantAt('FI01')]);
      const again = await upload(other, 'ERP_STOCK_20320301_MORNING (1).csv', content);
      expect(again.statusCode, again.body).toBe(200);
      // Only what the caller sent: no id to follow, not the other's name, status, dates or errors.
      expect(again.json()).toEqual({
        duplicate: true,
        file: {
          id: null,
          file_type: 'STOCK',
          start_date: null,
          end_date: null,
          file_name: 'ERP_STOCK_20320301_MORNING (1).csv',
          file_part_of_day: 'morning',
          status: 'not_processed',
          errors: [],
          line_count: null,
          source: 'upload',
        },
      });
      expect(again.body).not.toContain(id);
      expect(again.body).not.toContain(STOCK_ADMIN);
      // As the file itself is to them.
      expect((await api(other, 'GET', `/user_api/v1/dashboard/files/${id}`)).statusCode).toBe(404);

      // The uploader follows its own file; the super manager reads every file.
      for (const who of [STOCK_ADMIN, MANAGER]) {
        const res = await upload(who, 'ERP_STOCK_20320301_MORNING.csv', content);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ duplicate: true, file: { id, file_name: 'ERP_STOCK_20320301_MORNING.csv', status: 'processed', line_count: 2 } });
      }
    });
  });

  describe('6. a storage location attached in a plant the user is not given opens none of its stock', () => {
    it('gives a mechanic of FI01 holding DE02/0001 only its FI01 van as my stock and team stock; a super manager’s attachments stay whole', async () => {
      const email = 'van.and.foreign.shelf@example.com';
      await makeUser(email, ['mechanic'], [plantAt('FI01'), { kind: 'storage_location', plant: 'FI01', code: 'V001' }, { kind: 'storage_location', plant: 'DE02', code: '0001' }]);
      const [foreign] = await db().select().from(stockItems).where(eq(stockItems.plant, 'DE02')).limit(1);
      expect(foreign, 'the seed has DE02 stock').toBeDefined();
      for (const list of ['/api/v2/my_stock', '/api/v2/my_team_stock']) {
        const res = await api(email, 'GET', `${list}?query=&page=1&maxResults=500`);
        expect(res.statusCode, res.body).toBe(200);
        const rows = res.json().stock_items as Array<{ plant: string; storage_location: string }>;
        expect(rows.length, list).toBeGreaterThan(0);
        expect(new Set(rows.map((row) => `${row.plant}/${row.storage_location}`)), list).toEqual(new Set(['FI01/V001']));
      }
      const manager = 'manager.with.shelf@example.com';
      await makeUser(manager, ['super_manager'], [{ kind: 'storage_location', plant: 'DE02', code: '0001' }]);
      const mine = (await api(manager, 'GET', '/api/v2/my_stock?query=&page=1&maxResults=5')).json().stock_items as Array<{ plant: string }>;
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((row) => row.plant === 'DE02')).toBe(true);
    });
  });
});
