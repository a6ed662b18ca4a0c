/**
 * A settings save names what it started from (decision 0068). The settings carry a revision; a save
 * naming an older one is refused (409 notificationSettingsChangedMeanwhile) with nothing written,
 * instead of turning back a change made meanwhile on another device or by someone else. A browser
 * registers for push and signs out through calls of its own that write its device's row only, so
 * neither moves the settings nor overwrites a save landing between a read and a write.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationSettingsEntry } from '../../src/contract/notifications';
import { notificationDevices, notificationSettings, users } from '../../server/db/schema';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

interface Settings {
  notification_settings: NotificationSettingsEntry[];
  revision: number;
}

describe.each(ENGINES)('notification settings changed meanwhile on %s', (engine) => {
  let product: TestProduct;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const EMAILS = { mechanic: 'mechanic@example.com', supervisor: 'supervisor@example.com' } as const;
  type Who = keyof typeof EMAILS;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const [who, email] of Object.entries(EMAILS)) tokens[who] = await product.token(email);
    const rows = await product.database.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, Object.values(EMAILS)));
    for (const [who, email] of Object.entries(EMAILS)) ids[who] = rows.find((r) => r.email === email)!.id;
  });
  afterAll(async () => product?.close());

  const url = (of: Who) => `/user_api/v1/users/${ids[of]}/notifications_settings`;
  const read = async (who: Who, of: Who = 'mechanic'): Promise<Settings> => {
    const res = await product.app.inject({ method: 'GET', url: url(of), headers: bearer(tokens[who]!) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const save = (who: Who, entries: NotificationSettingsEntry[], extra: { expectedRevision?: number; device?: string } = {}, of: Who = 'mechanic') =>
    product.app.inject({
      method: 'PUT',
      url: url(of),
      headers: { ...bearer(tokens[who]!), ...(extra.device ? { 'x-device-id': extra.device } : {}) },
      payload: { notificationSettings: entries, ...(extra.expectedRevision === undefined ? {} : { expectedRevision: extra.expectedRevision }) } as unknown as Record<string, unknown>,
    });
  const register = (who: Who, deviceId: string, token: string, of: Who = who) =>
    product.app.inject({
      method: 'PUT',
      url: `/user_api/v1/users/${ids[of]}/push_devices/${deviceId}`,
      headers: bearer(tokens[who]!),
      payload: { deviceName: 'Android / Chrome', token },
    });
  const signOut = (who: Who, deviceId: string, of: Who = who) =>
    product.app.inject({ method: 'DELETE', url: `/user_api/v1/users/${ids[of]}/push_devices/${deviceId}/sign_in`, headers: bearer(tokens[who]!) });
  const primary = (settings: Settings) => settings.notification_settings.find((e) => e.primary)!;
  const secondary = (settings: Settings) => settings.notification_settings.find((e) => !e.primary)!;
  /** `entries` with one change in the entry that is (or is not) primary. */
  const changing = (entries: NotificationSettingsEntry[], isPrimary: boolean, change: (entry: NotificationSettingsEntry) => NotificationSettingsEntry) =>
    entries.map((e) => (e.primary === isPrimary ? change(e) : e));
  const deliverySms = (on: boolean) => (entry: NotificationSettingsEntry) => ({
    ...entry,
    notificationsPreferences: { ...entry.notificationsPreferences, delivery_notification: { ...entry.notificationsPreferences.delivery_notification, smsEnabled: on } },
  });
  const storedRows = () => product.database.db.select().from(notificationSettings).where(eq(notificationSettings.userId, ids.mechanic!));
  const deviceRow = async (deviceId: string) =>
    (await product.database.db.select().from(notificationDevices).where(and(eq(notificationDevices.userId, ids.mechanic!), eq(notificationDevices.deviceId, deviceId))))[0];

  it('refuses the supervisor’s save of a form opened before the mechanic turned delivery SMS on: SMS stays on', async () => {
    // Delivery SMS off to begin with (the seed has it on).
    expect((await save('mechanic', changing((await read('mechanic')).notification_settings, true, deliverySms(false)))).statusCode).toBe(200);
    // 09:00 the supervisor opens the mechanic's settings.
    const opened = await read('supervisor');
    expect(primary(opened).notificationsPreferences.delivery_notification.smsEnabled).toBe(false);
    // 09:05 the mechanic turns delivery SMS on from the phone (their form names what it opened).
    const own = await read('mechanic');
    expect(own.revision).toBe(opened.revision);
    const turnedOn = await save('mechanic', changing(own.notification_settings, true, deliverySms(true)), { expectedRevision: own.revision, device: '100000000000001' });
    expect(turnedOn.statusCode, turnedOn.body).toBe(200);
    expect((turnedOn.json() as Settings).revision).toBeGreaterThan(own.revision);
    const before = await storedRows();

    // 09:10 the supervisor saves a secondary e-mail address on the form opened at 09:00.
    const withAddress = changing(opened.notification_settings, false, (e) => ({ ...e, emailEnabled: true, email: 'mechanic.backup@example.com' }));
    const refused = await save('supervisor', withAddress, { expectedRevision: opened.revision });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'notificationSettingsChangedMeanwhile' });
    expect(refused.json().message).toContain('nothing was saved');
    // Nothing written: SMS still on, no secondary address, the revision where the mechanic left it.
    expect(await storedRows()).toEqual(before);
    const now = await read('supervisor');
    expect(primary(now).notificationsPreferences.delivery_notification.smsEnabled).toBe(true);
    expect(secondary(now).email).not.toBe('mechanic.backup@example.com');

    // Read again, the same change saves, on top of the mechanic's.
    const again = await save('supervisor', changing(now.notification_settings, false, (e) => ({ ...e, emailEnabled: true, email: 'mechanic.backup@example.com' })), {
      expectedRevision: now.revision,
    });
    expect(again.statusCode, again.body).toBe(200);
    const after = await read('mechanic');
    expect(primary(after).notificationsPreferences.delivery_notification.smsEnabled).toBe(true);
    expect(secondary(after).email).toBe('mechanic.backup@example.com');
  });

  it('takes one of two saves started from the same revision, sent at once', async () => {
    const opened = await read('mechanic');
    const [first, second] = await Promise.all([
      save('mechanic', changing(opened.notification_settings, true, deliverySms(false)), { expectedRevision: opened.revision }),
      save('supervisor', changing(opened.notification_settings, false, (e) => ({ ...e, email: 'other.backup@example.com' })), { expectedRevision: opened.revision }),
    ]);
    expect([first!.statusCode, second!.statusCode].sort()).toEqual([200, 409]);
  });

  it('saves as before for a caller naming no revision, and moves the revision', async () => {
    const opened = await read('supervisor');
    const res = await save('supervisor', changing(opened.notification_settings, true, deliverySms(true)));
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Settings).revision).toBeGreaterThan(opened.revision);
    // A stale revision from before it is refused now.
    expect((await save('supervisor', opened.notification_settings, { expectedRevision: opened.revision })).statusCode).toBe(409);
  });

  it('registers and signs out a device by its own row: a save landing between is kept and an open form still saves', async () => {
    const formOpened = await read('mechanic');
    // A save lands elsewhere (the supervisor turns delivery SMS off) …
    const fresh = await read('supervisor');
    expect((await save('supervisor', changing(fresh.notification_settings, true, deliverySms(false)), { expectedRevision: fresh.revision })).statusCode).toBe(200);
    const afterSave = await read('mechanic');

    // … then the app starts with push allowed: its registration writes its device only.
    const registered = await register('mechanic', '200000000000002', 'tok-start');
    expect(registered.statusCode, registered.body).toBe(200);
    expect(await deviceRow('200000000000002')).toMatchObject({ token: 'tok-start', isLoggedIn: true, isEnabled: true });
    const afterRegistration = await read('mechanic');
    expect(afterRegistration.revision).toBe(afterSave.revision);
    expect(primary(afterRegistration).notificationsPreferences).toEqual(primary(afterSave).notificationsPreferences);
    expect(primary(afterRegistration).notificationsPreferences.delivery_notification.smsEnabled).toBe(false);

    // The mechanic's form, opened before the supervisor's save, is refused; opened after it, it
    // saves though the device registered since (its switch only: the token it listed is not written).
    expect((await save('mechanic', formOpened.notification_settings, { expectedRevision: formOpened.revision })).statusCode).toBe(409);
    const switchedOff = afterSave.notification_settings.map((e) =>
      e.primary
        ? { ...e, pushNotificationsSettings: [...e.pushNotificationsSettings, { deviceId: '200000000000002', deviceName: 'x', token: 'tok-stale', isEnabled: false, isLoggedIn: false }] }
        : e,
    );
    const formSave = await save('mechanic', switchedOff, { expectedRevision: afterSave.revision, device: '200000000000002' });
    expect(formSave.statusCode, formSave.body).toBe(200);
    expect(await deviceRow('200000000000002')).toMatchObject({ token: 'tok-start', isLoggedIn: true, isEnabled: false });

    // A renewed token keeps the switch the user set; the sign-out marks the device only.
    expect((await register('mechanic', '200000000000002', 'tok-renewed')).statusCode).toBe(200);
    expect(await deviceRow('200000000000002')).toMatchObject({ token: 'tok-renewed', isLoggedIn: true, isEnabled: false });
    const beforeSignOut = await storedRows();
    const signedOut = await signOut('mechanic', '200000000000002');
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    expect(await deviceRow('200000000000002')).toMatchObject({ token: 'tok-renewed', isLoggedIn: false, isEnabled: false });
    expect(await storedRows()).toEqual(beforeSignOut);
    // A device never registered: nothing to mark, nothing added.
    expect((await signOut('mechanic', '300000000000003')).statusCode).toBe(200);
    expect(await deviceRow('300000000000003')).toBeUndefined();
  });

  it('lets only the user register or sign out a device of theirs', async () => {
    expect((await register('supervisor', '400000000000004', 'tok-forged', 'mechanic')).statusCode).toBe(403);
    expect((await signOut('supervisor', '200000000000002', 'mechanic')).statusCode).toBe(403);
    expect(await deviceRow('400000000000004')).toBeUndefined();
  });
});
