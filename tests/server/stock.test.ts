import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { notifications, users } from '../../server/db/schema';
import { sendDueReminders } from '../../server/notifications/due-reminders';
import { assertDeadlineAhead, plantToday } from '../../server/repositories/stock-count-management';
import { bearer, createTestProduct, ENGINES, SEED_NOW, type TestProduct } from './harness';

/** Rows of a raw query on either engine (node-postgres and PGlite both answer `{ rows }`). */
const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

describe.each(ENGINES)('stock and stock-count planning on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['mechanic', 'supervisor', 'stock.admin', 'viewer', 'manager', 'pm.reader', 'cs.admin']) {
      tokens[who] = await product.token(`${who}@example.com`);
    }
  });
  afterAll(async () => product?.close());

  const api = (who: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) =>
    product.app.inject({ method, url: `/api/v2${url}`, headers: bearer(tokens[who]!), payload });

  describe('stock lists', () => {
    it('gives the mechanic their van as my stock, with every §3 field and the total rule', async () => {
      const res = await api('mechanic', 'GET', '/my_stock?query=&page=1&maxResults=20');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ page: 1, has_prev: false, storage_location_count: 1 });
      expect(body.stock_items).toHaveLength(20);
      for (const item of body.stock_items) {
        expect(item).toMatchObject({ plant: 'FI01', storage_location: 'V001' });
        // §3's field name (#19 item 7); the ERP file's quality_inspection_count stays in the file.
        expect(item).toHaveProperty('quantity_inspection_count');
        expect(item).not.toHaveProperty('quality_inspection_count');
        const parts = [item.unrestricted_count, item.quantity_inspection_count, item.blocked_count, item.restricted_count, item.transfer_count];
        // The sum to the thousandths quantities have (§5): no binary noise (3.3, not 3.3000000000000003).
        expect(item.total_quantity).toBe(parts.some((p: number | null) => p === null) ? null : Math.round(parts.reduce((a: number, b: number) => a + b, 0) * 1000) / 1000);
        for (const key of ['bin', 'material_description_english', 'planner_groups', 'reorder_point', 'reorder_quantity', 'work_centers']) {
          expect(item).toHaveProperty(key);
        }
      }
    });

    it('widens from my stock to team stock to plant stock', async () => {
      const mine = (await api('mechanic', 'GET', '/my_stock?query=&page=1&maxResults=20')).json();
      const team = (await api('mechanic', 'GET', '/my_team_stock?query=&page=1&maxResults=20')).json();
      const plant = (await api('mechanic', 'GET', '/my_plant_stock?query=&page=1&maxResults=20')).json();
      expect(team.storage_location_count).toBeGreaterThan(mine.storage_location_count);
      expect(plant.total).toBeGreaterThan(team.total);
      expect(plant.stock_items.every((i: { plant: string }) => i.plant === 'FI01')).toBe(true);
      const all = (await api('manager', 'GET', '/my_plant_stock?maxResults=500&page=1&query=')).json();
      expect(all.total).toBeGreaterThan(plant.total);
    });

    it('pages through locations exactly as one ordered scan would: no row skipped or repeated at a location boundary', async () => {
      const expected = rowsOf(
        await product.database.db.execute(sql`select id from stock_items where plant = 'FI01' order by plant, storage_location, material_code`),
      ).map((row) => Number(row.id));
      // 37 is not a divisor of any location's size, so pages straddle boundaries; a divisor of the
      // first location's size (at most the 500 a page may hold) makes a page start exactly on its end.
      const [first] = rowsOf(
        await product.database.db.execute(sql`select count(*)::int as n from stock_items where plant = 'FI01' group by storage_location order by storage_location limit 1`),
      );
      const size = Number(first!.n);
      const onBoundary = Array.from({ length: Math.min(size, 500) }, (_, i) => Math.min(size, 500) - i).find((d) => size % d === 0)!;
      for (const pageSize of [37, onBoundary]) {
        const seen: number[] = [];
        for (let page = 1; ; page += 1) {
          const body = (await api('supervisor', 'GET', `/my_plant_stock?maxResults=${pageSize}&page=${page}&query=`)).json();
          expect(body.total).toBe(expected.length);
          seen.push(...body.stock_items.map((item: { id: number }) => item.id));
          if (!body.has_next) break;
        }
        expect(seen, `pages of ${pageSize}`).toEqual(expected);
      }
      const beyond = (await api('supervisor', 'GET', `/my_plant_stock?maxResults=37&page=999&query=`)).json();
      expect(beyond.stock_items).toEqual([]);
    });

    it('keeps the per-location counts equal to the rows through inserts, moves and deletes', async () => {
      const db = product.database.db;
      const mismatches = async () => {
        const result = await db.execute(sql`
          select coalesce(c.plant, s.plant) as plant from stock_location_counts c
          full join (select plant, storage_location, count(*)::int as n from stock_items group by 1, 2) s
            on s.plant = c.plant and s.storage_location = c.storage_location
          where c.items is distinct from s.n`);
        return rowsOf(result).length;
      };
      expect(await mismatches()).toBe(0);
      await db.execute(sql`insert into stock_items (plant, storage_location, material_code, unrestricted_count)
        select 'FI01', 'ZZ99', material_code, 1 from stock_items where plant = 'FI01' and storage_location = 'V001'`);
      expect(await mismatches()).toBe(0);
      await db.execute(sql`update stock_items set storage_location = 'ZZ98' where plant = 'FI01' and storage_location = 'ZZ99' and material_code < '5'`);
      expect(await mismatches()).toBe(0);
      await db.execute(sql`delete from stock_items where storage_location in ('ZZ98', 'ZZ99')`);
      expect(await mismatches()).toBe(0);
      const left = await db.execute(sql`select 1 from stock_location_counts where storage_location in ('ZZ98', 'ZZ99')`);
      expect(rowsOf(left)).toHaveLength(0);
    });

    it('totals decimal counts without binary noise, so a total equal to the reorder point is one (the "Reorder" chip)', async () => {
      const db = product.database.db;
      const [row] = rowsOf(
        await db.execute(sql`select id, material_code, unrestricted_count, quality_inspection_count, blocked_count, restricted_count, transfer_count, reorder_point
          from stock_items where plant = 'FI01' and storage_location = 'V001' order by material_code limit 1`),
      );
      const code = String(row!.material_code);
      // 1.1 + 2.2 is 3.3000000000000003 in floating point: above a reorder point of 3.3.
      await db.execute(sql`update stock_items set unrestricted_count = 1.1, quality_inspection_count = 2.2, blocked_count = 0, restricted_count = 0, transfer_count = 0, reorder_point = 3.3
        where id = ${row!.id}`);
      try {
        type Row = { material_code: string; total_quantity: number | null; reorder_point: number | null };
        const listed = (await api('mechanic', 'GET', '/my_stock?query=&page=1&maxResults=500')).json().stock_items as Row[];
        const searched = (await api('mechanic', 'GET', `/my_stock?query=${encodeURIComponent(code)}&page=1&maxResults=500`)).json().stock_items as Row[];
        for (const items of [listed, searched]) {
          const item = items.find((i) => i.material_code === code);
          expect(item).toMatchObject({ total_quantity: 3.3, reorder_point: 3.3 });
          expect(item!.total_quantity! <= item!.reorder_point!).toBe(true);
        }
      } finally {
        await db.execute(sql`update stock_items set unrestricted_count = ${row!.unrestricted_count}, quality_inspection_count = ${row!.quality_inspection_count},
          blocked_count = ${row!.blocked_count}, restricted_count = ${row!.restricted_count}, transfer_count = ${row!.transfer_count}, reorder_point = ${row!.reorder_point}
          where id = ${row!.id}`);
      }
    });

    it('hides zero stock when searching, except in plants that show it', async () => {
      const hasZero = async (who: string, query: string) => {
        const items = (await api(who, 'GET', `/my_plant_stock?maxResults=500&query=${query}&page=1`)).json().stock_items as Array<{ total_quantity: number | null; plant: string }>;
        return { zero: items.some((i) => i.total_quantity === 0), plants: new Set(items.map((i) => i.plant)) };
      };
      const fi = await hasZero('mechanic', 'a');
      expect(fi.zero).toBe(false);
      const de = await hasZero('cs.admin', 'a');
      expect(de.plants).toEqual(new Set(['DE02']));
      expect(de.zero).toBe(true);
    });

    it.each([
      ['/my_stock', 'query', 'query=&page=1&maxResults=20', 'query is required (query= for no search)'],
      ['/my_team_stock', 'page', 'query=&page=1&maxResults=20', 'page is required'],
      ['/my_plant_stock', 'maxResults', 'query=&page=1&maxResults=20', 'maxResults is required'],
      ['/my_stock_count', 'page', 'page=1&maxResults=20', 'page is required'],
      ['/my_stock_count', 'maxResults', 'page=1&maxResults=20', 'maxResults is required'],
      ['/my_material_count', 'page', 'stockCountId=1&page=1&maxResults=20', 'page is required'],
      ['/my_material_count', 'maxResults', 'stockCountId=1&page=1&maxResults=20', 'maxResults is required'],
    ])('%s without %s is a 400 naming it (§5, decision 0024)', async (path, name, all, message) => {
      const params = new URLSearchParams(all);
      expect((await api('mechanic', 'GET', `${path}?${params}`)).statusCode).toBe(200);
      params.delete(name);
      const res = await api('mechanic', 'GET', `${path}?${params}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(`querystring.${name}: ${message}`);
      // Pages number from 1 (decision 0024).
      const zero = await api('mechanic', 'GET', `${path}?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(all)), page: '0' })}`);
      expect(zero.statusCode).toBe(400);
      expect(zero.json().message).toBe('querystring.page: page must be 1 or more');
    });

    it('refuses stock to roles without stock reading', async () => {
      const refused = await api('pm.reader', 'GET', '/my_stock?query=&page=1&maxResults=20');
      expect(refused.statusCode).toBe(403);
      // Coded: the app says it in the reader's language (serverErrors.permissionDenied, decision 0055).
      expect(refused.json()).toEqual({ message: 'Permission denied: your roles do not allow stock.read', code: 'permissionDenied', params: { capability: 'stock.read' } });
      expect((await api('viewer', 'GET', '/my_plant_stock?query=&page=1&maxResults=20')).statusCode).toBe(200);
      const bad = await api('mechanic', 'GET', '/my_stock?page=0&query=&maxResults=20');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('page must be 1 or more');
    });
  });

  describe('planning counts', () => {
    let created: { id: number; total_lines: number };

    it('lets the supervisor create a wall-to-wall count of the mechanic’s van with a line per material in stock', async () => {
      const stock = (await api('mechanic', 'GET', '/my_stock?maxResults=500&query=&page=1')).json();
      const res = await api('supervisor', 'POST', '/my_stock_count', {
        plant: 'FI01',
        storageLocation: 'V001',
        type: 'wall_to_wall',
        conductedBy: 'mechanic@example.com',
        shouldBeDoneAt: '2099-12-01',
      });
      expect(res.statusCode).toBe(201);
      created = res.json();
      expect(created).toMatchObject({ status: 'initiated', type: 'wall_to_wall', conducted_by: 'mechanic@example.com', is_draft: false });
      expect(created.total_lines).toBe(stock.total);
      const seen = (await api('mechanic', 'GET', `/my_stock_count?stockCountId=${created.id}&page=1&maxResults=20`)).json();
      expect(seen.stock_counts).toHaveLength(1);
    });

    it('refuses what the rules forbid, saying why', async () => {
      const base = { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: ['NOPE'] };
      expect((await api('mechanic', 'POST', '/my_stock_count', base)).statusCode).toBe(403);
      expect((await api('viewer', 'POST', '/my_stock_count', base)).statusCode).toBe(403);
      const unknown = await api('supervisor', 'POST', '/my_stock_count', base);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe('Unknown material: NOPE');
      const otherPlant = await api('supervisor', 'POST', '/my_stock_count', { ...base, plant: 'DE02', storageLocation: '0001' });
      expect(otherPlant.statusCode).toBe(403);
      const deadline = await api('stock.admin', 'POST', '/my_stock_count', { plant: 'DE02', storageLocation: '0001', type: 'wall_to_wall', shouldBeDoneAt: '2099-12-01' });
      expect(deadline.statusCode).toBe(400);
      expect(deadline.json().message).toBe('A deadline cannot be set for counts in plant DE02');
      // A deadline already past (a year typed wrong) is refused; the plant's today is not.
      const today = await plantToday(product.database.db, 'FI01');
      const past = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'wall_to_wall', conductedBy: 'mechanic@example.com', shouldBeDoneAt: '2020-12-01' });
      expect(past.statusCode).toBe(400);
      expect(past.json()).toMatchObject({ message: `The deadline 2020-12-01 is in the past: it is ${today} in plant FI01`, code: 'deadlinePast', params: { deadline: '2020-12-01', today, plant: 'FI01' } });
      // The plant's day, not UTC's: at 22:30 UTC it is already tomorrow in Helsinki (UTC+2 in winter).
      const lateEvening = new Date('2026-11-30T22:30:00Z');
      expect(await plantToday(product.database.db, 'FI01', lateEvening)).toBe('2026-12-01');
      expect(await plantToday(product.database.db, 'FR03', lateEvening)).toBe('2026-11-30');
      await expect(assertDeadlineAhead(product.database.db, 'FI01', '2026-11-30', lateEvening)).rejects.toMatchObject({ statusCode: 400 });
      await expect(assertDeadlineAhead(product.database.db, 'FI01', '2026-12-01', lateEvening)).resolves.toBeUndefined();
      const dueToday = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'wall_to_wall', conductedBy: 'mechanic@example.com', shouldBeDoneAt: today, draft: true });
      expect(dueToday.statusCode, dueToday.body).toBe(201);
      const moved = await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: dueToday.json().id, shouldBeDoneAt: '2020-12-01' });
      expect(moved.statusCode).toBe(400);
      const stranger = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'wall_to_wall', conductedBy: 'cs.admin@example.com' });
      expect(stranger.statusCode).toBe(400);
      expect(stranger.json().message).toBe('cs.admin@example.com does not work in plant FI01');
      // Working in the plant is not enough: a count handed to someone who may not enter quantities would never be done.
      const noCounter = await api('stock.admin', 'POST', '/my_stock_count', { plant: 'DE02', storageLocation: '0001', type: 'wall_to_wall', conductedBy: 'cs.admin@example.com' });
      expect(noCounter.statusCode).toBe(400);
      expect(noCounter.json().message).toBe('cs.admin@example.com cannot count: none of their roles may enter counted quantities');
    });

    it('keeps drafts from the person counting until they are sent', async () => {
      const draft = (await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'wall_to_wall', conductedBy: 'mechanic@example.com', draft: true })).json();
      expect(draft.is_draft).toBe(true);
      expect((await api('mechanic', 'GET', `/my_stock_count?stockCountId=${draft.id}&page=1&maxResults=20`)).json().stock_counts).toHaveLength(0);
      const sent = await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: draft.id, draft: false });
      expect(sent.statusCode).toBe(200);
      expect((await api('mechanic', 'GET', `/my_stock_count?stockCountId=${draft.id}&page=1&maxResults=20`)).json().stock_counts).toHaveLength(1);
      // A draft nobody counts (nor any part of it) is not sent: it would be listed, reminded and reported to no one.
      const nobody = (await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'wall_to_wall', draft: true })).json();
      const refused = await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: nobody.id, draft: false });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('Choose who counts (conductedBy) before sending the count');
      expect((await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: nobody.id, draft: false, conductedBy: 'mechanic@example.com' })).statusCode).toBe(200);
    });

    it('tells the person counting when a draft is sent to them or a count is handed to them, not on other edits', async () => {
      const assignedTo = async (email: string, id: number) => {
        const [user] = await product.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
        const rows = await product.database.db.select().from(notifications).where(eq(notifications.userId, user!.id));
        return rows.filter((row) => row.link === `/mechanic-view/${id}`).length;
      };
      const draft = (await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V002', type: 'wall_to_wall', conductedBy: 'mechanic@example.com', draft: true })).json();
      expect(await assignedTo('mechanic@example.com', draft.id)).toBe(0);
      await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: draft.id, workCenter: 'FI01M001' });
      expect(await assignedTo('mechanic@example.com', draft.id)).toBe(0);
      expect((await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: draft.id, draft: false })).statusCode).toBe(200);
      const afterSend = await assignedTo('mechanic@example.com', draft.id);
      expect(afterSend).toBeGreaterThan(0);
      await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: draft.id, workCenter: 'FI01M002' });
      expect(await assignedTo('mechanic@example.com', draft.id)).toBe(afterSend);
      expect((await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: draft.id, conductedBy: 'mikko.virtanen@lift.example' })).statusCode).toBe(200);
      expect(await assignedTo('mikko.virtanen@lift.example', draft.id)).toBeGreaterThan(0);
    });

    it('reminds the person counting once from 07:00 local on the day before the deadline, and again after the deadline moves', async () => {
      const db = product.database.db;
      // The seed's history: counts already due had their reminder; nothing is due again.
      expect(await sendDueReminders(db, SEED_NOW)).toBe(0);
      const count = (await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V002', type: 'wall_to_wall', conductedBy: 'mechanic@example.com', shouldBeDoneAt: '2099-12-10' })).json();
      const reminders = async () => {
        const rows = await db.select().from(notifications).where(eq(notifications.link, `/mechanic-view/${count.id}`));
        return rows.filter((row) => (row.subject ?? '').includes('is due')).length;
      };
      const remindAt = (day: string) => sendDueReminders(db, new Date(`${day}T08:00:00Z`));
      await remindAt('2099-12-01');
      expect(await reminders()).toBe(0);
      // From 07:00 on the day before, in the plant's zone (FI01: Helsinki, UTC+2 in December): not at 02:30 or 06:59 there.
      expect(await sendDueReminders(db, new Date('2099-12-09T00:30:00Z'))).toBe(0);
      expect(await sendDueReminders(db, new Date('2099-12-09T04:59:00Z'))).toBe(0);
      expect(await reminders()).toBe(0);
      expect(await sendDueReminders(db, new Date('2099-12-09T05:00:00Z'))).toBeGreaterThan(0);
      const once = await reminders();
      expect(once).toBeGreaterThan(0);
      await remindAt('2099-12-10');
      expect(await reminders()).toBe(once);
      expect((await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: count.id, shouldBeDoneAt: '2099-12-20' })).statusCode).toBe(200);
      await remindAt('2099-12-10');
      expect(await reminders()).toBe(once);
      await remindAt('2099-12-19');
      expect(await reminders()).toBe(once * 2);
      // A cancelled count is never due.
      await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: count.id, shouldBeDoneAt: '2099-12-30' });
      await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: count.id, status: 'cancelled' });
      await remindAt('2099-12-30');
      expect(await reminders()).toBe(once * 2);
    });

    it('resolves the "assigned to you" notifications of a count that is cancelled or handed to someone else (#19 item 21)', async () => {
      const db = product.database.db;
      const ofCount = (id: number) => db.select().from(notifications).where(eq(notifications.link, `/mechanic-view/${id}`));
      const unreadIds = async (who: string) => {
        const res = await product.app.inject({ method: 'GET', url: '/user_api/v1/notifications', headers: bearer(tokens[who]!) });
        expect(res.statusCode).toBe(200);
        return new Set((res.json().notifications as Array<{ id: number }>).map((entry) => entry.id));
      };
      const count = (await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V002', type: 'wall_to_wall', conductedBy: 'mechanic@example.com' })).json();
      const assigned = await ofCount(count.id);
      expect(assigned.length).toBeGreaterThan(0);
      expect(assigned.every((row) => row.active)).toBe(true);
      const unread = await unreadIds('mechanic');
      expect(assigned.some((row) => unread.has(row.id))).toBe(true);

      expect((await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: count.id, status: 'cancelled' })).statusCode).toBe(200);
      const after = await ofCount(count.id);
      expect(after.map((row) => row.active)).toEqual(after.map(() => false));
      // Not yet sent: withdrawn, so the dispatcher never asks anyone to count a cancelled count.
      expect(after.filter((row) => row.deliveryState === 'queued')).toEqual([]);
      const unreadAfter = await unreadIds('mechanic');
      expect(after.some((row) => unreadAfter.has(row.id))).toBe(false);

      // Handed to someone else: the previous counter's are resolved, the new counter's stay unread.
      const handed = (await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V002', type: 'wall_to_wall', conductedBy: 'mechanic@example.com' })).json();
      expect((await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: handed.id, conductedBy: 'mikko.virtanen@lift.example' })).statusCode).toBe(200);
      const rows = await ofCount(handed.id);
      const previous = rows.filter((row) => row.userEmail === 'mechanic@example.com');
      const current = rows.filter((row) => row.userEmail === 'mikko.virtanen@lift.example');
      expect(previous.length).toBeGreaterThan(0);
      expect(current.length).toBeGreaterThan(0);
      expect(previous.every((row) => !row.active)).toBe(true);
      expect(current.every((row) => row.active)).toBe(true);
    });

    it('edits who counts and cancels; the mechanic may do neither', async () => {
      const edit = await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: created.id, workCenter: 'FI01M001' });
      expect(edit.statusCode).toBe(200);
      expect(edit.json().work_center).toBe('FI01M001');
      expect((await api('mechanic', 'PUT', '/my_stock_count', { stockCountId: created.id, status: 'cancelled' })).statusCode).toBe(403);
      const cancel = await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: created.id, status: 'cancelled' });
      expect(cancel.json().status).toBe('cancelled');
      const again = await api('supervisor', 'PUT', '/my_stock_count', { stockCountId: created.id, status: 'cancelled' });
      expect(again.statusCode).toBe(409);
    });

    it('recounts the variances of a completed count, and only of a completed one', async () => {
      const completed = (await api('supervisor', 'GET', '/my_stock_count?maxResults=500&page=1')).json().stock_counts.find(
        (c: { status: string; plant: string }) => c.status === 'completed' && c.plant === 'FI01',
      );
      const res = await api('supervisor', 'POST', '/my_stock_count/recount', { stockCountId: completed.id });
      if (res.statusCode === 409) {
        expect(res.json().message).toContain('has no differences');
      } else {
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ status: 'recount', conducted_by: completed.conducted_by });
        expect(res.json().total_lines).toBeGreaterThan(0);
        expect(res.json().total_lines).toBeLessThanOrEqual(completed.total_lines);
      }
      const open = await api('supervisor', 'POST', '/my_stock_count/recount', { stockCountId: 2 });
      expect(open.statusCode).toBe(409);
      expect((await api('mechanic', 'POST', '/my_stock_count/recount', { stockCountId: completed.id })).statusCode).toBe(403);
    });

    it('prints a count sheet ordered by bin', async () => {
      const res = await api('mechanic', 'GET', '/relationship/print_materials?stockCountId=2');
      expect(res.statusCode).toBe(200);
      expect(res.json().stock_count.id).toBe(2);
      expect(res.json().lines.length).toBe(40);
    });
  });

  describe('front-liner statistics and relationships', () => {
    it('counts tasks per person with a total row, as each role may filter', async () => {
      const byGroup = await api('supervisor', 'GET', '/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2026-12-31&planner_group=F10');
      expect(byGroup.statusCode).toBe(200);
      const body = byGroup.json();
      expect(body.total.conducted_by).toBe('Total');
      expect(body.total.total_tasks).toBe(body.rows.reduce((sum: number, r: { total_tasks: number }) => sum + r.total_tasks, 0));
      for (const row of body.rows) expect(row.completed_count + row.not_completed_count).toBe(row.total_tasks);
      expect((await api('supervisor', 'GET', '/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2026-12-31&plant=FI01')).statusCode).toBe(403);
      expect((await api('stock.admin', 'GET', '/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2026-12-31&plant=FI01')).statusCode).toBe(200);
      expect((await api('mechanic', 'GET', '/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2026-12-31&plant=FI01')).statusCode).toBe(403);
      const neither = await api('manager', 'GET', '/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2026-12-31');
      expect(neither.statusCode).toBe(400);
      const reversed = await api('manager', 'GET', '/my_stock_count/occupancy_report?start_date=2026-12-31&end_date=2026-01-01&plant=FI01');
      expect(reversed.json().message).toBe('start_date must not be after end_date');
      // The last calendar day is a day like any other (its next day is no JavaScript date PostgreSQL reads).
      const lastDay = await api('manager', 'GET', '/my_stock_count/occupancy_report?start_date=9999-12-31&end_date=9999-12-31&plant=FI01');
      expect(lastDay.statusCode, lastDay.body).toBe(200);
      expect(lastDay.json().rows).toEqual([]);
    });

    it('reports counts by the day they were created in their plant, not by UTC day', async () => {
      const made = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V002', type: 'wall_to_wall', conductedBy: 'mikko.virtanen@lift.example' });
      expect(made.statusCode, made.body).toBe(201);
      // 01:30 on 2031-03-01 in Helsinki is 23:30 UTC on 2031-02-28.
      await product.database.db.execute(sql`update stock_counts set created = '2031-02-28T23:30:00Z' where id = ${made.json().id as number}`);
      const tasks = async (start: string, end: string) =>
        ((await api('manager', 'GET', `/my_stock_count/occupancy_report?start_date=${start}&end_date=${end}&plant=FI01`)).json() as { total: { total_tasks: number } }).total.total_tasks;
      expect(await tasks('2031-03-01', '2031-03-01')).toBe(1);
      expect(await tasks('2031-02-28', '2031-02-28')).toBe(0);
    });

    it('gives percentages that add up to 100 (the rest of the completed share, not rounded apart)', async () => {
      const report = (await api('manager', 'GET', '/my_stock_count/occupancy_report?start_date=2026-01-01&end_date=2099-12-31&plant=FI01')).json() as {
        rows: Array<{ completed_percentage: number; not_completed_percentage: number; total_tasks: number }>;
      };
      for (const row of report.rows) if (row.total_tasks > 0) expect(Math.round((row.completed_percentage + row.not_completed_percentage) * 10) / 10).toBe(100);
    });

    it('lists plants, storage locations, work centers and mechanics within what the caller sees', async () => {
      expect((await api('supervisor', 'GET', '/relationship/plant')).json().plants.map((p: { code: string }) => p.code)).toEqual(['FI01']);
      expect((await api('supervisor', 'GET', '/relationship/storage_location')).statusCode).toBe(400);
      const notYours = await api('supervisor', 'GET', '/relationship/storage_location?plant=DE02');
      expect(notYours.statusCode).toBe(403);
      // Coded: the transfer dialog says it in the reader's language (decision 0055).
      expect(notYours.json()).toEqual({ message: 'You do not see plant DE02', code: 'plantNotYours', params: { plant: 'DE02' } });
      const locations = (await api('supervisor', 'GET', '/relationship/storage_location?plant=FI01')).json().storage_locations;
      expect(locations.some((l: { code: string }) => l.code === 'V001')).toBe(true);
      const mechanics = (await api('supervisor', 'GET', '/relationship/mechanic?plant=FI01')).json().mechanics;
      expect(mechanics.map((m: { email: string }) => m.email)).toContain('mechanic@example.com');
      expect(mechanics.map((m: { email: string }) => m.email)).not.toContain('supervisor@example.com');
    });
  });
});

describe.each(ENGINES)('stock transfer requests on %s', (engine) => {
  let product: TestProduct;
  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => product?.close());

  it('stores a valid request, shows it to its author, and refuses bad ones with the §5 message', async () => {
    const token = await product.token('mechanic@example.com');
    const post = (payload: Record<string, unknown>, who = token) =>
      product.app.inject({ method: 'POST', url: '/api/v2/stock_transfer_request', headers: bearer(who), payload });
    const item = (await product.app.inject({ method: 'GET', url: '/api/v2/my_stock?query=&page=1&maxResults=20', headers: bearer(token) })).json().stock_items[0];
    const ok = await post({ plant: 'FI01', storageLocationFrom: 'V001', storageLocationTo: '0001', materialCode: item.material_code, quantity: 2 });
    expect(ok.statusCode).toBe(201);
    const zero = await post({ plant: 'FI01', storageLocationFrom: 'V001', storageLocationTo: '0001', materialCode: item.material_code, quantity: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().message).toContain('Quantity should be greater than 0');
    const same = await post({ plant: 'FI01', storageLocationFrom: 'V001', storageLocationTo: 'V001', materialCode: item.material_code, quantity: 1 });
    expect(same.json().message).toContain('two different storage locations');
    expect((await post({ plant: 'DE02', storageLocationFrom: '0001', storageLocationTo: '0002', materialCode: item.material_code, quantity: 1 })).statusCode).toBe(403);
    const viewer = await product.token('viewer@example.com');
    expect((await post({ plant: 'FI01', storageLocationFrom: 'V001', storageLocationTo: '0001', materialCode: item.material_code, quantity: 1 }, viewer)).statusCode).toBe(403);
    const mine = (await product.app.inject({ method: 'GET', url: '/api/v2/stock_transfer_request', headers: bearer(token) })).json().items;
    expect(mine[0]).toMatchObject({ material_code: item.material_code, quantity: 2, storage_location_to: '0001', status: 'requested' });
  });
});

describe.each(ENGINES)('stock transfer decisions on %s (decision 0061)', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['mechanic', 'supervisor', 'stock.admin', 'cs.admin', 'viewer', 'manager']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => product?.close());

  const api = (who: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    product.app.inject({ method, url: `/api/v2${url}`, headers: { ...bearer(tokens[who]!), ...headers }, payload });
  // A material stocked where it is to be taken from (a request for one that is not there is refused).
  const material = async (plant: string, from: string) =>
    String(rowsOf(await product.database.db.execute(sql`select material_code from stock_items where plant = ${plant} and storage_location = ${from} order by id limit 1`))[0]!.material_code);
  const request = async (who: string, plant: string, from: string, to: string) => {
    const res = await api(who, 'POST', '/stock_transfer_request', { plant, storageLocationFrom: from, storageLocationTo: to, materialCode: await material(plant, from), quantity: 3 });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; material_code: string };
  };
  const listed = async (who: string) => ((await api(who, 'GET', '/stock_transfer_request')).json().items as Array<{ id: string }>).map((row) => row.id);

  it('shows a request to its author, to those who read its plant\'s storage locations, and to super managers; to nobody else', async () => {
    const fi = await request('mechanic', 'FI01', 'V001', '0001');
    const de = await request('stock.admin', 'DE02', '0001', '0002');
    const mechanic = await listed('mechanic');
    expect(mechanic).toContain(fi.id);
    expect(mechanic).not.toContain(de.id);
    // A supervisor of FI01 does not read its storage locations (§6): only their own requests.
    expect(await listed('supervisor')).not.toContain(fi.id);
    // The stock admin holds FI01 and DE02; the customer-service admin only DE02 (read-only).
    expect(await listed('stock.admin')).toEqual(expect.arrayContaining([fi.id, de.id]));
    const cs = await listed('cs.admin');
    expect(cs).toContain(de.id);
    expect(cs).not.toContain(fi.id);
    expect(await listed('viewer')).toEqual(expect.arrayContaining([fi.id, de.id]));
    const row = (await api('stock.admin', 'GET', '/stock_transfer_request')).json().items.find((r: { id: string }) => r.id === fi.id);
    expect(row).toMatchObject({ requested_by: 'mechanic@example.com', status: 'requested', decided_by: null, decided_at: null, quantity: 3 });
    expect(typeof row.unit).toBe('string');
  });

  it('lets a stock admin of the plant mark a request done once, tells the requester, and refuses everyone else', async () => {
    const fi = await request('mechanic', 'FI01', 'V001', '0001');
    const decide = (who: string, status: string, key?: string) =>
      api(who, 'PUT', `/stock_transfer_request/${fi.id}/decision`, { status }, key ? { 'idempotency-key': key } : {});
    // Who may not update storage locations is refused; one who may, but not in the plant, meets a 404.
    expect((await decide('mechanic', 'done')).statusCode).toBe(403);
    expect((await decide('cs.admin', 'done')).statusCode).toBe(403);
    expect((await decide('viewer', 'done')).statusCode).toBe(403);
    const bad = await decide('stock.admin', 'maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('done, declined');
    expect((await api('stock.admin', 'PUT', '/stock_transfer_request/not-a-uuid/decision', { status: 'done' })).statusCode).toBe(400);
    expect((await api('stock.admin', 'PUT', '/stock_transfer_request/00000000-0000-4000-8000-000000000000/decision', { status: 'done' })).statusCode).toBe(404);

    const key = crypto.randomUUID();
    const done = await decide('stock.admin', 'done', key);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ id: fi.id, status: 'done', decided_by: 'stock.admin@example.com' });
    expect(done.json().decided_at).toEqual(expect.any(String));
    // The same decision asked again under its key (a lost answer) is the same answer; a second decision is refused.
    const replay = await decide('stock.admin', 'done', key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(done.json());
    const again = await decide('manager', 'declined');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already marked done');

    const told = rowsOf(
      await product.database.db.execute(
        sql`select n.text_key, n.link, n.notification_key from notifications n join users u on u.id = n.user_id where u.email = 'mechanic@example.com' and n.text_key like 'stockTransfer%'`,
      ),
    );
    expect(told.length).toBeGreaterThan(0);
    expect(told.every((n) => n.text_key === 'stockTransferDone' && n.link === '/stock-management?transfers=1' && n.notification_key === 'other_notification')).toBe(true);
  });

  it('lets a read-only super manager who is also a stock admin decide only in their own plants (the list shows them all)', async () => {
    const locations = rowsOf(await product.database.db.execute(sql`select code from storage_locations where plant = 'FR03' order by code limit 2`)).map((r) => String(r.code));
    const lyon = await request('manager', 'FR03', locations[0]!, locations[1]!);
    const [admin] = rowsOf(await product.database.db.execute(sql`select id from users where email = 'stock.admin@example.com'`));
    await product.database.db.execute(sql`insert into user_grants (user_id, grant_id) values (${admin!.id}, 'super_manager_read_only')`);
    try {
      expect(await listed('stock.admin')).toContain(lyon.id);
      const refused = await api('stock.admin', 'PUT', `/stock_transfer_request/${lyon.id}/decision`, { status: 'done' });
      expect(refused.statusCode).toBe(404);
    } finally {
      await product.database.db.execute(sql`delete from user_grants where user_id = ${admin!.id} and grant_id = 'super_manager_read_only'`);
    }
  });

  it('lists waiting requests before decided ones, however old', async () => {
    const old = await request('mechanic', 'FI01', 'V001', '0001');
    await product.database.db.execute(sql`update stock_transfer_requests set created_at = now() - interval '400 days' where id = ${old.id}`);
    const items = (await api('mechanic', 'GET', '/stock_transfer_request')).json().items as Array<{ id: string; status: string }>;
    const firstDecided = items.findIndex((row) => row.status !== 'requested');
    expect(items.findIndex((row) => row.id === old.id)).toBeGreaterThanOrEqual(0);
    if (firstDecided >= 0) expect(items.findIndex((row) => row.id === old.id)).toBeLessThan(firstDecided);
  });

  it('lets only one of two deciders at once win', async () => {
    const fi = await request('mechanic', 'FI01', 'V001', '0001');
    const answers = await Promise.all([
      api('stock.admin', 'PUT', `/stock_transfer_request/${fi.id}/decision`, { status: 'done' }),
      api('manager', 'PUT', `/stock_transfer_request/${fi.id}/decision`, { status: 'declined' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().status;
    const row = (await api('mechanic', 'GET', '/stock_transfer_request')).json().items.find((r: { id: string }) => r.id === fi.id);
    expect(row.status).toBe(winner);
  });
});
