/**
 * Work centres and planner groups are codes within a plant: another plant may use the same codes,
 * and its vans, people and counts are not the caller's. My team stock (§7) and the front-liner
 * statistics by planner group pair every code with its plant. The demo seed's codes carry their
 * plant, so this file adds to DE02 a work centre and a planner group with FI01's codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../server/db/client';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

describe.each(ENGINES)('my team stock across plants with the same codes on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  const query = async (text: ReturnType<typeof sql>) => rowsOf(await product.database.db.execute(text));
  const teamLocations = async (who: string) => {
    const res = await product.app.inject({ method: 'GET', url: '/api/v2/my_team_stock?maxResults=500&page=1&query=', headers: bearer(tokens[who]!) });
    expect(res.statusCode, res.body).toBe(200);
    return [...new Set((res.json().stock_items as Array<{ plant: string; storage_location: string }>).map((row) => `${row.plant}/${row.storage_location}`))].sort();
  };

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const who of ['mechanic', 'supervisor']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => product?.close());

  it('lists only the caller’s plant’s vans, not those of another plant’s work centre or planner group of the same code', async () => {
    const before = { mechanic: await teamLocations('mechanic'), supervisor: await teamLocations('supervisor') };
    expect(before.mechanic.length).toBeGreaterThan(0);
    expect(before.supervisor.length).toBeGreaterThan(0);
    // DE02 gets FI01's work centre code of the mechanic and planner group code of the supervisor,
    // a van of that work centre with stock, and a person attached to it with a van of their own.
    const [wc] = await query(sql`select a.plant, a.code, w.planner_group from user_attachments a join users u on u.id = a.user_id
      join work_centers w on w.plant = a.plant and w.code = a.code where u.email = 'mechanic@example.com' and a.kind = 'work_center' limit 1`);
    const [pg] = await query(sql`select a.code from user_attachments a join users u on u.id = a.user_id
      where u.email = 'supervisor@example.com' and a.kind = 'planner_group' limit 1`);
    const code = String(wc!.code);
    const group = String(pg!.code);
    await product.database.db.execute(sql`insert into planner_groups (plant, code, name) values ('DE02', ${group}, 'Same code, other plant') on conflict do nothing`);
    await product.database.db.execute(sql`insert into work_centers (plant, code, name, planner_group) values ('DE02', ${code}, 'Same code, other plant', ${group})`);
    await product.database.db.execute(sql`insert into work_centers (plant, code, name, planner_group) values ('DE02', 'WC-OTHER', 'Other plant, same group code', ${group})`);
    await product.database.db.execute(sql`insert into storage_locations (plant, code, name, work_center) values
      ('DE02', 'VX98', 'Van of the same work centre code', ${code}), ('DE02', 'VX99', 'Van of the same planner group code', 'WC-OTHER'), ('DE02', 'VX97', 'Van of a person there', null)`);
    await product.database.db.execute(sql`insert into stock_items (plant, storage_location, material_code, unrestricted_count, quality_inspection_count, blocked_count, restricted_count, transfer_count)
      select 'DE02', l.code, m.code, 1, 0, 0, 0, 0 from (values ('VX97'), ('VX98'), ('VX99')) as l(code) cross join (select code from materials order by code limit 2) m`);
    const [person] = await query(sql`select id from users where email = 'felix.weber@lift.example'`);
    await product.database.db.execute(sql`insert into user_attachments (user_id, kind, plant, code) values
      (${person!.id}, 'work_center', 'DE02', ${code}), (${person!.id}, 'storage_location', 'DE02', 'VX97') on conflict do nothing`);

    expect(await teamLocations('mechanic')).toEqual(before.mechanic);
    expect(await teamLocations('supervisor')).toEqual(before.supervisor);
    for (const location of ['DE02/VX97', 'DE02/VX98', 'DE02/VX99']) {
      expect(before.mechanic).not.toContain(location);
      expect(before.supervisor).not.toContain(location);
    }

    // The supervisor's front-liner statistics by their planner group: counts of DE02's group of the
    // same code (by the group, or by a work centre of it) are not theirs.
    const report = async () => {
      const res = await product.app.inject({
        method: 'GET',
        url: `/api/v2/my_stock_count/occupancy_report?start_date=2020-01-01&end_date=2099-12-31&planner_group=${encodeURIComponent(group)}`,
        headers: bearer(tokens.supervisor!),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { rows: Array<{ conducted_by: string }> };
    };
    const reportBefore = await report();
    await product.database.db.execute(sql`insert into stock_counts (created_by, plant, type, status, storage_location, conducted_by, planner_group, is_draft) values
      ('stock.admin@example.com', 'DE02', 'single', 'initiated', 'VX98', 'other.plant.group@example.com', ${group}, false)`);
    await product.database.db.execute(sql`insert into stock_counts (created_by, plant, type, status, storage_location, conducted_by, work_center, is_draft) values
      ('stock.admin@example.com', 'DE02', 'single', 'initiated', 'VX99', 'other.plant.workcentre@example.com', 'WC-OTHER', false)`);
    const reportAfter = await report();
    expect(reportAfter).toEqual(reportBefore);
    expect(reportAfter.rows.map((row) => row.conducted_by)).not.toContain('other.plant.group@example.com');
  });

  it('does not list a teammate’s storage location of another plant, which the caller does not work in', async () => {
    const before = { mechanic: await teamLocations('mechanic'), supervisor: await teamLocations('supervisor') };
    // A person of the mechanic's work centre (so of the supervisor's planner group) is also given a
    // storage location of DE02, where neither the mechanic nor the supervisor works.
    const [wc] = await query(sql`select a.plant, a.code from user_attachments a join users u on u.id = a.user_id
      where u.email = 'mechanic@example.com' and a.kind = 'work_center' and a.plant = 'FI01' limit 1`);
    const [mate] = await query(sql`insert into users (email, display_name, approval_status) values ('teammate.vx96@example.com', 'Teammate', 'Approved') returning id as user_id`);
    await product.database.db.execute(sql`insert into user_attachments (user_id, kind, plant, code) values
      (${mate!.user_id}, 'plant', 'FI01', 'FI01'), (${mate!.user_id}, 'work_center', ${wc!.plant}, ${wc!.code})`);
    await product.database.db.execute(sql`insert into storage_locations (plant, code, name, work_center) values ('DE02', 'VX96', 'A teammate''s place in another plant', null) on conflict do nothing`);
    await product.database.db.execute(sql`insert into stock_items (plant, storage_location, material_code, unrestricted_count, quality_inspection_count, blocked_count, restricted_count, transfer_count)
      select 'DE02', 'VX96', code, 3, 0, 0, 0, 0 from (select code from materials order by code limit 2) m`);
    await product.database.db.execute(sql`insert into user_attachments (user_id, kind, plant, code) values (${mate!.user_id}, 'storage_location', 'DE02', 'VX96') on conflict do nothing`);
    expect(await teamLocations('mechanic')).toEqual(before.mechanic);
    expect(await teamLocations('supervisor')).toEqual(before.supervisor);
    expect(before.mechanic.some((location) => location.startsWith('DE02/'))).toBe(false);

    // A work centre of a plant the mechanic is not given (an attachment left behind) opens nothing there.
    const [van] = await query(sql`select w.code from work_centers w join storage_locations sl on sl.plant = w.plant and sl.work_center = w.code
      join stock_items si on si.plant = sl.plant and si.storage_location = sl.code where w.plant = 'DE02' limit 1`);
    expect(van).toBeDefined();
    const [me] = await query(sql`select id from users where email = 'mechanic@example.com'`);
    await product.database.db.execute(sql`insert into user_attachments (user_id, kind, plant, code) values (${me!.id}, 'work_center', 'DE02', ${van!.code})`);
    tokens.mechanic = await product.token('mechanic@example.com');
    expect(await teamLocations('mechanic')).toEqual(before.mechanic);
    await product.database.db.execute(sql`delete from user_attachments where user_id = ${me!.id} and kind = 'work_center' and plant = 'DE02'`);
  });
});
