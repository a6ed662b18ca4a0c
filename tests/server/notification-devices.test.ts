/**
 * Push devices in the notification settings (§3 pushNotificationsSettings): a save adds only the
 * browser that names itself (X-Device-Id), a user keeps a bounded number of devices so the
 * settings answer stays within its contract, and only the browser in the caller's hand is taken
 * from a previous user: an id merely listed in a body, or read from a colleague's settings, is not.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationSettingsEntry } from '../../src/contract/notifications';
import { PUSH_DEVICES_MAX } from '../../src/contract/notifications';
import { notificationDevices, users } from '../../server/db/schema';
import { PUSH_DEVICES_PER_USER } from '../../server/repositories/notifications';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

type Device = NotificationSettingsEntry['pushNotificationsSettings'][number];

describe.each(ENGINES)('push devices on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const EMAILS = {
    mechanic: 'mechanic@example.com',
    supervisor: 'supervisor@example.com',
    stockAdmin: 'stock.admin@example.com',
    csAdmin: 'cs.admin@example.com',
  } as const;
  type Who = keyof typeof EMAILS;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const [who, email] of Object.entries(EMAILS)) tokens[who] = await product.token(email);
    const rows = await product.database.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, Object.values(EMAILS)));
    for (const [who, email] of Object.entries(EMAILS)) ids[who] = rows.find((r) => r.email === email)!.id;
  });
  afterAll(async () => product?.close());

  const read = (who: Who, of: Who = who) =>
    product.app.inject({ method: 'GET', url: `/user_api/v1/users/${ids[of]}/notifications_settings`, headers: bearer(tokens[who]!) });
  const entriesOf = async (who: Who, of: Who = who) => {
    const res = await read(who, of);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().notification_settings as NotificationSettingsEntry[];
  };
  const save = (who: Who, entries: NotificationSettingsEntry[], device?: string, of: Who = who) =>
    product.app.inject({
      method: 'PUT',
      url: `/user_api/v1/users/${ids[of]}/notifications_settings`,
      headers: { ...bearer(tokens[who]!), ...(device ? { 'x-device-id': device } : {}) },
      payload: { notificationSettings: entries } as unknown as Record<string, unknown>,
    });
  /** The primary entry listing `devices` (in place of those of the same id). */
  const listing = (entries: NotificationSettingsEntry[], devices: Device[]) =>
    entries.map((e) =>
      e.primary ? { ...e, pushNotificationsSettings: [...e.pushNotificationsSettings.filter((d) => !devices.some((n) => n.deviceId === d.deviceId)), ...devices] } : e,
    );
  const phone = (deviceId: string, token: string | null, isLoggedIn = true): Device => ({ deviceId, deviceName: 'Android / Chrome', token, isEnabled: true, isLoggedIn });
  /** Registers `device` as the browser that saves (X-Device-Id), as the PWA does. */
  const register = async (who: Who, device: Device) => {
    const res = await save(who, listing(await entriesOf(who), [device]), device.deviceId);
    expect(res.statusCode, res.body).toBe(200);
  };
  const rowsOf = (who: Who) => product.database.db.select().from(notificationDevices).where(eq(notificationDevices.userId, ids[who]!));
  const rowOf = async (who: Who, deviceId: string) =>
    (await product.database.db.select().from(notificationDevices).where(and(eq(notificationDevices.userId, ids[who]!), eq(notificationDevices.deviceId, deviceId))))[0];

  it('keeps a user’s devices bounded: 60 browsers registered over time still read as a 200, the newest first', async () => {
    for (let n = 1; n <= 60; n += 1) await register('mechanic', phone(`9000000${String(n).padStart(3, '0')}`, `tok-m-${n}`));
    const res = await read('mechanic');
    expect(res.statusCode, res.body).toBe(200);
    const listed = (res.json().notification_settings as NotificationSettingsEntry[])[0]!.pushNotificationsSettings;
    expect(listed.length).toBeLessThanOrEqual(PUSH_DEVICES_PER_USER);
    expect(PUSH_DEVICES_PER_USER).toBeLessThanOrEqual(PUSH_DEVICES_MAX);
    expect(listed[0]!.deviceId).toBe('9000000060');
    expect((await rowsOf('mechanic')).length).toBe(PUSH_DEVICES_PER_USER);
    // The least recently updated went (the oldest registrations and the seeded devices).
    expect(await rowOf('mechanic', '9000000001')).toBeUndefined();
    expect(await rowOf('mechanic', '9000000041')).toBeDefined();
    // The list sent back as it was read is a save like any other.
    const again = await save('mechanic', await entriesOf('mechanic'), '9000000060');
    expect(again.statusCode, again.body).toBe(200);
    // A supervisor reads them too.
    expect((await read('supervisor', 'mechanic')).statusCode).toBe(200);
  });

  it('adds no device merely listed in a body, with or without X-Device-Id', async () => {
    const before = (await rowsOf('mechanic')).length;
    for (let call = 0; call < 3; call += 1) {
      const listed = Array.from({ length: 20 }, (_, i) => phone(`8000${call}${String(i).padStart(3, '0')}`, `tok-l-${call}-${i}`));
      expect((await save('mechanic', listing(await entriesOf('mechanic'), listed))).statusCode).toBe(200);
      expect((await save('mechanic', listing(await entriesOf('mechanic'), listed), '9000000060')).statusCode).toBe(200);
    }
    expect((await rowsOf('mechanic')).length).toBe(before);
    expect((await read('mechanic')).statusCode).toBe(200);
  });

  it('changes a listed device of one’s own only by its switch (and a sign-out), never its token or a sign-in', async () => {
    await register('mechanic', phone('7000000001', 'tok-own', false));
    await save('mechanic', listing(await entriesOf('mechanic'), [{ ...phone('7000000001', 'tok-forged'), isEnabled: false }]), '9000000060');
    expect(await rowOf('mechanic', '7000000001')).toMatchObject({ isEnabled: false, isLoggedIn: false, token: 'tok-own' });
    await save('mechanic', listing(await entriesOf('mechanic'), [{ ...phone('7000000001', 'tok-forged'), isEnabled: true }]));
    expect(await rowOf('mechanic', '7000000001')).toMatchObject({ isEnabled: true, isLoggedIn: false, token: 'tok-own' });
    // A client that does not name itself may still sign its own device out.
    await register('mechanic', phone('7000000002', 'tok-two'));
    await save('mechanic', listing(await entriesOf('mechanic'), [phone('7000000002', 'tok-two', false)]));
    expect(await rowOf('mechanic', '7000000002')).toMatchObject({ isLoggedIn: false, token: 'tok-two' });
  });

  it('leaves a colleague’s device and token alone when a body lists its id as signed in', async () => {
    await register('supervisor', phone('6000000001', 'tok-supervisor'));
    // The id known some other way, listed in one's own save: it takes nothing, named or not.
    const taker = phone('6000000001', 'tok-taker');
    expect((await save('stockAdmin', listing(await entriesOf('stockAdmin'), [taker]))).statusCode).toBe(200);
    expect((await save('stockAdmin', listing(await entriesOf('stockAdmin'), [taker]), '5000000001')).statusCode).toBe(200);
    expect(await rowOf('supervisor', '6000000001')).toMatchObject({ isLoggedIn: true, token: 'tok-supervisor' });
    expect(await rowOf('stockAdmin', '6000000001')).toBeUndefined();
  });

  it('shows an editor of a colleague’s settings stand-ins for the device ids, and their save still works', async () => {
    // The stock admin may read the supervisor's settings (§6), but learns no device id from them …
    const seen = (await entriesOf('stockAdmin', 'supervisor'))[0]!.pushNotificationsSettings;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.map((d) => d.deviceId)).not.toContain('6000000001');
    expect(seen.every((d) => d.token === null && !/^\d+$/.test(d.deviceId))).toBe(true);
    // … the same stand-ins at the next read …
    expect((await entriesOf('stockAdmin', 'supervisor'))[0]!.pushNotificationsSettings.map((d) => d.deviceId)).toEqual(seen.map((d) => d.deviceId));
    // … and their save of the supervisor's settings works, the devices untouched.
    const before = await rowsOf('supervisor');
    const edited = await save('stockAdmin', await entriesOf('stockAdmin', 'supervisor'), '6000000001', 'supervisor');
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json().notification_settings as NotificationSettingsEntry[])[0]!.pushNotificationsSettings.map((d) => d.deviceId)).toEqual(seen.map((d) => d.deviceId));
    expect(await rowsOf('supervisor')).toEqual(before);
  });

  it('still takes a shared phone from its previous user when that phone saves (X-Device-Id): same id or same token', async () => {
    await register('supervisor', phone('4000000001', 'tok-depot'));
    await register('stockAdmin', phone('4000000002', 'tok-shared'));
    await register('csAdmin', phone('4000000001', 'tok-shared'));
    expect(await rowOf('supervisor', '4000000001')).toMatchObject({ isLoggedIn: false, token: null });
    expect(await rowOf('stockAdmin', '4000000002')).toMatchObject({ isLoggedIn: false, token: null });
    expect(await rowOf('csAdmin', '4000000001')).toMatchObject({ isLoggedIn: true, token: 'tok-shared' });
    // A sign-out mark of the phone changes no one else's.
    await register('supervisor', phone('4000000001', 'tok-shared', false));
    expect(await rowOf('csAdmin', '4000000001')).toMatchObject({ isLoggedIn: true, token: 'tok-shared' });
  });
});
