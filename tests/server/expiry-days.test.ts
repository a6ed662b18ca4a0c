/**
 * §4 account expiry by the day of the user's plants (src/domain/expiration.ts): the last valid day
 * ends at midnight where the user works (in every zone of their plants), UTC's without a plant.
 * The TypeScript rule (isPastLastDay, the sign-in check) and its SQL twin (notExpiredSql: the
 * counter picker, assertCounter) are run on the same fixtures and must agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { dayIn, isPastLastDay } from '../../src/domain/expiration';
import { notExpiredSql } from '../../server/repositories/users';
import { users } from '../../server/db/schema';

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

describe.each(ENGINES)('account expiry by the day of the user’s plants on %s', (engine) => {
  let product: TestProduct;
  const query = async (text: ReturnType<typeof sql>) => rowsOf(await product.database.db.execute(text));

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => {
    await product?.close();
  });

  it('agrees in TypeScript and SQL for users of one zone, of two zones and of none, around midnight', async () => {
    // A user of FI01 and FR03 both (Helsinki and Paris), one of each, and one without a plant.
    const mechanic = 'mechanic@example.com';
    const [both] = await query(sql`select u.id, u.email from users u where exists (select 1 from user_attachments a where a.user_id = u.id and a.kind = 'plant' and a.code = 'FR03') order by u.email limit 1`);
    await query(sql`insert into user_attachments (user_id, kind, code) select id, 'plant', 'FI01' from users where id = ${both!.id} on conflict do nothing`);
    const [noPlant] = await query(sql`select u.id, u.email from users u where not exists (select 1 from user_attachments a where a.user_id = u.id and a.kind = 'plant') order by u.email limit 1`);
    const [german] = await query(sql`select u.id, u.email from users u join user_attachments a on a.user_id = u.id and a.kind = 'plant' and a.code = 'DE02'
      where not exists (select 1 from user_attachments b where b.user_id = u.id and b.kind = 'plant' and b.code <> 'DE02') order by u.email limit 1`);
    const emails = [mechanic, String(both!.email), String(noPlant!.email), String(german!.email)];
    await query(sql`update users set expiration_date = '2026-11-30' where email in (${sql.join(
      emails.map((email) => sql`${email}`),
      sql`, `,
    )})`);
    const zonesOf = async (email: string) =>
      (await query(sql`select p.timezone from user_attachments a join plants p on p.code = a.code join users u on u.id = a.user_id where u.email = ${email} and a.kind = 'plant'`)).map((row) =>
        String(row.timezone),
      );
    const instants = ['2026-11-30T21:59:00Z', '2026-11-30T22:00:00Z', '2026-11-30T22:30:00Z', '2026-11-30T23:00:00Z', '2026-11-30T23:59:00Z', '2026-12-01T00:00:00Z'];
    const seen = new Set<string>();
    for (const at of instants) {
      const now = new Date(at);
      const active = new Set(
        (await product.database.db.select({ email: users.email }).from(users).where(notExpiredSql(now))).map((row) => row.email),
      );
      for (const email of emails) {
        const expiredInTs = isPastLastDay('2026-11-30', now, await zonesOf(email));
        expect(!active.has(email), `${email} at ${at}`).toBe(expiredInTs);
        seen.add(`${email}:${expiredInTs}`);
      }
    }
    // Each user's last day ended at its own midnight: Helsinki 22:00 UTC, Paris and Berlin 23:00, none 00:00.
    expect(isPastLastDay('2026-11-30', new Date('2026-11-30T22:00:00Z'), await zonesOf(mechanic))).toBe(true);
    expect(isPastLastDay('2026-11-30', new Date('2026-11-30T22:30:00Z'), await zonesOf(String(both!.email)))).toBe(false);
    expect(isPastLastDay('2026-11-30', new Date('2026-11-30T23:59:00Z'), await zonesOf(String(noPlant!.email)))).toBe(false);
    expect(seen.size).toBe(emails.length * 2);
  });

  it('tells the users screen each user’s day of access (accessDay), and words expired by it', async () => {
    const before = dayIn('Europe/Helsinki');
    const res = await product.app.inject({ method: 'GET', url: '/user_api/v1/users?query=mechanic%40example.com', headers: bearer(await product.token('manager@example.com')) });
    expect(res.statusCode, res.body).toBe(200);
    const row = (res.json().items as Array<{ email: string; accessDay?: string; isExpired: boolean; expirationDate: string | null }>).find((item) => item.email === 'mechanic@example.com')!;
    // The day in Helsinki (FI01), read either side of the call in case midnight falls between.
    expect([before, dayIn('Europe/Helsinki')]).toContain(row.accessDay);
    expect(row.isExpired).toBe(row.expirationDate !== null && row.expirationDate < row.accessDay!);
  });

  it('refuses the sign-in check by the plant’s day, not UTC’s', async () => {
    // A plant zone whose day differs from UTC's at any hour of this run: UTC+14 from 10:00 UTC on
    // (the plant is already in tomorrow), UTC−12 before (still in yesterday).
    const now = new Date();
    const ahead = now.getUTCHours() >= 10;
    const zone = ahead ? 'Etc/GMT-14' : 'Etc/GMT+12';
    await query(sql`update plants set timezone = ${zone} where code = 'FI01'`);
    try {
      const email = 'mikko.virtanen@lift.example';
      const plantDay = dayIn(zone, now);
      const utcDay = now.toISOString().slice(0, 10);
      expect(plantDay).not.toBe(utcDay);
      // Ahead: UTC's today, already past in the plant → refused. Behind: the plant's today, UTC's yesterday → still valid.
      const lastDay = ahead ? utcDay : plantDay;
      await query(sql`update users set expiration_date = ${lastDay} where email = ${email}`);
      const token = await product.token(email);
      const res = await product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers: bearer(token) });
      if (ahead) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().message).toBe('User expired');
      } else {
        expect(res.statusCode, res.body).toBe(200);
      }
    } finally {
      await query(sql`update plants set timezone = 'Europe/Helsinki' where code = 'FI01'`);
    }
  });
});
