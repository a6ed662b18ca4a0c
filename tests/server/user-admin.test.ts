/**
 * §6 user administration through the real app: the grant matrix (each granting role × each
 * grant and attachment kind: allowed or 403 naming it), user lists, expiration, removal,
 * approval requests and the audit-log row every change writes in its own transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { ATTACHMENT_KINDS, GRANTS, type AttachmentKind, type Grant } from '../../src/domain/permissions';
import { auditLog, userAttachments, userGrants, users } from '../../server/db/schema';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

type Attachment = { kind: AttachmentKind; plant: string; code: string };

/** The editors of the matrix, one grant each (stock_admin holds FI01 and DE02). */
const EDITORS = ['super_manager', 'super_manager_read_only', 'UM_PM_grant_read', 'UM_PM_grant_write', 'stock_admin', 'UM_user_acceptance', 'mechanic'] as const;
type Editor = (typeof EDITORS)[number];

/**
 * §6 written out by hand (not derived from the code under test): what each editor may change.
 * stock_admin: the stock-count roles and storage locations, for users and plants of its plants.
 */
const MAY_GRANT: Record<Editor, readonly Grant[]> = {
  super_manager: GRANTS,
  super_manager_read_only: [],
  UM_PM_grant_read: ['PM_read'],
  UM_PM_grant_write: ['PM_write'],
  stock_admin: ['mechanic', 'supervisor'],
  UM_user_acceptance: [],
  mechanic: [],
};
const MAY_ATTACH: Record<Editor, readonly AttachmentKind[]> = {
  super_manager: ATTACHMENT_KINDS,
  super_manager_read_only: [],
  UM_PM_grant_read: ['plant', 'planner_group', 'ship_to_party', 'work_center'],
  UM_PM_grant_write: ['plant', 'planner_group', 'ship_to_party', 'managed_ship_to_party', 'work_center'],
  stock_admin: ['storage_location'],
  UM_user_acceptance: [],
  mechanic: [],
};

/** One attachment of each kind that the attachment target may carry and that exists in the seed. */
const NEW_ATTACHMENT: Record<AttachmentKind, Attachment> = {
  plant: { kind: 'plant', plant: 'DE02', code: 'DE02' },
  planner_group: { kind: 'planner_group', plant: 'FI01', code: 'F10' },
  work_center: { kind: 'work_center', plant: 'FI01', code: 'FI01M001' },
  storage_location: { kind: 'storage_location', plant: 'FI01', code: '0001' },
  ship_to_party: { kind: 'ship_to_party', plant: '', code: '0050010001' },
  managed_ship_to_party: { kind: 'managed_ship_to_party', plant: '', code: '0050010001' },
};

const FI01: Attachment = { kind: 'plant', plant: 'FI01', code: 'FI01' };

describe.each(ENGINES)('user administration on %s', (engine) => {
  let product: TestProduct;
  const tokens = new Map<string, string>();
  const ids = new Map<string, string>();

  const token = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, await product.token(email));
    return tokens.get(email)!;
  };
  const call = async (method: 'GET' | 'PUT' | 'POST' | 'DELETE', email: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    product.app.inject({ method, url: `/user_api/v1${url}`, headers: { ...bearer(await token(email)), ...headers }, payload: payload as never });

  /** A user made straight in the database (setup, not under test). */
  async function makeUser(email: string, grants: readonly string[], attachments: readonly Attachment[] = []): Promise<string> {
    const db = product.database.db;
    const [row] = await db.insert(users).values({ email, displayName: email.split('@')[0]!, approvalStatus: 'Approved', firstLogin: false }).returning();
    if (grants.length) await db.insert(userGrants).values(grants.map((grantId) => ({ userId: row!.id, grantId })));
    if (attachments.length) await db.insert(userAttachments).values(attachments.map((a) => ({ userId: row!.id, ...a })));
    ids.set(email, row!.id);
    return row!.id;
  }
  async function resetUser(id: string, grants: readonly string[], attachments: readonly Attachment[]) {
    const db = product.database.db;
    await db.delete(userGrants).where(eq(userGrants.userId, id));
    await db.delete(userAttachments).where(eq(userAttachments.userId, id));
    if (grants.length) await db.insert(userGrants).values(grants.map((grantId) => ({ userId: id, grantId })));
    if (attachments.length) await db.insert(userAttachments).values(attachments.map((a) => ({ userId: id, ...a })));
  }
  const editorEmail = (editor: Editor) => `editor.${editor.toLowerCase().replaceAll('_', '-')}@example.com`;
  // In the order they were written: the last row is the newest (a table has no order of its own).
  // A user's first sign-in records its identity link (#20, tests/server/auth.test.ts); these tests look at the changes.
  const auditRows = (targetId: string) =>
    product.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, targetId), ne(auditLog.action, 'user.linkIdentity')))
      .orderBy(asc(auditLog.id));

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const editor of EDITORS) {
      await makeUser(editorEmail(editor), [editor], editor === 'stock_admin' ? [FI01, { kind: 'plant', plant: 'DE02', code: 'DE02' }] : editor === 'mechanic' ? [FI01] : []);
    }
  });
  afterAll(async () => product?.close());

  describe('a user named by e-mail, for those who give PM rights and list no users (§6)', () => {
    let target = '';
    beforeAll(async () => {
      target = await makeUser('named.colleague@example.com', ['mechanic'], [FI01]);
    });

    it('finds the user in any case for a granter, as the lists show them; says plainly when there is none', async () => {
      const found = await call('GET', editorEmail('UM_PM_grant_read'), `/users/by_email?email=${encodeURIComponent(' Named.Colleague@Example.com ')}`);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json()).toMatchObject({ uid: target, email: 'named.colleague@example.com', permissions: ['mechanic'], plants: ['FI01'] });
      // A granter lists no users: the lists stay closed to them.
      expect((await call('GET', editorEmail('UM_PM_grant_read'), '/users')).statusCode).toBe(403);
      const none = await call('GET', editorEmail('UM_PM_grant_write'), '/users/by_email?email=nobody.here%40example.com');
      expect(none.statusCode).toBe(404);
      expect(none.json().message).toBe('No user with the e-mail address nobody.here@example.com');
      const malformed = await call('GET', editorEmail('UM_PM_grant_write'), '/users/by_email?email=not-an-address');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toMatch(/email must be an e-mail address/);
    });

    it('is scoped as the permissions read: a stock admin finds users of its plants only, others may not ask', async () => {
      await makeUser('far.away@example.com', ['mechanic'], [{ kind: 'plant', plant: 'FR03', code: 'FR03' }]);
      const outside = await call('GET', editorEmail('stock_admin'), '/users/by_email?email=far.away%40example.com');
      expect(outside.statusCode).toBe(404);
      // Not told apart from a user who does not exist.
      expect(outside.json().message).toBe('No user with the e-mail address far.away@example.com');
      expect((await call('GET', editorEmail('stock_admin'), '/users/by_email?email=named.colleague%40example.com')).statusCode).toBe(200);
      const mechanic = await call('GET', editorEmail('mechanic'), '/users/by_email?email=named.colleague%40example.com');
      expect(mechanic.statusCode).toBe(403);
    });
  });

  describe('the grant matrix (§6)', () => {
    // Grants: the target has no grant and plant FI01 (a user of stock_admin's plants).
    const GRANT_TARGET_BASE = { grants: [] as string[], attachments: [FI01] };
    // Attachments: the target carries every kind (mechanic, supervisor, PM_write) in FI01.
    const ATTACH_TARGET_BASE = { grants: ['PM_write', 'mechanic', 'supervisor'], attachments: [FI01] };
    let grantTarget = '';
    let attachTarget = '';

    beforeAll(async () => {
      grantTarget = await makeUser('grant.target@example.com', GRANT_TARGET_BASE.grants, GRANT_TARGET_BASE.attachments);
      attachTarget = await makeUser('attach.target@example.com', ATTACH_TARGET_BASE.grants, ATTACH_TARGET_BASE.attachments);
    });

    for (const editor of EDITORS) {
      for (const grant of GRANTS) {
        const allowed = MAY_GRANT[editor].includes(grant);
        it(`${editor} ${allowed ? 'may' : 'may not'} grant ${grant}`, async () => {
          await resetUser(grantTarget, GRANT_TARGET_BASE.grants, GRANT_TARGET_BASE.attachments);
          const res = await call('PUT', editorEmail(editor), `/users/${grantTarget}/permissions`, { grants: [grant], attachments: [FI01] });
          const after = await call('GET', 'manager@example.com', `/users/${grantTarget}/permissions`);
          if (allowed) {
            expect(res.statusCode, res.body).toBe(200);
            expect(res.json().grants).toEqual([grant]);
            expect(after.json().grants).toEqual([grant]);
          } else {
            expect(res.statusCode, res.body).toBe(403);
            // The refusal names what is not allowed: the grant, or the capability the role lacks.
            expect(res.json().message).toMatch(new RegExp(`${grant}|users\\.updatePermissions`));
            expect(after.json().grants).toEqual([]);
          }
        });
      }
      for (const kind of ATTACHMENT_KINDS) {
        const allowed = MAY_ATTACH[editor].includes(kind);
        it(`${editor} ${allowed ? 'may' : 'may not'} attach ${kind}`, async () => {
          // A PM-read granter gives ship-to-party numbers to PM readers, not to priority writers (below).
          const base = editor === 'UM_PM_grant_read' && kind === 'ship_to_party' ? { ...ATTACH_TARGET_BASE, grants: ['PM_read', 'mechanic', 'supervisor'] } : ATTACH_TARGET_BASE;
          await resetUser(attachTarget, base.grants, base.attachments);
          const wanted = [...base.attachments, NEW_ATTACHMENT[kind]];
          const res = await call('PUT', editorEmail(editor), `/users/${attachTarget}/permissions`, { grants: base.grants, attachments: wanted });
          const after = (await call('GET', 'manager@example.com', `/users/${attachTarget}/permissions`)).json();
          if (allowed) {
            expect(res.statusCode, res.body).toBe(200);
            expect(after.attachments).toContainEqual(NEW_ATTACHMENT[kind]);
          } else {
            expect(res.statusCode, res.body).toBe(403);
            expect(res.json().message).toMatch(new RegExp(`${kind.replaceAll('_', ' ')}|users\\.updatePermissions`));
            expect(after.attachments).toEqual([FI01]);
          }
        });
      }
    }

    it('removing is checked like granting: a PM-read granter may not take away PM_write', async () => {
      await resetUser(grantTarget, ['PM_write'], [FI01]);
      const res = await call('PUT', editorEmail('UM_PM_grant_read'), `/users/${grantTarget}/permissions`, { grants: [], attachments: [FI01] });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Not allowed: you may not remove PM_write');
      const ok = await call('PUT', editorEmail('UM_PM_grant_write'), `/users/${grantTarget}/permissions`, { grants: [], attachments: [FI01] });
      expect(ok.statusCode).toBe(200);
      // Nor widen what a priority writer may change: ship-to-party numbers are their write scope too.
      await resetUser(grantTarget, ['PM_write'], [FI01]);
      const widened = await call('PUT', editorEmail('UM_PM_grant_read'), `/users/${grantTarget}/permissions`, {
        grants: ['PM_write'],
        attachments: [FI01, NEW_ATTACHMENT.ship_to_party],
      });
      expect(widened.statusCode).toBe(403);
      expect(widened.json().message).toBe('Not allowed: you may not change the ship-to-party numbers of a user who writes or uploads priorities (you give PM read only)');
    });

    it('keeps stock_admin inside its plants: storage locations and users of other plants are refused', async () => {
      await resetUser(attachTarget, ATTACH_TARGET_BASE.grants, ATTACH_TARGET_BASE.attachments);
      const foreign = await call('PUT', editorEmail('stock_admin'), `/users/${attachTarget}/permissions`, {
        grants: ATTACH_TARGET_BASE.grants,
        attachments: [FI01, { kind: 'storage_location', plant: 'FR03', code: '0001' }],
      });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().message).toContain('storage location FR03/0001 is outside your plants (DE02, FI01)');

      const outsider = await makeUser('outsider@example.com', ['mechanic'], [{ kind: 'plant', plant: 'FR03', code: 'FR03' }]);
      const read = await call('GET', editorEmail('stock_admin'), `/users/${outsider}/permissions`);
      expect(read.statusCode).toBe(404);
      const write = await call('PUT', editorEmail('stock_admin'), `/users/${outsider}/permissions`, { grants: ['supervisor'], attachments: [] });
      expect(write.statusCode).toBe(404);
      expect((await call('GET', 'manager@example.com', `/users/${outsider}/permissions`)).json().grants).toEqual(['mechanic']);
      // Nor does it read another plant's planner groups, work centers and storage locations.
      expect((await call('GET', editorEmail('stock_admin'), '/users/plant_options?plant=FR03')).statusCode).toBe(404);
      expect((await call('GET', editorEmail('stock_admin'), '/users/plant_options?plant=FI01')).statusCode).toBe(200);
      expect((await call('GET', 'manager@example.com', '/users/plant_options?plant=FR03')).statusCode).toBe(200);
    });

    it('attaches only to the roles §6 attaches to (422), and never blames old inconsistencies on the editor', async () => {
      await resetUser(grantTarget, ['supervisor'], [FI01]);
      const wrong = await call('PUT', 'manager@example.com', `/users/${grantTarget}/permissions`, {
        grants: ['supervisor'],
        attachments: [FI01, NEW_ATTACHMENT.work_center],
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().message).toBe('work center FI01/FI01M001 can be attached only to mechanic');
      // Taking the mechanic role away: its work center leaves with it, in the same change and its
      // audit row — also when the editor (a stock admin) may not edit work centers themselves.
      for (const editor of ['manager@example.com', editorEmail('stock_admin')]) {
        await resetUser(attachTarget, ['mechanic'], [FI01, NEW_ATTACHMENT.work_center]);
        const role = await call('PUT', editor, `/users/${attachTarget}/permissions`, { grants: ['supervisor'], attachments: [FI01, NEW_ATTACHMENT.work_center] });
        expect(role.statusCode, `${editor}: ${role.body}`).toBe(200);
        expect(role.json()).toMatchObject({ grants: ['supervisor'], attachments: [FI01] });
      }
      const [audit] = (await product.database.db
        .select({ before: auditLog.before, after: auditLog.after })
        .from(auditLog)
        .where(and(eq(auditLog.targetId, attachTarget), eq(auditLog.action, 'user.updatePermissions')))
        .orderBy(desc(auditLog.id))
        .limit(1)) as Array<{ before: { attachments: unknown[] }; after: { attachments: unknown[] } }>;
      expect(audit!.before.attachments).toContainEqual(NEW_ATTACHMENT.work_center);
      expect(audit!.after.attachments).not.toContainEqual(NEW_ATTACHMENT.work_center);
      // Taking the last plant-holding role away (its plant leaves with it) is saved, and answered.
      await resetUser(attachTarget, ['mechanic'], [FI01, NEW_ATTACHMENT.work_center]);
      const gone = await call('PUT', editorEmail('stock_admin'), `/users/${attachTarget}/permissions`, { grants: [], attachments: [FI01, NEW_ATTACHMENT.work_center] });
      expect(gone.statusCode, gone.body).toBe(200);
      expect(gone.json()).toMatchObject({ grants: [], attachments: [] });
      expect((await call('GET', 'manager@example.com', `/users/${attachTarget}/permissions`)).json().grants).toEqual([]);
      // A stock admin still may not take a work center away on its own.
      await resetUser(attachTarget, ['mechanic'], [FI01, NEW_ATTACHMENT.work_center]);
      const alone = await call('PUT', editorEmail('stock_admin'), `/users/${attachTarget}/permissions`, { grants: ['mechanic'], attachments: [FI01] });
      expect(alone.statusCode).toBe(403);
      // grantTarget held FI01 with no holder before; adding PM_read leaves it alone.
      await resetUser(grantTarget, [], [FI01]);
      expect((await call('PUT', 'manager@example.com', `/users/${grantTarget}/permissions`, { grants: ['PM_read'], attachments: [FI01] })).statusCode).toBe(200);
    });

    it('a change made from a form opened before another manager’s save is refused (412, If-Match) instead of undoing that save', async () => {
      await resetUser(grantTarget, ['PM_read'], [FI01]);
      const opened = await call('GET', 'manager@example.com', `/users/${grantTarget}/permissions`);
      const version = opened.headers.etag as string;
      expect(version).toMatch(/^"[\w-]{22}"$/);
      // Another manager adds PM_write meanwhile.
      const other = await call('PUT', editorEmail('UM_PM_grant_write'), `/users/${grantTarget}/permissions`, { grants: ['PM_read', 'PM_write'], attachments: [FI01] }, { 'if-match': version });
      expect(other.statusCode, other.body).toBe(200);
      expect(other.headers.etag).not.toBe(version);
      // The first form, saved with what it was opened from: refused, and nothing changed.
      const stale = await call('PUT', 'manager@example.com', `/users/${grantTarget}/permissions`, { grants: ['PM_read', 'PM_upload_add'], attachments: [FI01] }, { 'if-match': version });
      expect(stale.statusCode).toBe(412);
      expect(stale.json().message).toContain('were changed by someone else after you opened them');
      expect(stale.json().code).toBe('permissionsChangedMeanwhile');
      const now = await call('GET', 'manager@example.com', `/users/${grantTarget}/permissions`);
      expect(now.json().grants).toEqual(['PM_read', 'PM_write']);
      expect(now.headers.etag).toBe(other.headers.etag);
      // Opened again: the change goes through. Without If-Match (another client), as before.
      expect((await call('PUT', 'manager@example.com', `/users/${grantTarget}/permissions`, { grants: ['PM_read', 'PM_write', 'PM_upload_add'], attachments: [FI01] }, { 'if-match': now.headers.etag as string })).statusCode).toBe(200);
      expect((await call('PUT', 'manager@example.com', `/users/${grantTarget}/permissions`, { grants: ['PM_read'], attachments: [FI01] })).statusCode).toBe(200);
    });

    it('refuses unknown codes, malformed attachments and one’s own permissions', async () => {
      await resetUser(attachTarget, ATTACH_TARGET_BASE.grants, ATTACH_TARGET_BASE.attachments);
      const unknown = await call('PUT', 'manager@example.com', `/users/${attachTarget}/permissions`, {
        grants: ATTACH_TARGET_BASE.grants,
        attachments: [FI01, { kind: 'work_center', plant: 'FI01', code: 'NOPE' }],
      });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().message).toBe('Unknown work center FI01/NOPE');
      const shape = await call('PUT', 'manager@example.com', `/users/${attachTarget}/permissions`, {
        grants: ATTACH_TARGET_BASE.grants,
        attachments: [{ kind: 'work_center', plant: '', code: 'FI01M001' }],
      });
      expect(shape.statusCode).toBe(400);
      expect(shape.json().message).toContain('needs a plant');
      const badGrant = await call('PUT', 'manager@example.com', `/users/${attachTarget}/permissions`, { grants: ['god'], attachments: [] });
      expect(badGrant.statusCode).toBe(400);
      const self = await call('PUT', editorEmail('UM_PM_grant_read'), `/users/${ids.get(editorEmail('UM_PM_grant_read'))}/permissions`, {
        grants: ['UM_PM_grant_read', 'PM_read'],
        attachments: [],
      });
      expect(self.statusCode).toBe(403);
      expect(self.json().message).toContain('your own permissions');
      // The own id in capitals is the same account (PostgreSQL matches a uuid in either case).
      const shouted = await call('PUT', editorEmail('UM_PM_grant_read'), `/users/${ids.get(editorEmail('UM_PM_grant_read'))!.toUpperCase()}/permissions`, {
        grants: ['UM_PM_grant_read', 'PM_read'],
        attachments: [],
      });
      expect(shouted.statusCode).toBe(403);
      expect(shouted.json().message).toContain('your own permissions');
    });

    it('offers each editor only what it may change', async () => {
      const scopes = Object.fromEntries(
        await Promise.all(EDITORS.map(async (editor) => [editor, (await call('GET', editorEmail(editor), `/users/${attachTarget}/permissions`)).json()] as const)),
      );
      expect([...scopes.super_manager.editable.grants].sort()).toEqual([...GRANTS].sort());
      expect(scopes.super_manager_read_only.editable.grants).toEqual([]);
      expect(scopes.UM_PM_grant_read.editable).toMatchObject({ grants: ['PM_read'], attachments: expect.arrayContaining(['plant', 'ship_to_party']) });
      expect(scopes.stock_admin.editable).toMatchObject({ grants: ['mechanic', 'supervisor'], attachments: ['storage_location'], plants: ['DE02', 'FI01'] });
      expect(scopes.mechanic.message).toContain('users.readPermissions');
      expect(scopes.UM_user_acceptance.message).toContain('users.readPermissions');
    });

    it('writes one audit row per change with who, before and after; a repeat with the same key replays', async () => {
      await resetUser(grantTarget, [], [FI01]);
      const before = (await auditRows(grantTarget)).length;
      const key = { 'idempotency-key': 'grant-target-pm-read-1' };
      const first = await call('PUT', editorEmail('UM_PM_grant_read'), `/users/${grantTarget}/permissions`, { grants: ['PM_read'], attachments: [FI01] }, key);
      const again = await call('PUT', editorEmail('UM_PM_grant_read'), `/users/${grantTarget}/permissions`, { grants: ['PM_read'], attachments: [FI01] }, key);
      expect(first.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      const rows = await auditRows(grantTarget);
      expect(rows).toHaveLength(before + 1);
      const row = rows.at(-1)!;
      expect(row).toMatchObject({ actorEmail: editorEmail('UM_PM_grant_read'), action: 'user.updatePermissions', targetType: 'user' });
      expect(row.before).toEqual({ grants: [], attachments: [FI01] });
      expect(row.after).toEqual({ grants: ['PM_read'], attachments: [FI01] });
      // No change, no row.
      await call('PUT', editorEmail('UM_PM_grant_read'), `/users/${grantTarget}/permissions`, { grants: ['PM_read'], attachments: [FI01] });
      expect(await auditRows(grantTarget)).toHaveLength(before + 1);
      // The same key and body for another user is another request: 422, and that user is unchanged.
      const other = await makeUser('idempotency.other@example.com', [], [FI01]);
      const elsewhere = await call('PUT', editorEmail('UM_PM_grant_read'), `/users/${other}/permissions`, { grants: ['PM_read'], attachments: [FI01] }, key);
      expect(elsewhere.statusCode, elsewhere.body).toBe(422);
      expect(elsewhere.json().message).toBe('This Idempotency-Key was already used for a different request');
      expect(await auditRows(other)).toHaveLength(0);
    });
  });

  describe('lists', () => {
    it('pages all users, searches by e-mail or name, and refuses roles without the list', async () => {
      const first = await call('GET', 'acceptance@example.com', '/users?maxResults=5');
      expect(first.statusCode).toBe(200);
      const page = first.json();
      expect(page).toMatchObject({ page: 1, has_prev: false, has_next: true });
      expect(page.items).toHaveLength(5);
      expect(page.pages).toBe(Math.ceil(page.total / 5));
      const emails = page.items.map((u: { email: string }) => u.email);
      expect(emails).toEqual([...emails].sort());
      const second = (await call('GET', 'acceptance@example.com', '/users?maxResults=5&page=2')).json();
      expect(second.has_prev).toBe(true);
      expect(second.items[0].email > emails[4]).toBe(true);

      const search = (await call('GET', 'manager@example.com', '/users?query=Koskinen')).json();
      expect(search.items.map((u: { email: string }) => u.email)).toEqual(['manager@example.com']);
      expect(search.items[0]).toMatchObject({ displayName: 'Helena Koskinen', permissions: ['super_manager'], approvalStatus: 'Approved', isExpired: false });
      const literal = (await call('GET', 'manager@example.com', '/users?query=%25')).json();
      expect(literal.items).toEqual([]);
      // Accents are folded on both sides: "angstrom" finds Ångström, "BJØRN" Bjørn, and the typed accent finds the plain name.
      const uid = await makeUser('j.a@example.com', ['mechanic']);
      await product.database.db.update(users).set({ displayName: 'Jörg Ångström-Bjørnstad' }).where(eq(users.id, uid));
      for (const query of ['angstrom', 'ÅNGSTRÖM', 'jorg', 'bjørn', 'BJORNSTAD']) {
        const found = (await call('GET', 'manager@example.com', `/users?query=${encodeURIComponent(query)}`)).json();
        expect(found.items.map((u: { email: string }) => u.email), query).toEqual(['j.a@example.com']);
      }
      // The seed's Lukas Müller is found as the user types it without the umlaut.
      expect((await call('GET', 'manager@example.com', '/users?query=muller')).json().items.map((u: { email: string }) => u.email)).toContain('lukas.mueller@lift.example');
      expect((await call('GET', 'manager@example.com', `/users?query=${encodeURIComponent('Kóskinen')}`)).json().items.map((u: { email: string }) => u.email)).toEqual(['manager@example.com']);

      expect((await call('GET', 'mechanic@example.com', '/users')).statusCode).toBe(403);
      expect((await call('GET', 'stock.admin@example.com', '/users')).statusCode).toBe(403);
      expect((await call('GET', 'manager@example.com', '/users?page=0')).statusCode).toBe(400);
    });

    it('lists only approved users in the approved tab, and a stock admin only users of its plants', async () => {
      const all = (await call('GET', 'manager@example.com', '/users?maxResults=100&query=pending')).json();
      expect(all.items.map((u: { email: string }) => u.email)).toContain('pending@example.com');
      const approved = (await call('GET', 'viewer@example.com', '/users/approved?maxResults=100&query=pending')).json();
      expect(approved.items).toEqual([]);

      const mine = (await call('GET', 'stock.admin@example.com', '/users/my_plant?maxResults=100')).json();
      expect(mine.items.length).toBeGreaterThan(2);
      for (const user of mine.items) expect(user.plants.some((p: string) => ['FI01', 'DE02'].includes(p))).toBe(true);
      expect(mine.items.map((u: { email: string }) => u.email)).toContain('mechanic@example.com');
      expect((await call('GET', 'manager@example.com', '/users/my_plant')).statusCode).toBe(403);
    });
  });

  describe('expiration and removal', () => {
    it('expires a user and lets them in again after the date is extended (re-check on the next call)', async () => {
      const uid = await makeUser('short.term@example.com', ['mechanic'], [FI01]);
      expect((await call('GET', 'short.term@example.com', '/user/profile')).statusCode).toBe(200);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const expire = await call('PUT', 'acceptance@example.com', `/users/${uid}/expiration_date`, { expirationDate: yesterday });
      expect(expire.statusCode).toBe(200);
      expect(expire.json()).toMatchObject({ expirationDate: yesterday, isExpired: true });
      const refused = await call('GET', 'short.term@example.com', '/user/profile');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('User expired');

      const nextYear = `${new Date().getUTCFullYear() + 1}-12-31`;
      expect((await call('PUT', 'manager@example.com', `/users/${uid}/expiration_date`, { expirationDate: nextYear })).json().isExpired).toBe(false);
      expect((await call('GET', 'short.term@example.com', '/user/profile')).statusCode).toBe(200);

      const rows = await auditRows(uid);
      expect(rows.map((r) => [r.action, r.actorEmail, r.before, r.after])).toEqual([
        ['user.updateExpiration', 'acceptance@example.com', { expirationDate: null }, { expirationDate: yesterday }],
        ['user.updateExpiration', 'manager@example.com', { expirationDate: yesterday }, { expirationDate: nextYear }],
      ]);
    });

    it('checks the date and who may change it', async () => {
      const uid = await makeUser('date.check@example.com', ['mechanic'], [FI01]);
      const bad = await call('PUT', 'manager@example.com', `/users/${uid}/expiration_date`, { expirationDate: '2026-02-30' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('not a real date');
      expect((await call('PUT', 'viewer@example.com', `/users/${uid}/expiration_date`, { expirationDate: null })).statusCode).toBe(403);
      expect((await call('PUT', 'stock.admin@example.com', `/users/${uid}/expiration_date`, { expirationDate: null })).statusCode).toBe(403);
      const manager = ids.get(editorEmail('super_manager'))!;
      const protectedManager = await call('PUT', 'acceptance@example.com', `/users/${manager}/expiration_date`, { expirationDate: '2030-01-01' });
      expect(protectedManager.statusCode).toBe(403);
      expect(protectedManager.json().message).toContain('only a super manager');
    });

    it('refuses year 0000 with a message naming the field, not the database’s vague 400', async () => {
      const uid = await makeUser('year.zero@example.com', ['mechanic'], [FI01]);
      const zero = await call('PUT', 'manager@example.com', `/users/${uid}/expiration_date`, { expirationDate: '0000-12-31' });
      expect(zero.statusCode).toBe(400);
      expect(zero.json().message).toContain('expirationDate must be 0001-01-01 or later');
      const first = await call('PUT', 'manager@example.com', `/users/${uid}/expiration_date`, { expirationDate: '0001-01-01' });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ expirationDate: '0001-01-01', isExpired: true });
    });

    it('a save from a dialog opened before another manager’s save is refused (412, If-Match) instead of undoing it', async () => {
      const uid = await makeUser('two.managers@example.com', ['mechanic'], [FI01]);
      // Both dialogs opened on "never expires"; A saves a date.
      const saved = await call('PUT', 'acceptance@example.com', `/users/${uid}/expiration_date`, { expirationDate: '2030-06-30' }, { 'if-match': '"never"' });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.headers.etag).toBe('"2030-06-30"');
      // B, still showing "never", saves "never expires": refused, and A's date stays.
      const stale = await call('PUT', 'manager@example.com', `/users/${uid}/expiration_date`, { expirationDate: null }, { 'if-match': '"never"' });
      expect(stale.statusCode).toBe(412);
      expect(stale.json()).toMatchObject({ code: 'expirationChangedMeanwhile', params: { email: 'two.managers@example.com' } });
      expect(stale.json().message).toContain('changed by someone else');
      const [row] = await product.database.db.select({ expirationDate: users.expirationDate }).from(users).where(eq(users.id, uid));
      expect(row!.expirationDate).toBe('2030-06-30');
      expect((await auditRows(uid)).map((r) => [r.actorEmail, r.after])).toEqual([['acceptance@example.com', { expirationDate: '2030-06-30' }]]);
      // Opened again on the current date: the save goes through. Without If-Match (another client), as before.
      const fresh = await call('PUT', 'manager@example.com', `/users/${uid}/expiration_date`, { expirationDate: null }, { 'if-match': '"2030-06-30"' });
      expect(fresh.statusCode, fresh.body).toBe(200);
      expect(fresh.json()).toMatchObject({ expirationDate: null });
      expect((await call('PUT', 'manager@example.com', `/users/${uid}/expiration_date`, { expirationDate: '2031-01-31' })).statusCode).toBe(200);
    });

    it('refuses everyone their own expiration date, user-acceptance managers and super managers alike (#20)', async () => {
      for (const email of ['acceptance@example.com', 'manager@example.com']) {
        const me = (await call('GET', email, '/user/profile')).json();
        for (const [expirationDate, uid] of [['2099-12-31', me.uid], [null, me.uid], [null, String(me.uid).toUpperCase()]]) {
          const res = await call('PUT', email, `/users/${uid}/expiration_date`, { expirationDate });
          expect(res.statusCode, `${email} ${uid}`).toBe(403);
          expect(res.json()).toEqual({ message: 'Not allowed: you may not change your own expiration date; ask another manager' });
        }
        const [row] = await product.database.db.select({ expirationDate: users.expirationDate }).from(users).where(eq(users.id, me.uid));
        expect(row!.expirationDate).toBe(me.expirationDate);
        expect((await auditRows(me.uid)).filter((r) => r.action === 'user.updateExpiration')).toEqual([]);
      }
    });

    it('removes a user with an audit row holding what was removed; refuses oneself and the read-only manager', async () => {
      const uid = await makeUser('leaver@example.com', ['supervisor'], [FI01]);
      expect((await call('DELETE', 'viewer@example.com', `/users/${uid}`)).statusCode).toBe(403);
      const self = await call('DELETE', 'acceptance@example.com', `/users/${(await call('GET', 'acceptance@example.com', '/user/profile')).json().uid}`);
      expect(self.statusCode).toBe(403);
      const shouted = await call('DELETE', 'acceptance@example.com', `/users/${String((await call('GET', 'acceptance@example.com', '/user/profile')).json().uid).toUpperCase()}`);
      expect(shouted.statusCode).toBe(403);
      const removed = await call('DELETE', 'acceptance@example.com', `/users/${uid}`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ uid, email: 'leaver@example.com', removed: true });
      expect(await product.database.db.select().from(users).where(eq(users.id, uid))).toEqual([]);
      expect((await call('DELETE', 'acceptance@example.com', `/users/${uid}`)).statusCode).toBe(404);
      const [row] = await auditRows(uid);
      expect(row).toMatchObject({ action: 'user.remove', actorEmail: 'acceptance@example.com', after: null });
      expect(row!.before).toMatchObject({ email: 'leaver@example.com', grants: ['supervisor'], attachments: [FI01] });
    });
  });

  describe('approval requests', () => {
    it('takes a newcomer from pending to approved: the pending list, the request, the decision, the next profile call', async () => {
      const newcomer = 'new.colleague@lift.example';
      const profile = (await call('GET', newcomer, '/user/profile')).json();
      expect(profile.approvalRequestId).toEqual(expect.any(String));
      const id = profile.approvalRequestId as string;
      expect((await call('GET', newcomer, '/approval_requests/pending')).statusCode).toBe(403);

      const pending = (await call('GET', 'acceptance@example.com', '/approval_requests/pending')).json();
      expect(pending).toContainEqual({ requesting_user_email: newcomer, request_id: id, created: expect.any(String) });
      expect(pending.map((p: { requesting_user_email: string }) => p.requesting_user_email)).toContain('pending@example.com');

      const own = await call('GET', newcomer, `/approval_requests/${id}`);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ requesting_user_email: newcomer, manager_email: 'support@example.com', approval_status: 'Pending' });
      expect((await call('GET', 'mechanic@example.com', `/approval_requests/${id}`)).statusCode).toBe(404);
      expect((await call('POST', 'mechanic@example.com', `/approval_requests/${id}/approve`)).statusCode).toBe(403);
      expect((await call('POST', 'viewer@example.com', `/approval_requests/${id}/approve`)).statusCode).toBe(403);
      expect((await call('GET', newcomer, '/ship_to_party_codes')).json().message).toBe('Your access request is waiting for approval.');

      const approved = await call('POST', 'acceptance@example.com', `/approval_requests/${id}/approve`);
      expect(approved.statusCode).toBe(200);
      expect(approved.json()).toMatchObject({ approval_status: 'Approved', decided_by_email: 'acceptance@example.com', decided_at: expect.any(String) });
      expect((await call('GET', newcomer, '/user/profile')).json().approvalRequestId).toBeNull();
      expect((await call('GET', newcomer, '/feedback')).statusCode).toBe(200);
      const again = await call('POST', 'manager@example.com', `/approval_requests/${id}/reject`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('This request was already approved by acceptance@example.com');
      // Decision 0055: the code and its parameters, for the decider's language.
      expect(again.json()).toMatchObject({ code: 'approvalAlreadyApproved', params: { by: 'acceptance@example.com' } });
      const pendingAfter = (await call('GET', 'acceptance@example.com', '/approval_requests/pending')).json();
      expect(pendingAfter.map((p: { request_id: string }) => p.request_id)).not.toContain(id);

      const [row] = await auditRows(profile.uid);
      expect(row).toMatchObject({ action: 'user.approve', actorEmail: 'acceptance@example.com', before: { approvalStatus: 'Pending', requestId: id }, after: { approvalStatus: 'Approved', requestId: id } });
    });

    it('tells a rejected newcomer so on every call, the profile included', async () => {
      const newcomer = 'not.welcome@parts.example';
      const { approvalRequestId, uid } = (await call('GET', newcomer, '/user/profile')).json();
      const rejected = await call('POST', 'manager@example.com', `/approval_requests/${approvalRequestId}/reject`);
      expect(rejected.json().approval_status).toBe('Rejected');
      const profile = await call('GET', newcomer, '/user/profile');
      expect(profile.statusCode).toBe(403);
      expect(profile.json().message).toBe('Your access request was rejected.');
      expect((await auditRows(uid)).map((r) => r.action)).toEqual(['user.reject']);
      expect((await call('GET', 'manager@example.com', '/approval_requests/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await call('GET', 'manager@example.com', '/approval_requests/not-a-uuid')).statusCode).toBe(400);
    });
  });

  it('leaves the request of one who holds a super manager\'s grants to a super manager (decision 0010)', async () => {
    const newcomer = 'future.manager@parts.example';
    const { approvalRequestId, uid } = (await call('GET', newcomer, '/user/profile')).json();
    await product.database.db.insert(userGrants).values({ userId: uid, grantId: 'super_manager' });
    for (const verb of ['reject', 'approve']) {
      const refused = await call('POST', 'acceptance@example.com', `/approval_requests/${approvalRequestId}/${verb}`);
      expect(refused.statusCode, verb).toBe(403);
      expect(refused.json().message).toBe('Not allowed: only a super manager may decide the request of a super manager');
    }
    expect((await call('POST', 'manager@example.com', `/approval_requests/${approvalRequestId}/approve`)).json().approval_status).toBe('Approved');
  });

  describe('audit log', () => {
    it('is read by super managers only, newest first, and filtered by user', async () => {
      const all = await call('GET', 'viewer@example.com', '/audit_log?maxResults=3');
      expect(all.statusCode).toBe(200);
      const page = all.json();
      expect(page.items).toHaveLength(3);
      const times = page.items.map((e: { created: string }) => e.created);
      expect(times).toEqual([...times].sort().reverse());
      expect((await call('GET', 'acceptance@example.com', '/audit_log')).statusCode).toBe(403);
      expect((await call('GET', 'stock.admin@example.com', '/audit_log')).statusCode).toBe(403);

      const mechanicId = (await call('GET', 'mechanic@example.com', '/user/profile')).json().uid;
      const history = (await call('GET', 'manager@example.com', `/audit_log?userId=${mechanicId}`)).json();
      expect(history.items.length).toBeGreaterThan(0);
      for (const entry of history.items) expect(entry.target_id).toBe(mechanicId);
    });
  });
});
