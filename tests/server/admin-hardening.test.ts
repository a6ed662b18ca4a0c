/**
 * Fixes of a review of user administration and the priority manager, each through the real app:
 * a PM writer adds by upload only ship-to-party numbers of its plants (they become its write
 * scope); a super manager's permissions are a super manager's to change; the last active super
 * manager is neither removed nor stripped, even by two super managers removing each other at
 * once; the permission editor's customer list goes only to those who may give ship-to-party
 * numbers; the one-priority edit bounds its codes; the pending approval list is capped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { approvalRequests, shipToParties, userAttachments, userGrants, users } from '../../server/db/schema';
import { removeUser, updateExpiration, updatePermissions } from '../../server/repositories/user-admin';
import type { CurrentUser } from '../../server/repositories/users';
import { PENDING_APPROVALS_MAX } from '../../src/contract/users';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

type Attachment = { kind: 'plant' | 'ship_to_party' | 'managed_ship_to_party'; plant: string; code: string };
const plantAt = (code: string): Attachment => ({ kind: 'plant', plant: code, code });

describe.each(ENGINES)('admin hardening on %s', (engine) => {
  let product: TestProduct;
  const tokens = new Map<string, string>();
  const db = () => product.database.db;

  const token = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, await product.token(email));
    return tokens.get(email)!;
  };
  const call = async (method: 'GET' | 'PUT' | 'POST' | 'DELETE', email: string, url: string, payload?: unknown) =>
    product.app.inject({ method, url: `/user_api/v1${url}`, headers: bearer(await token(email)), payload: payload as never });
  const upload = async (email: string, csv: string, dryRun = false) =>
    product.app.inject({
      method: 'POST',
      url: `/user_api/v1/ship_to_party_codes/uploads${dryRun ? '?dryRun=true' : ''}`,
      headers: { ...bearer(await token(email)), 'content-type': 'text/csv; charset=utf-8' },
      payload: csv,
    });

  /** A user made straight in the database (setup, not under test). */
  async function makeUser(email: string, grants: readonly string[], attachments: readonly Attachment[] = []): Promise<string> {
    const [row] = await db().insert(users).values({ email, displayName: email.split('@')[0]!, approvalStatus: 'Approved', firstLogin: false }).returning();
    if (grants.length) await db().insert(userGrants).values(grants.map((grantId) => ({ userId: row!.id, grantId })));
    if (attachments.length) await db().insert(userAttachments).values(attachments.map((a) => ({ userId: row!.id, ...a })));
    return row!.id;
  }
  const grantsOf = async (uid: string) => (await db().select({ g: userGrants.grantId }).from(userGrants).where(eq(userGrants.userId, uid))).map((r) => r.g).sort();
  const heldCodes = async (uid: string) =>
    (await db().select({ code: userAttachments.code }).from(userAttachments).where(and(eq(userAttachments.userId, uid), eq(userAttachments.kind, 'managed_ship_to_party'))))
      .map((r) => r.code)
      .sort();

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => product?.close());

  it('answers an address it cannot read (/%ff) with a 400 in the one error shape', async () => {
    for (const url of ['/%ff', '/user_api/v1/users/%E0%A4%A/permissions']) {
      const res = await product.app.inject({ method: 'GET', url, headers: bearer(await product.token('manager@example.com')) });
      expect(res.statusCode, url).toBe(400);
      expect(Object.keys(res.json()), url).toEqual(['message']);
    }
  });

  describe('ship-to-party uploads add numbers of the uploader’s plants only', () => {
    it('refuses a number of another plant, of no plant or of nobody alike, and writes nothing', async () => {
      const writer = await makeUser('pm.fi01@example.com', ['PM_write', 'custom_service_admin'], [plantAt('FI01')]);
      await db().insert(shipToParties).values({ code: '0059900001', name: 'Depot of no plant', country: 'FI', address: 'Testikatu 1, 00100 Helsinki' });

      for (const dryRun of [true, false]) {
        // 0059999996 does not exist: refused as the others, so that a dry run does not tell which numbers exist.
        const res = await upload('pm.fi01@example.com', 'shipToPartyCode\n0050010004\n0050030001\n0059900001\n0059999996\n', dryRun);
        expect(res.statusCode, res.body).toBe(dryRun ? 200 : 422);
        expect(res.json().errors).toEqual(
          ['0050030001', '0059900001', '0059999996'].map((code, i) => ({
            line: i + 3,
            column: 'shipToPartyCode',
            value: code,
            message: `Ship-to-party number ${code} is not of one of your plants (FI01); ask a manager to give it to you`,
            code: 'shipToPartyOtherPlant',
            params: { shipToPartyCode: code, plants: 'FI01' },
          })),
        );
      }
      expect(await heldCodes(writer)).toEqual([]);

      // A number of its own plant is added, and is its write scope from then on.
      const own = await upload('pm.fi01@example.com', 'shipToPartyCode\n0050010004\n');
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().shipToParty).toMatchObject({ added: ['0050010004'] });
      expect(await heldCodes(writer)).toEqual(['0050010004']);

      // The seed's PM writer holds no plant (§6 gives PM_write none): it adds any number, up to
      // the §5 maximum, as the upload dialog of §2 is for (decision 0066).
      const [pmWriter] = await db().select().from(users).where(eq(users.email, 'pm.writer@example.com'));
      const any = await upload('pm.writer@example.com', 'shipToPartyCode\n0050030001\n', true);
      expect(any.statusCode, any.body).toBe(200);
      expect(any.json().errors).toEqual([]);
      expect(any.json().shipToParty).toMatchObject({ added: ['0050030001'] });
      expect(pmWriter).toBeDefined();
    });

    it('lets a writer remove a number it added, not one a manager gave, and says which', async () => {
      const writer = await makeUser('pm.remover@example.com', ['PM_write', 'custom_service_admin'], [plantAt('FI01'), { kind: 'ship_to_party', plant: '', code: '0050010001' }]);
      expect((await upload('pm.remover@example.com', 'shipToPartyCode\n0050010004\n')).statusCode).toBe(200);
      expect(await heldCodes(writer)).toEqual(['0050010004']);

      const given = await call('DELETE', 'pm.remover@example.com', '/ship_to_party_codes/0050010001');
      expect(given.statusCode, given.body).toBe(409);
      expect(given.json()).toEqual({
        message: 'Ship-to-party number 0050010001 was given to you by a manager: ask a manager to remove it',
        code: 'shipToPartyGiven',
        params: { shipToPartyCode: '0050010001' },
      });
      const notHeld = await call('DELETE', 'pm.remover@example.com', '/ship_to_party_codes/0050030001');
      expect(notHeld.statusCode).toBe(404);
      expect(notHeld.json()).toMatchObject({ code: 'shipToPartyNotHeld', params: { shipToPartyCode: '0050030001' } });
      expect((await call('DELETE', 'pm.remover@example.com', '/ship_to_party_codes/00%2700')).statusCode).toBe(400);
      // Without the right to write priorities, nothing is removed.
      expect((await call('DELETE', 'mechanic@example.com', '/ship_to_party_codes/0050010004')).statusCode).toBe(403);

      const removed = await call('DELETE', 'pm.remover@example.com', '/ship_to_party_codes/0050010004');
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json()).toEqual({ ship_to_party_codes: ['0050010001'] });
      expect(await heldCodes(writer)).toEqual([]);
      // The number no longer scopes what the writer reads.
      expect((await call('GET', 'pm.remover@example.com', '/ship_to_party_codes')).json()).toEqual({ ship_to_party_codes: ['0050010001'] });
    });

    it('lets the super manager add any number', async () => {
      const res = await upload('manager@example.com', 'shipToPartyCode\n0050030002\n');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().shipToParty).toMatchObject({ added: ['0050030002'] });
    });
  });

  describe('a super manager’s permissions are a super manager’s to change', () => {
    it('refuses a stock admin taking the mechanic role from a read-only super manager of its plant', async () => {
      const target = await makeUser('ro.mechanic@example.com', ['mechanic', 'super_manager_read_only'], [plantAt('FI01')]);
      const refused = await call('PUT', 'stock.admin@example.com', `/users/${target}/permissions`, { grants: ['super_manager_read_only'], attachments: [] });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual({
        message: 'Not allowed: only a super manager may change the permissions of a super manager',
        code: 'superManagerOnly',
        params: { email: 'ro.mechanic@example.com' },
      });
      expect(await grantsOf(target)).toEqual(['mechanic', 'super_manager_read_only']);

      const ok = await call('PUT', 'manager@example.com', `/users/${target}/permissions`, { grants: ['super_manager_read_only'], attachments: [] });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(await grantsOf(target)).toEqual(['super_manager_read_only']);
    });

    it('words the other rank refusals the same way (removal by a user-acceptance manager)', async () => {
      const target = await makeUser('ro.only@example.com', ['super_manager_read_only']);
      const refused = await call('DELETE', 'acceptance@example.com', `/users/${target}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'Not allowed: only a super manager may remove a super manager', code: 'superManagerOnly', params: { email: 'ro.only@example.com' } });
    });
  });

  describe('the permission editor’s ship-to-party numbers', () => {
    it('go to those who may give them, not to a stock admin (who gives none)', async () => {
      const stockAdmin = await call('GET', 'stock.admin@example.com', '/users/grant_options');
      expect(stockAdmin.statusCode).toBe(200);
      expect(stockAdmin.json().editable.attachments).not.toContain('ship_to_party');
      expect(stockAdmin.json().shipToParties).toEqual([]);
      expect(stockAdmin.json().plants.map((p: { code: string }) => p.code)).toEqual(['DE02', 'FI01']);

      const granter = await call('GET', 'acceptance@example.com', '/users/grant_options');
      expect(granter.json().shipToParties).toContainEqual({ code: '0050030001', name: 'Dépôt service Lyon Villette' });
      expect((await call('GET', 'manager@example.com', '/users/grant_options')).json().shipToParties.length).toBeGreaterThanOrEqual(12);
    });
  });

  describe('the permission editor offers on a super manager’s account only what the save allows', () => {
    const NOTHING = { grants: [], attachments: [], plantScopedGrants: [], plantScopedAttachments: [], plants: [] };

    it('opens it read-only to a stock admin and to a PM-rights granter, editable to a super manager', async () => {
      const target = await makeUser('ro.dialog@example.com', ['mechanic', 'super_manager_read_only'], [plantAt('FI01')]);
      for (const editor of ['stock.admin@example.com', 'acceptance@example.com']) {
        const res = await call('GET', editor, `/users/${target}/permissions`);
        expect(res.statusCode, `${editor}: ${res.body}`).toBe(200);
        // The save refuses them whole (superManagerOnly): nothing is offered.
        expect(res.json().editable, editor).toEqual(NOTHING);
        expect(res.json().grants).toEqual(['mechanic', 'super_manager_read_only']);
      }
      const byManager = (await call('GET', 'manager@example.com', `/users/${target}/permissions`)).json();
      expect(byManager.editable.grants).toContain('mechanic');

      // A user of the same plant without a super manager's grants stays editable to the stock admin.
      const plain = await makeUser('plain.dialog@example.com', ['mechanic'], [plantAt('FI01')]);
      const editable = (await call('GET', 'stock.admin@example.com', `/users/${plain}/permissions`)).json().editable;
      expect(editable).toMatchObject({ grants: ['mechanic', 'supervisor'], plantScopedGrants: ['mechanic', 'supervisor'], plants: ['DE02', 'FI01'] });
      // The answer of a save is judged on the grants saved: made read-only super manager, nothing more.
      const made = await call('PUT', 'manager@example.com', `/users/${plain}/permissions`, { grants: ['mechanic', 'super_manager_read_only'], attachments: [plantAt('FI01')] });
      expect(made.statusCode, made.body).toBe(200);
      expect((await call('GET', 'stock.admin@example.com', `/users/${plain}/permissions`)).json().editable).toEqual(NOTHING);
    });
  });

  describe('refused permission changes carry a code and its parameters', () => {
    const FI01 = plantAt('FI01');
    const FR03 = plantAt('FR03');

    it('words the plant-scope and rank refusals (403) in the reader’s language', async () => {
      const twoPlants = await makeUser('two.plants@example.com', [], [FI01, FR03]);
      const plantScoped = await call('PUT', 'stock.admin@example.com', `/users/${twoPlants}/permissions`, { grants: ['mechanic'], attachments: [FI01, FR03] });
      expect(plantScoped.statusCode, plantScoped.body).toBe(403);
      expect(plantScoped.json()).toEqual({
        message: 'Not allowed: you may grant mechanic only for users all of whose plants are yours (DE02, FI01)',
        code: 'grantPlantsNotYours',
        params: { grant: 'mechanic', plants: 'DE02, FI01' },
      });

      const mechanic = await makeUser('coded.mechanic@example.com', ['mechanic'], [FI01]);
      const notGiven = await call('PUT', 'stock.admin@example.com', `/users/${mechanic}/permissions`, { grants: ['mechanic', 'PM_read'], attachments: [FI01] });
      expect(notGiven.json()).toEqual({ message: 'Not allowed: you may not grant PM_read', code: 'grantGiveNotAllowed', params: { grant: 'PM_read' } });
      const outside = await call('PUT', 'stock.admin@example.com', `/users/${mechanic}/permissions`, {
        grants: ['mechanic'],
        attachments: [FI01, { kind: 'storage_location', plant: 'FR03', code: '0001' }],
      });
      expect(outside.json()).toEqual({
        message: 'Not allowed: storage location FR03/0001 is outside your plants (DE02, FI01)',
        code: 'attachmentOutsidePlants',
        params: { kind: 'storage_location', attachment: 'FR03/0001', plants: 'DE02, FI01' },
      });
      const kindNotGiven = await call('PUT', 'stock.admin@example.com', `/users/${mechanic}/permissions`, {
        grants: ['mechanic'],
        attachments: [FI01, { kind: 'work_center', plant: 'FI01', code: 'FI01M001' }],
      });
      expect(kindNotGiven.json()).toMatchObject({ code: 'attachmentAddNotAllowed', params: { kind: 'work_center', attachment: 'FI01/FI01M001' } });

      await makeUser('read.granter@example.com', ['UM_PM_grant_read']);
      const writer = await makeUser('coded.writer@example.com', ['PM_write']);
      const number = { kind: 'ship_to_party', plant: '', code: '0050010001' };
      const widened = await call('PUT', 'read.granter@example.com', `/users/${writer}/permissions`, { grants: ['PM_write'], attachments: [number] });
      expect(widened.statusCode).toBe(403);
      expect(widened.json()).toEqual({
        message: 'Not allowed: you may not change the ship-to-party numbers of a user who writes or uploads priorities (you give PM read only)',
        code: 'shipToPartyOfPriorityWriter',
        params: {},
      });
      // Several refused items: the English names each, the code the first one.
      const taken = await call('PUT', 'read.granter@example.com', `/users/${writer}/permissions`, { grants: [], attachments: [number] });
      expect(taken.json()).toEqual({
        message: 'Not allowed: you may not remove PM_write; you may not change the ship-to-party numbers of a user who writes or uploads priorities (you give PM read only)',
        code: 'grantRemoveNotAllowed',
        params: { grant: 'PM_write' },
      });
      expect(await grantsOf(writer)).toEqual(['PM_write']);
    });

    it('words an attachment the user’s roles cannot hold, or one that does not exist (422)', async () => {
      const supervisor = await makeUser('coded.supervisor@example.com', ['supervisor'], [FI01]);
      const noHolder = await call('PUT', 'manager@example.com', `/users/${supervisor}/permissions`, {
        grants: ['supervisor'],
        attachments: [FI01, { kind: 'work_center', plant: 'FI01', code: 'FI01M001' }],
      });
      expect(noHolder.statusCode).toBe(422);
      expect(noHolder.json()).toEqual({
        message: 'work center FI01/FI01M001 can be attached only to mechanic',
        code: 'attachmentNeedsHolder',
        params: { kind: 'work_center', attachment: 'FI01/FI01M001', holders: 'mechanic' },
      });
      const unknown = await call('PUT', 'manager@example.com', `/users/${supervisor}/permissions`, {
        grants: ['supervisor', 'mechanic'],
        attachments: [FI01, { kind: 'work_center', plant: 'FI01', code: 'NOPE' }, { kind: 'work_center', plant: 'FI01', code: 'NOPE2' }],
      });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json()).toEqual({
        message: 'Unknown work center FI01/NOPE, work center FI01/NOPE2',
        code: 'attachmentUnknown',
        params: { kind: 'work_center', attachment: 'FI01/NOPE' },
      });
    });
  });

  describe('a user’s own ship-to-party numbers are in their history', () => {
    it('records an upload’s numbers and a removal against the user, each with its number', async () => {
      const writer = await makeUser('pm.history@example.com', ['PM_write']);
      expect((await upload('pm.history@example.com', 'shipToPartyCode\n0050010004\n')).statusCode).toBe(200);
      const removed = await call('DELETE', 'pm.history@example.com', '/ship_to_party_codes/0050010004');
      expect(removed.statusCode, removed.body).toBe(200);

      const history = await call('GET', 'manager@example.com', `/audit_log?userId=${writer}&page=1&maxResults=10`);
      expect(history.statusCode, history.body).toBe(200);
      // Newest first; the first sign-in (user.linkIdentity) is there too.
      const entries = (history.json().items as Array<{ action: string }>).filter((entry) => entry.action.startsWith('shipToParty.'));
      expect(entries).toMatchObject([
        { action: 'shipToParty.remove', actor_email: 'pm.history@example.com', target_type: 'user', target_id: writer, before: { managedShipToPartyNumber: '0050010004' }, after: null },
        { action: 'shipToParty.add', actor_email: 'pm.history@example.com', target_type: 'user', target_id: writer, after: { managedShipToPartyNumber: '0050010004' } },
      ]);
    });
  });

  describe('one priority edit bounds its codes', () => {
    it('refuses a code over 40 characters or with other characters (400), without echoing it', async () => {
      const long = '0'.repeat(100_000);
      const res = await call('PUT', 'pm.writer@example.com', '/uap_priority', { shipToPartyCode: long, accessPointId: 'FI-AP-10231', priority: 3 });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('body.shipToPartyCode: Field shipToPartyCode must be 40 characters or less');
      expect(res.body.length).toBeLessThan(500);

      const odd = await call('PUT', 'pm.writer@example.com', '/uap_priority', { shipToPartyCode: '0050010001', accessPointId: 'FI AP <10231>', priority: 3 });
      expect(odd.statusCode).toBe(400);
      expect(odd.json().message).toBe('body.accessPointId: Field accessPointId may hold letters, digits and / . _ - only');

      // Codes as they are still pass: a known pair of the writer's is changed.
      const [point] = await db().execute(sql`select access_point_id as id, priority from access_point_priorities where ship_to_party_code = '0050010001' order by access_point_id limit 1`).then((r) => (r as unknown as { rows: Array<{ id: string; priority: number }> }).rows);
      const ok = await call('PUT', 'pm.writer@example.com', '/uap_priority', { shipToPartyCode: ' 0050010001 ', accessPointId: point!.id, priority: point!.priority });
      expect(ok.statusCode, ok.body).toBe(200);
    });
  });

  describe('the pending approval list', () => {
    it(`answers at most ${PENDING_APPROVALS_MAX}, oldest first, and says when more wait`, async () => {
      const made = await db()
        .insert(users)
        .values(Array.from({ length: PENDING_APPROVALS_MAX + 1 }, (_, i) => ({ email: `waiting.${i}@example.com`, displayName: `Waiting ${i}`, approvalStatus: 'Pending' })))
        .returning({ id: users.id, email: users.email });
      await db().insert(approvalRequests).values(made.map((u) => ({ requestingUserId: u.id, requestingUserEmail: u.email, managerEmail: 'support@example.com' })));
      try {
        const res = await call('GET', 'acceptance@example.com', '/approval_requests/pending');
        expect(res.statusCode).toBe(200);
        const items = res.json() as Array<{ request_id: string }>;
        expect(items).toHaveLength(PENDING_APPROVALS_MAX);
        expect(res.headers['x-has-more']).toBe('true');
        // The oldest ones, oldest first (the seed's waiting users before the many made now).
        const oldest = await db()
          .select({ id: approvalRequests.id })
          .from(approvalRequests)
          .where(eq(approvalRequests.approvalStatus, 'Pending'))
          .orderBy(asc(approvalRequests.createdAt), asc(approvalRequests.id))
          .limit(PENDING_APPROVALS_MAX);
        expect(items.map((i) => i.request_id)).toEqual(oldest.map((r) => r.id));
        expect(items.map((i) => i.request_id)).toContain((await db().select().from(approvalRequests).innerJoin(users, eq(users.id, approvalRequests.requestingUserId)).where(eq(users.email, 'pending@example.com')))[0]!.approval_requests.id);
      } finally {
        await db().delete(users).where(inArray(users.id, made.map((u) => u.id)));
      }
      const all = await call('GET', 'acceptance@example.com', '/approval_requests/pending');
      expect(all.headers['x-has-more']).toBe('false');
      expect(all.json().length).toBeLessThan(PENDING_APPROVALS_MAX);
    });
  });

  describe('the last active super manager stays', () => {
    /** Only the users of `keep` stay active super managers while `work` runs; the others' dates come back after. */
    async function withOnly(keep: string[], work: () => Promise<void>) {
      const others = await db()
        .select({ id: users.id, expirationDate: users.expirationDate })
        .from(users)
        .innerJoin(userGrants, and(eq(userGrants.userId, users.id), eq(userGrants.grantId, 'super_manager')));
      const expired = others.filter((u) => !keep.includes(u.id));
      for (const u of expired) await db().update(users).set({ expirationDate: '2000-01-01' }).where(eq(users.id, u.id));
      try {
        await work();
      } finally {
        for (const u of expired) await db().update(users).set({ expirationDate: u.expirationDate }).where(eq(users.id, u.id));
      }
    }
    const asEditor = (id: string, email: string): CurrentUser => ({
      id,
      email,
      displayName: email,
      approvalStatus: 'Approved',
      expirationDate: null,
      grants: ['super_manager'],
      attachments: [],
      plants: [],
    });

    it('refuses the second of two super managers removing each other (its request began before the first removal)', async () => {
      const one = await makeUser('sm.one@example.com', ['super_manager']);
      const two = await makeUser('sm.two@example.com', ['super_manager']);
      await withOnly([one, two], async () => {
        // Two's request was let in while two still existed; one's removal of two committed first.
        const stale = asEditor(two, 'sm.two@example.com');
        const removed = await call('DELETE', 'sm.one@example.com', `/users/${two}`);
        expect(removed.statusCode, removed.body).toBe(200);

        const last = { statusCode: 409, extra: { code: 'lastSuperManager', params: { email: 'sm.one@example.com' } } };
        await expect(db().transaction((tx) => updatePermissions(tx, stale, one, { grants: [], attachments: [] }))).rejects.toMatchObject({
          ...last,
          message: 'Not allowed: sm.one@example.com is the last active super manager; make another user super manager first, then take the super manager role from them',
        });
        await expect(db().transaction((tx) => removeUser(tx, stale, one))).rejects.toMatchObject({
          ...last,
          message: 'Not allowed: sm.one@example.com is the last active super manager; make another user super manager first, then remove them',
        });
        expect(await grantsOf(one)).toEqual(['super_manager']);
        expect(await db().select({ id: users.id }).from(users).where(eq(users.id, one))).toEqual([{ id: one }]);
      });
    });

    it('refuses a last day already past for the last active super manager (two super managers expiring each other)', async () => {
      const five = await makeUser('sm.five@example.com', ['super_manager']);
      const six = await makeUser('sm.six@example.com', ['super_manager']);
      await withOnly([five, six], async () => {
        // Six's request was let in while six was active; five's expiry of six committed first.
        const stale = asEditor(six, 'sm.six@example.com');
        const expired = await call('PUT', 'sm.five@example.com', `/users/${six}/expiration_date`, { expirationDate: '2001-01-01' });
        expect(expired.statusCode, expired.body).toBe(200);
        await expect(db().transaction((tx) => updateExpiration(tx, stale, five, '2001-01-01'))).rejects.toMatchObject({
          statusCode: 409,
          extra: { code: 'lastSuperManager', params: { email: 'sm.five@example.com' } },
        });
        // A last day ahead ends nothing now: allowed.
        const ahead = await db().transaction((tx) => updateExpiration(tx, stale, five, '2999-12-31'));
        expect(ahead.expirationDate).toBe('2999-12-31');
        await db().update(users).set({ expirationDate: null }).where(inArray(users.id, [five, six]));
      });
    });

    // The removal in flight is a session of this test that holds the turn and has removed the
    // caller; without the turn the caller's removal went through at once and left nobody.
    // PostgreSQL only: PGlite has one session.
    it.skipIf(engine !== 'postgres')('makes a removal wait for a removal in flight, then refuses it (409)', async () => {
      const three = await makeUser('sm.three@example.com', ['super_manager']);
      const four = await makeUser('sm.four@example.com', ['super_manager']);
      // Signed in before: the first call binds the identity (a write that would wait on its own).
      expect((await call('GET', 'sm.three@example.com', '/user/profile')).statusCode).toBe(200);
      await withOnly([three, four], async () => {
        const inFlight = new pg.Client({ connectionString: product.database.databaseUrl });
        await inFlight.connect();
        try {
          await inFlight.query('begin');
          await inFlight.query("select pg_advisory_xact_lock(hashtext('super_managers'))");
          await inFlight.query('delete from users where id = $1', [three]);
          const answer = call('DELETE', 'sm.three@example.com', `/users/${four}`);
          let waiting = 0;
          for (let i = 0; i < 200 && waiting === 0; i += 1) {
            const { rows } = await inFlight.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
            waiting = rows[0]!.n;
            if (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 50));
          }
          expect(waiting, 'the removal waits for the one in flight').toBe(1);
          await inFlight.query('commit');
          const res = await answer;
          expect(res.statusCode, res.body).toBe(409);
          expect(res.json()).toMatchObject({ code: 'lastSuperManager', params: { email: 'sm.four@example.com' } });
          expect(await grantsOf(four)).toEqual(['super_manager']);
        } finally {
          await inFlight.query('rollback').catch(() => undefined);
          await inFlight.end();
        }
      });
    });
  });
});
