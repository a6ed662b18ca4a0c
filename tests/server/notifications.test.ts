/**
 * #6 notifications: settings (§5 messages, §6 who may), the caller's own lists and read marks,
 * the pipeline (preferences decide channels; outbox sent only after commit) and the transports
 * against real local sinks (an SMTP server and an HTTP SMS provider on 127.0.0.1).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/domain/constants';
import type { NotificationSettingsEntry } from '../../src/contract/notifications';
import { auditLog, notificationDevices, notifications, userGrants, users } from '../../server/db/schema';
import { emitNotifications } from '../../server/notifications/emit';
import { channelsFor } from '../../server/notifications/record';
import { createDispatcher, MAX_ATTEMPTS } from '../../server/notifications/dispatcher';
import { createTransports, type Transports } from '../../server/notifications/transports';
import { englishNotificationText } from '../../server/notifications/texts';
import type { NotificationText } from '../../src/domain/notification-texts';
import { loadNotificationConfig } from '../../server/notifications/config';
import { defaultPreferences } from '../../server/notifications/settings';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const silent = { info: () => undefined, warn: () => undefined };

interface Mail {
  to: string;
  raw: string;
}

async function startSmtpSink(): Promise<{ url: string; mails: Mail[]; close: () => Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function startSmsProvider(): Promise<{ url: string; received: unknown[]; failNext: { count: number }; close: () => Promise<void> }> {
  const received: unknown[] = [];
  const failNext = { count: 0 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (failNext.count > 0) {
        failNext.count -= 1;
        res.writeHead(503).end();
        return;
      }
      received.push({ auth: req.headers.authorization, ...JSON.parse(body) });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sms`, received, failNext, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const pref = (email: boolean, sms: boolean, push: boolean) => ({ emailEnabled: email, smsEnabled: sms, pushEnabled: push });

function entry(primary: boolean, overrides: Partial<NotificationSettingsEntry> = {}): NotificationSettingsEntry {
  return {
    primary,
    emailEnabled: false,
    email: null,
    mobileEnabled: false,
    mobileNumber: null,
    pushNotificationsEnabled: false,
    pushNotificationsSettings: [],
    notificationsPreferences: defaultPreferences({ email: false, sms: false, push: false }),
    ...overrides,
  };
}

describe('channelsFor (preferences decide channels)', () => {
  it('uses a channel only when the entry AND its per-type preference enable it', () => {
    const primary = entry(true, {
      emailEnabled: true,
      email: 'a@example.com',
      mobileEnabled: true,
      mobileNumber: '+358401234567',
      pushNotificationsEnabled: true,
      notificationsPreferences: { ...defaultPreferences({ email: false, sms: false, push: false }), delivery_notification: pref(true, false, true) },
    });
    const secondary = entry(false, {
      emailEnabled: true,
      email: 'b@example.com',
      mobileEnabled: false,
      mobileNumber: '+358409999999',
      notificationsPreferences: { ...defaultPreferences({ email: false, sms: false, push: false }), delivery_notification: pref(true, true, false) },
    });
    expect(channelsFor([primary, secondary], 'delivery_notification')).toEqual([
      { channel: 'email', recipient: 'a@example.com' },
      { channel: 'push', recipient: null },
      { channel: 'email', recipient: 'b@example.com' },
    ]);
    expect(channelsFor([primary, secondary], 'other_notification')).toEqual([]);
  });

  it('sends one SMS to a number both entries name, however it is written (§5 digits-only comparison)', () => {
    const sms = { mobileEnabled: true, notificationsPreferences: defaultPreferences({ email: false, sms: true, push: false }) };
    const planned = channelsFor([entry(true, { ...sms, mobileNumber: '+358 40 123 4567' }), entry(false, { ...sms, mobileNumber: '358-40-1234567' })], 'contact_notification');
    expect(planned).toEqual([{ channel: 'sms', recipient: '+358 40 123 4567' }]);
  });

  it('sends once to an address both entries name', () => {
    const both = { emailEnabled: true, email: 'same@example.com', notificationsPreferences: defaultPreferences({ email: true, sms: false, push: false }) };
    expect(channelsFor([entry(true, both), entry(false, { ...both, email: 'SAME@example.com' })], 'contact_notification')).toHaveLength(1);
  });
});

describe.each(ENGINES)('notifications on %s', (engine) => {
  let product: TestProduct;
  let tokens: Record<string, string>;
  const ids: Record<string, string> = {};

  const EMAILS = {
    mechanic: 'mechanic@example.com',
    supervisor: 'supervisor@example.com',
    stockAdmin: 'stock.admin@example.com',
    csAdmin: 'cs.admin@example.com',
    manager: 'manager@example.com',
    viewer: 'viewer@example.com',
    pmReader: 'pm.reader@example.com',
    lyon: 'julien.martin@parts.example',
    munich: 'lukas.mueller@lift.example',
  } as const;
  type Who = keyof typeof EMAILS;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    tokens = {};
    for (const [who, email] of Object.entries(EMAILS)) tokens[who] = await product.token(email);
    const rows = await product.database.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, Object.values(EMAILS)));
    for (const [who, email] of Object.entries(EMAILS)) ids[who] = rows.find((r) => r.email === email)!.id;
  });
  afterAll(async () => product?.close());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH', url: string, who: Who, payload?: unknown, headers: Record<string, string> = {}) =>
    product.app.inject({ method, url: `/user_api/v1${url}`, headers: { ...bearer(tokens[who]!), ...headers }, payload: payload as Record<string, unknown> });

  const settingsOf = async (who: Who, of: Who = who) => call('GET', `/users/${ids[of]}/notifications_settings`, who);

  describe('settings', () => {
    it('returns a primary and a secondary entry with every §3 field', async () => {
      const res = await settingsOf('mechanic');
      expect(res.statusCode).toBe(200);
      const entries = res.json().notification_settings as NotificationSettingsEntry[];
      expect(entries.map((e) => e.primary)).toEqual([true, false]);
      expect(Object.keys(entries[0]!).sort()).toEqual(
        ['email', 'emailEnabled', 'mobileEnabled', 'mobileNumber', 'notificationsPreferences', 'primary', 'pushNotificationsEnabled', 'pushNotificationsSettings'].sort(),
      );
      expect(Object.keys(entries[0]!.notificationsPreferences).sort()).toEqual(
        ['contact_notification', 'delivery_notification', 'inventory_count_notification', 'other_notification'],
      );
      expect(entries[0]!.pushNotificationsSettings.length).toBeGreaterThan(0);
    });

    it('round-trips a change, and registers this device for push', async () => {
      const current = (await settingsOf('mechanic')).json().notification_settings as NotificationSettingsEntry[];
      const device = { deviceId: '123456789', deviceName: 'Linux / Chrome', token: 'tok-abc', isEnabled: true, isLoggedIn: true };
      const changed = current.map((e) =>
        e.primary ? { ...e, mobileEnabled: true, mobileNumber: '+358 40 123 4567', pushNotificationsSettings: [device] } : e,
      );
      // The browser that saves names itself (X-Device-Id): only it is added (decision 0066).
      const put = await call('PUT', `/users/${ids.mechanic}/notifications_settings`, 'mechanic', { notificationSettings: changed }, { 'x-device-id': device.deviceId });
      expect(put.statusCode).toBe(200);
      const saved = put.json().notification_settings as NotificationSettingsEntry[];
      expect(saved[0]!.mobileNumber).toBe('+358 40 123 4567');
      expect(saved[0]!.pushNotificationsSettings).toContainEqual(device);
      // Devices the client did not mention are kept (another browser of the same user).
      expect(saved[0]!.pushNotificationsSettings.length).toBe(current[0]!.pushNotificationsSettings.length + 1);
      // A browser that could not name itself stays nameless: the screen names it in the reader's
      // language (it was stored as the English "Unknown device").
      const nameless = { ...device, deviceId: '987654321', deviceName: '' };
      const again = await call(
        'PUT',
        `/users/${ids.mechanic}/notifications_settings`,
        'mechanic',
        { notificationSettings: saved.map((e) => (e.primary ? { ...e, pushNotificationsSettings: [nameless] } : e)) },
        { 'x-device-id': nameless.deviceId },
      );
      expect(again.statusCode, again.body).toBe(200);
      expect((again.json().notification_settings as NotificationSettingsEntry[])[0]!.pushNotificationsSettings).toContainEqual(nameless);
    });

    it('signs the previous user of a shared browser out of it: same device id or same push token, token dropped', async () => {
      const register = async (who: Who, device: { deviceId: string; token: string; isLoggedIn: boolean }) => {
        const current = (await settingsOf(who)).json().notification_settings as NotificationSettingsEntry[];
        const changed = current.map((e) => (e.primary ? { ...e, pushNotificationsSettings: [{ deviceName: 'Android / Chrome', isEnabled: true, ...device }] } : e));
        const put = await call('PUT', `/users/${ids[who]}/notifications_settings`, who, { notificationSettings: changed }, { 'x-device-id': device.deviceId });
        expect(put.statusCode, put.body).toBe(200);
      };
      const devicesOf = (who: Who) =>
        product.database.db.select().from(notificationDevices).where(eq(notificationDevices.userId, ids[who]!));
      await register('supervisor', { deviceId: 'depot-tablet', token: 'tok-depot', isLoggedIn: true });
      await register('csAdmin', { deviceId: 'other-browser', token: 'tok-shared', isLoggedIn: true });
      // The stock admin signs in on the same tablet (its id) and gets the token the CS admin's browser had.
      await register('stockAdmin', { deviceId: 'depot-tablet', token: 'tok-shared', isLoggedIn: true });
      expect((await devicesOf('supervisor')).find((d) => d.deviceId === 'depot-tablet')).toMatchObject({ isLoggedIn: false, token: null });
      expect((await devicesOf('csAdmin')).find((d) => d.deviceId === 'other-browser')).toMatchObject({ isLoggedIn: false, token: null });
      expect((await devicesOf('stockAdmin')).find((d) => d.deviceId === 'depot-tablet')).toMatchObject({ isLoggedIn: true, token: 'tok-shared' });
      // A sign-out mark of a device changes no one else's.
      await register('supervisor', { deviceId: 'depot-tablet', token: 'tok-shared', isLoggedIn: false });
      expect((await devicesOf('stockAdmin')).find((d) => d.deviceId === 'depot-tablet')).toMatchObject({ isLoggedIn: true, token: 'tok-shared' });
    });

    it('takes the token and sign-in state only of the browser that saves (X-Device-Id); of other devices only their switch', async () => {
      const put = (who: Who, entries: NotificationSettingsEntry[], device: string) =>
        product.app.inject({
          method: 'PUT',
          url: `/user_api/v1/users/${ids[who]}/notifications_settings`,
          headers: { ...bearer(tokens[who]!), 'x-device-id': device },
          payload: { notificationSettings: entries } as unknown as Record<string, unknown>,
        });
      const withDevice = (entries: NotificationSettingsEntry[], device: NotificationSettingsEntry['pushNotificationsSettings'][number]) =>
        entries.map((e) => (e.primary ? { ...e, pushNotificationsSettings: [...e.pushNotificationsSettings.filter((d) => d.deviceId !== device.deviceId), device] } : e));
      const tablet = { deviceId: 'shared-tablet', deviceName: 'Android / Chrome', token: 'tok-tablet', isEnabled: true, isLoggedIn: true };
      expect((await put('mechanic', withDevice((await settingsOf('mechanic')).json().notification_settings, tablet), 'shared-tablet')).statusCode).toBe(200);
      // The mechanic's desktop opens the form (the tablet signed in, with its token) …
      const stale = (await settingsOf('mechanic')).json().notification_settings as NotificationSettingsEntry[];
      // … the stock admin signs in on the tablet, which signs the mechanic out of it …
      const admins = (await settingsOf('stockAdmin')).json().notification_settings as NotificationSettingsEntry[];
      expect((await put('stockAdmin', withDevice(admins, { ...tablet }), 'shared-tablet')).statusCode).toBe(200);
      // … and the desktop saves its old copy, the tablet's switch turned off.
      const saved = await put('mechanic', withDevice(stale, { ...tablet, isEnabled: false }), 'mechanic-desktop');
      expect(saved.statusCode, saved.body).toBe(200);
      const devices = await product.database.db.select().from(notificationDevices).where(eq(notificationDevices.deviceId, 'shared-tablet'));
      expect(devices.find((d) => d.userId === ids.mechanic)).toMatchObject({ isLoggedIn: false, token: null, isEnabled: false });
      expect(devices.find((d) => d.userId === ids.stockAdmin)).toMatchObject({ isLoggedIn: true, token: 'tok-tablet' });
      // A device the saving browser does not know of is not added by it.
      expect((await put('mechanic', withDevice(stale, { ...tablet, deviceId: 'never-seen' }), 'mechanic-desktop')).statusCode).toBe(200);
      expect(await product.database.db.select().from(notificationDevices).where(eq(notificationDevices.deviceId, 'never-seen'))).toEqual([]);
    });

    it('refuses an invalid mobile number with the §5 message', async () => {
      for (const mobileNumber of ['0401234567', '+12', '+358abc', '358 40 123']) {
        const res = await call('PUT', `/users/${ids.mechanic}/notifications_settings`, 'mechanic', {
          notificationSettings: [entry(true, { mobileEnabled: true, mobileNumber })],
        });
        expect(res.statusCode, mobileNumber).toBe(400);
        expect(res.json().message).toContain(MESSAGES.mobileNumber);
      }
    });

    it('refuses an invalid e-mail with the §5 messages, nothing saved', async () => {
      const before = (await settingsOf('mechanic')).json();
      const bad = await call('PUT', `/users/${ids.mechanic}/notifications_settings`, 'mechanic', {
        notificationSettings: [entry(true, { emailEnabled: true, email: 'not an address' })],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain(MESSAGES.emailFormat);
      const twoAts = await call('PUT', `/users/${ids.mechanic}/notifications_settings`, 'mechanic', {
        notificationSettings: [entry(true, { emailEnabled: true, email: 'a@b@example.com' })],
      });
      expect(twoAts.json().message).toContain(MESSAGES.emailFormat);
      const foreign = await call('PUT', `/users/${ids.mechanic}/notifications_settings`, 'mechanic', {
        notificationSettings: [entry(true, { emailEnabled: true, email: 'someone@gmail.com' })],
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().message).toBe(MESSAGES.emailDomainNotSupported('gmail.com'));
      expect((await settingsOf('mechanic')).json()).toEqual(before);
    });

    it('refuses another user’s settings to users without §6 rights', async () => {
      expect((await settingsOf('mechanic', 'supervisor')).statusCode).toBe(403);
      expect((await settingsOf('viewer', 'mechanic')).statusCode).toBe(403);
      const put = await call('PUT', `/users/${ids.supervisor}/notifications_settings`, 'mechanic', { notificationSettings: [entry(true)] });
      expect(put.statusCode).toBe(403);
      expect(put.json().message).toBe('You may only read and change your own notification settings');
    });

    it('lets supervisor / stock admin change users of plants they share, and nobody else', async () => {
      expect((await settingsOf('supervisor', 'mechanic')).statusCode).toBe(200);
      expect((await settingsOf('stockAdmin', 'munich')).statusCode).toBe(200);
      // cs.admin is in DE02, the FI01 supervisor shares no plant with them.
      expect((await settingsOf('supervisor', 'csAdmin')).statusCode).toBe(403);
      expect((await settingsOf('supervisor', 'lyon')).statusCode).toBe(403);
      const current = (await settingsOf('supervisor', 'mechanic')).json().notification_settings as NotificationSettingsEntry[];
      const changed = current.map((e) => (e.primary ? { ...e, pushNotificationsSettings: [] } : e));
      changed[1] = { ...changed[1]!, emailEnabled: true, email: 'team.fi01@example.com' };
      const put = await call('PUT', `/users/${ids.mechanic}/notifications_settings`, 'supervisor', { notificationSettings: changed });
      expect(put.statusCode).toBe(200);
      // An admin never touches device tokens: the mechanic's devices are all still there.
      expect(put.json().notification_settings[0].pushNotificationsSettings.length).toBe(current[0]!.pushNotificationsSettings.length);
      const audit = await product.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'notificationSettings.update'), eq(auditLog.targetId, ids.mechanic!)));
      expect(audit.map((a) => a.actorEmail)).toContain(EMAILS.supervisor);
      expect((await settingsOf('manager', 'lyon')).statusCode).toBe(200);
      // Not upwards: the FI01 supervisor shares FI01 with the stock admin, and may not redirect or
      // silence their messages; a stock admin may a supervisor's.
      const upwards = await call('PUT', `/users/${ids.stockAdmin}/notifications_settings`, 'supervisor', { notificationSettings: changed });
      expect(upwards.statusCode).toBe(403);
      expect(upwards.json().message).toBe('You may read and change the notification settings only of users in your notification plants whose role does not rank above yours');
      expect((await settingsOf('supervisor', 'stockAdmin')).statusCode).toBe(403);
      expect((await settingsOf('stockAdmin', 'supervisor')).statusCode).toBe(200);
    });

    it('lets a read-only super manager who is also a supervisor edit as a supervisor only (plants and rank), not as a super manager', async () => {
      await product.database.db.insert(userGrants).values({ userId: ids.supervisor!, grantId: 'super_manager_read_only' });
      try {
        expect((await settingsOf('supervisor', 'mechanic')).statusCode).toBe(200);
        expect((await settingsOf('supervisor', 'lyon')).statusCode).toBe(403);
        const managers = (await settingsOf('manager', 'manager')).json().notification_settings as NotificationSettingsEntry[];
        const redirected = managers.map((e) => (e.primary ? { ...e, pushNotificationsSettings: [], emailEnabled: true, email: 'supervisor@example.com' } : e));
        expect((await call('PUT', `/users/${ids.manager}/notifications_settings`, 'supervisor', { notificationSettings: redirected })).statusCode).toBe(403);
        expect((await settingsOf('manager', 'manager')).json().notification_settings[0].email).toBe(managers[0]!.email);
      } finally {
        await product.database.db.delete(userGrants).where(and(eq(userGrants.userId, ids.supervisor!), eq(userGrants.grantId, 'super_manager_read_only')));
      }
    });

    it('lists to each editor exactly the people whose settings they may change, and no one to others', async () => {
      const team = async (who: Who, query = '') => call('GET', `/users/notification_settings_team${query ? `?query=${encodeURIComponent(query)}` : ''}`, who);
      const emails = async (who: Who, query = '') => ((await team(who, query)).json().users as Array<{ email: string }>).map((u) => u.email);
      const supervisors = await emails('supervisor');
      expect(supervisors).toContain(EMAILS.mechanic);
      for (const other of [EMAILS.supervisor, EMAILS.stockAdmin, EMAILS.manager, EMAILS.viewer, EMAILS.lyon]) expect(supervisors).not.toContain(other);
      // Every one listed is one the settings call lets them read (the same rule).
      for (const email of supervisors.slice(0, 5)) {
        const [row] = await product.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
        expect((await call('GET', `/users/${row!.id}/notifications_settings`, 'supervisor')).statusCode, email).toBe(200);
      }
      expect(await emails('stockAdmin')).toContain(EMAILS.supervisor);
      expect(await emails('supervisor', 'MECHANIC@')).toEqual([EMAILS.mechanic]);
      expect(await emails('supervisor', '100%_')).toEqual([]);
      const managers = await team('manager', 'example');
      expect(managers.json().users.map((u: { email: string }) => u.email)).toContain(EMAILS.stockAdmin);
      expect((await team('mechanic')).statusCode).toBe(403);
      expect((await team('viewer')).statusCode).toBe(403);
      expect((await call('GET', `/users/notification_settings_team?query=${'x'.repeat(101)}`, 'supervisor')).statusCode).toBe(400);
    });

    it('shows push device tokens only to their owner; a supervisor, stock admin or manager sees the devices without them', async () => {
      const tokensOf = (body: { notification_settings: NotificationSettingsEntry[] }) =>
        body.notification_settings.flatMap((e) => e.pushNotificationsSettings.map((d) => d.token));
      const own = await settingsOf('mechanic');
      expect(tokensOf(own.json()).filter((t) => t !== null).length).toBeGreaterThan(0);
      for (const who of ['supervisor', 'stockAdmin', 'manager'] as const) {
        const other = await settingsOf(who, 'mechanic');
        expect(other.statusCode, who).toBe(200);
        const tokens = tokensOf(other.json());
        expect(tokens.length, who).toBe(tokensOf(own.json()).length);
        expect(tokens.every((t) => t === null), who).toBe(true);
      }
      // The answer to an admin's change carries no tokens either, and the stored ones stay.
      const current = (await settingsOf('supervisor', 'mechanic')).json().notification_settings as NotificationSettingsEntry[];
      const put = await call('PUT', `/users/${ids.mechanic}/notifications_settings`, 'supervisor', { notificationSettings: current });
      expect(put.statusCode).toBe(200);
      expect(tokensOf(put.json()).every((t) => t === null)).toBe(true);
      expect(tokensOf((await settingsOf('mechanic')).json())).toEqual(tokensOf(own.json()));
    });

    it('has no settings outside notification plants', async () => {
      expect((await settingsOf('lyon')).statusCode).toBe(403);
      expect((await settingsOf('pmReader')).statusCode).toBe(403);
    });
  });

  describe('the caller’s notifications', () => {
    it('lists the four keys with titles', async () => {
      const res = await call('GET', '/notifications/list_keys', 'mechanic');
      expect(res.json().notifications.map((n: { key: string }) => n.key)).toEqual([
        'delivery_notification', 'inventory_count_notification', 'contact_notification', 'other_notification',
      ]);
    });

    it('pages each channel with only the caller’s own items, filter and search', async () => {
      for (const channel of ['email', 'sms', 'push'] as const) {
        const res = await call('GET', `/${channel}_notifications?page=1&maxResults=3`, 'mechanic');
        expect(res.statusCode).toBe(200);
        const page = res.json();
        expect(Object.keys(page).sort()).toEqual(['has_next', 'has_prev', 'items', 'page', 'pages']);
        expect(page.items.length).toBe(3);
        expect(page.has_next).toBe(true);
        expect(page.items.every((i: { user_email: string }) => i.user_email === EMAILS.mechanic)).toBe(true);
        const created = page.items.map((i: { created: string }) => i.created);
        expect([...created].sort().reverse()).toEqual(created);
      }
      const filtered = (await call('GET', '/email_notifications?notificationKey=contact_notification&maxResults=50', 'mechanic')).json();
      expect(filtered.items.length).toBeGreaterThan(0);
      expect(filtered.items.every((i: { notification_key: string }) => i.notification_key === 'contact_notification')).toBe(true);
      const searched = (await call('GET', `/email_notifications?query=${encodeURIComponent('Planned maintenance')}&maxResults=50`, 'mechanic')).json();
      expect(searched.items.length).toBeGreaterThan(0);
      expect(searched.items.every((i: { subject: string }) => i.subject.includes('Planned maintenance'))).toBe(true);
      // §5: a phone number is found however it is written (looser check, digits compared).
      const [sms] = (await call('GET', '/sms_notifications?page=1&maxResults=1', 'mechanic')).json().items as Array<{ phone_number: string }>;
      const digits = sms!.phone_number.replace(/\D/g, '');
      const written = `${digits.slice(0, 3)} ${digits.slice(3, 5)}-${digits.slice(5)}`;
      const byPhone = (await call('GET', `/sms_notifications?query=${encodeURIComponent(written)}&maxResults=50`, 'mechanic')).json();
      expect(byPhone.items.length).toBeGreaterThan(0);
      expect(byPhone.items.every((i: { phone_number: string }) => i.phone_number.replace(/\D/g, '') === digits)).toBe(true);
      const bad = await call('GET', '/email_notifications?sortDirection=up', 'mechanic');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('sortDirection must be asc or desc');
    });

    it('refuses another user’s notification (read and read mark) as not found', async () => {
      const [foreign] = await product.database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, ids.supervisor!), eq(notifications.channel, 'email'), eq(notifications.active, true)))
        .limit(1);
      expect(foreign).toBeDefined();
      expect((await call('GET', `/email_notifications/${foreign!.id}`, 'mechanic')).statusCode).toBe(404);
      expect((await call('PUT', `/email_notifications/${foreign!.id}`, 'mechanic', { active: false })).statusCode).toBe(404);
      const [still] = await product.database.db.select().from(notifications).where(eq(notifications.id, foreign!.id));
      expect(still!.active).toBe(true);
      // Through the wrong channel path it is not found either.
      expect((await call('GET', `/sms_notifications/${foreign!.id}`, 'supervisor')).statusCode).toBe(404);
    });

    it('marks one read: it leaves the dropdown, and only {active:false} is accepted', async () => {
      const dropdown = (await call('GET', '/notifications', 'mechanic')).json().notifications as Array<{ id: number; notification_type: string; notification_text: string }>;
      expect(dropdown.length).toBeGreaterThan(0);
      const first = dropdown[0]!;
      expect(first.notification_text).not.toBe('');
      const path = `/${first.notification_type}_notifications/${first.id}`;
      expect((await call('PUT', path, 'mechanic', { active: true })).statusCode).toBe(400);
      const put = await call('PUT', path, 'mechanic', { active: false });
      expect(put.statusCode).toBe(200);
      expect(put.json().active).toBe(false);
      const after = (await call('GET', '/notifications', 'mechanic')).json().notifications as Array<{ id: number }>;
      expect(after.map((n) => n.id)).not.toContain(first.id);
      expect((await call('GET', path, 'mechanic')).json().active).toBe(false);
    });

    it('counts every unread notification for the bell, beyond the 50 the dropdown lists', async () => {
      const db = product.database.db;
      await db.execute(sql`insert into notifications (user_id, channel, notification_key, user_email, message, delivery_state)
        select user_id, channel, notification_key, user_email, message || ' #' || g, 'sent'
        from (select * from notifications where user_email = 'mechanic@example.com' limit 1) n, generate_series(1, 60) g`);
      const stored = (rows: unknown) => Number((rows as { rows: Array<{ n: number }> }).rows[0]!.n);
      const unread = stored(await db.execute(sql`select count(*)::int as n from notifications where user_email = 'mechanic@example.com' and active`));
      expect(unread).toBeGreaterThan(60);
      const dropdown = (await call('GET', '/notifications', 'mechanic')).json() as { notifications: Array<{ id: number; notification_type: string }>; unread_count: number };
      expect(dropdown.notifications).toHaveLength(50);
      expect(dropdown.unread_count).toBe(unread);
      const first = dropdown.notifications[0]!;
      expect((await call('PUT', `/${first.notification_type}_notifications/${first.id}`, 'mechanic', { active: false })).statusCode).toBe(200);
      expect((await call('GET', '/notifications', 'mechanic')).json().unread_count).toBe(unread - 1);
    });

    it('refuses every other method with 405', async () => {
      for (const [method, url] of [
        ['POST', '/sms_notifications'],
        ['DELETE', '/email_notifications/1'],
        ['PATCH', '/push_notifications/1'],
        ['PUT', '/email_notifications'],
      ] as const) {
        const res = await call(method, url, 'mechanic', {});
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(res.json().message).toContain('is not allowed');
      }
    });

    it('has no notifications outside notification plants', async () => {
      expect((await call('GET', '/notifications', 'lyon')).statusCode).toBe(403);
      expect((await call('GET', '/email_notifications', 'lyon')).statusCode).toBe(403);
      expect((await call('GET', '/notifications', 'manager')).statusCode).toBe(200);
    });
  });

  describe('pipeline', () => {
    const db = () => product.database.db;

    const setSettings = async (who: Who, entries: NotificationSettingsEntry[]) => {
      const res = await call('PUT', `/users/${ids[who]}/notifications_settings`, who, { notificationSettings: entries });
      expect(res.statusCode, res.body).toBe(200);
    };

    const rowsOf = (result: { recorded: Array<{ id: number }> }) =>
      result.recorded.length === 0
        ? Promise.resolve([])
        : db().select().from(notifications).where(inArray(notifications.id, result.recorded.map((r) => r.id)));

    it('a delivery status change produces exactly what the preferences ask for', async () => {
      await setSettings('munich', [
        entry(true, {
          emailEnabled: true,
          email: EMAILS.munich,
          mobileEnabled: true,
          mobileNumber: '+49151 2345678',
          pushNotificationsEnabled: true,
          notificationsPreferences: {
            ...defaultPreferences({ email: false, sms: false, push: false }),
            delivery_notification: pref(true, true, false),
            other_notification: pref(false, false, true),
          },
        }),
        entry(false, {
          emailEnabled: true,
          email: 'depot.de02@example.com',
          notificationsPreferences: { ...defaultPreferences({ email: false, sms: false, push: false }), delivery_notification: pref(true, false, false) },
        }),
      ]);
      const result = await db().transaction((tx) =>
        emitNotifications(tx, {
          key: 'delivery_notification',
          userIds: [ids.munich!],
          subject: 'Parcel 123 is at the access point',
          body: 'Pick it up at https://parcels.example/track/123',
          link: '/order-details/SO-1',
          plantCode: 'DE02',
        }),
      );
      const rows = await rowsOf(result);
      expect(rows.map((r) => `${r.channel}:${r.recipient}`).sort()).toEqual(
        ['email:depot.de02@example.com', 'email:lukas.mueller@lift.example', 'sms:+49151 2345678'].sort(),
      );
      expect(rows.every((r) => r.deliveryState === 'queued' && r.notificationKey === 'delivery_notification' && r.link === '/order-details/SO-1')).toBe(true);
      expect(rows.find((r) => r.channel === 'email')!.subject).toBe('Parcel 123 is at the access point');

      // Contact: nothing enabled, nothing recorded.
      const none = await db().transaction((tx) =>
        emitNotifications(tx, { key: 'contact_notification', userIds: [ids.munich!], subject: 's', body: 'b', plantCode: 'DE02' }),
      );
      expect(none.recorded).toEqual([]);
      expect(none.skipped).toEqual([{ userId: ids.munich, reason: 'no channel enabled' }]);
    });

    it('skips users outside the event’s notification plant and unknown ids, without failing', async () => {
      const result = await db().transaction((tx) =>
        emitNotifications(tx, {
          key: 'other_notification',
          userIds: [ids.lyon!, ids.mechanic!, '00000000-0000-4000-8000-000000000000', 'not-a-uuid'],
          subject: 'x',
          body: 'y',
          plantCode: 'DE02',
        }),
      );
      expect(result.recorded).toEqual([]);
      expect(result.skipped.map((s) => s.reason).sort()).toEqual(['not in a notification plant', 'not in a notification plant', 'unknown user', 'unknown user']);
    });

    it('tells nothing to a user not approved or whose access expired: no e-mail, SMS or push, and says why', async () => {
      // Mechanics of FI01 like mechanic@example.com, who would be told: pending, rejected, expired.
      const made: Record<string, string> = {};
      for (const [email, status, expires] of [
        ['pending.mechanic@example.com', 'Pending', null],
        ['rejected.mechanic@example.com', 'Rejected', null],
        ['expired.mechanic@example.com', 'Approved', '2020-01-31'],
      ] as const) {
        const [user] = await db()
          .insert(users)
          .values({ email, displayName: email.split('@')[0]!, approvalStatus: status, expirationDate: expires, firstLogin: false })
          .returning({ id: users.id });
        made[email] = user!.id;
        await db().insert(userGrants).values({ userId: user!.id, grantId: 'mechanic' });
        await db().execute(sql`insert into user_attachments (user_id, kind, plant, code) values (${user!.id}, 'plant', 'FI01', 'FI01')`);
        await db().execute(sql`insert into notification_settings (user_id, "primary", email_enabled, email, mobile_enabled, mobile_number, push_notifications_enabled, preferences)
          values (${user!.id}, true, true, ${email}, true, '+358401234567', true, ${JSON.stringify(defaultPreferences({ email: true, sms: true, push: true }))}::jsonb)`);
      }
      const result = await db().transaction((tx) =>
        emitNotifications(tx, {
          key: 'inventory_count_notification',
          userIds: [ids.mechanic!, ...Object.values(made)],
          subject: 'Stock count 1 is due',
          body: 'Count it by tomorrow',
          plantCode: 'FI01',
        }),
      );
      expect([...new Set(result.recorded.map((r) => r.userId))]).toEqual([ids.mechanic]);
      expect(result.skipped).toEqual([
        { userId: made['pending.mechanic@example.com'], reason: 'not approved' },
        { userId: made['rejected.mechanic@example.com'], reason: 'not approved' },
        { userId: made['expired.mechanic@example.com'], reason: 'access expired' },
      ]);
      const theirs = await db().select().from(notifications).where(inArray(notifications.userId, Object.values(made)));
      expect(theirs).toEqual([]);
    });

    it('records nothing when the caller’s transaction rolls back', async () => {
      const before = await db().select().from(notifications).where(eq(notifications.userId, ids.munich!));
      await expect(
        db().transaction(async (tx) => {
          await emitNotifications(tx, { key: 'delivery_notification', userIds: [ids.munich!], subject: 'rolled back', body: 'b', plantCode: 'DE02' });
          throw new Error('the caller failed');
        }),
      ).rejects.toThrow('the caller failed');
      const after = await db().select().from(notifications).where(eq(notifications.userId, ids.munich!));
      expect(after.length).toBe(before.length);
    });

    it('sends e-mail through SMTP and SMS through the provider; without transport it records and logs', async () => {
      const smtp = await startSmtpSink();
      const sms = await startSmsProvider();
      const logged: string[] = [];
      const log = { info: (_: object, msg: string) => logged.push(msg), warn: (_: object, msg: string) => logged.push(msg) };
      try {
        const transports = await createTransports(
          loadNotificationConfig({ SMTP_URL: smtp.url, SMTP_FROM: 'PartsTrack <no-reply@example.com>', SMS_PROVIDER_URL: sms.url, SMS_PROVIDER_TOKEN: 'secret' }),
        );
        const dispatcher = createDispatcher({ db: db(), transports, log, appUrl: 'https://parts.example', intervalMs: 0 });
        // Older rows recorded earlier in this file are sent too: drain them first.
        await dispatcher.runOnce();
        smtp.mails.length = 0;
        sms.received.length = 0;

        const result = await db().transaction((tx) =>
          emitNotifications(tx, {
            key: 'delivery_notification',
            userIds: [ids.munich!],
            subject: 'Parcel 456 delivered',
            body: 'Delivered to Landsberger Straße 290 <b>today</b>',
            link: '/order-details/SO-2',
            plantCode: 'DE02',
          }),
        );
        sms.failNext.count = 1;
        await dispatcher.runOnce();
        let rows = await rowsOf(result);
        expect(rows.filter((r) => r.channel === 'email').map((r) => r.deliveryState)).toEqual(['sent', 'sent']);
        const smsRow = rows.find((r) => r.channel === 'sms')!;
        // The provider answered 503 once: kept queued for a later attempt, with the reason.
        expect(smsRow.deliveryState).toBe('queued');
        expect(smsRow.deliveryError).toContain('503');
        expect(smsRow.attempts).toBe(1);
        expect(smtp.mails.map((m) => m.to).sort()).toEqual(['depot.de02@example.com', 'lukas.mueller@lift.example']);
        const mail = smtp.mails[0]!.raw;
        expect(mail).toContain('Subject: Parcel 456 delivered');
        expect(mail).toContain('https://parts.example/order-details/SO-2');
        expect(mail).toMatch(/Content-Type: text\/plain/i);

        await db().update(notifications).set({ nextAttemptAt: null }).where(eq(notifications.id, smsRow.id));
        await dispatcher.runOnce();
        rows = await rowsOf(result);
        expect(rows.find((r) => r.channel === 'sms')!.deliveryState).toBe('sent');
        expect(sms.received).toEqual([{ auth: 'Bearer secret', to: '+491512345678', from: 'PartsTrack', body: 'Delivered to Landsberger Straße 290 <b>today</b>' }]);

        // Push is asked for on "other": no FCM configured → recorded and logged, not dropped.
        await db()
          .insert(notificationDevices)
          .values({ userId: ids.munich!, deviceId: 'dev-1', token: 'fcm-token', deviceName: 'Android / Chrome' })
          .onConflictDoNothing();
        const push = await db().transaction((tx) =>
          emitNotifications(tx, { key: 'other_notification', userIds: [ids.munich!], subject: 'Service announcement', body: 'Maintenance Saturday', plantCode: 'DE02' }),
        );
        await dispatcher.runOnce();
        const [pushRow] = await rowsOf(push);
        expect(pushRow!.channel).toBe('push');
        expect(pushRow!.deliveryState).toBe('recorded');
        expect(logged.some((m) => m.includes('push not configured'))).toBe(true);
        await transports.close();
      } finally {
        await smtp.close();
        await sms.close();
      }
    });

    it('sends e-mail, SMS and push in the recipient’s language, a status and a deadline worded in it; the stored text stays English', async () => {
      const sent: Array<{ channel: string; headline: string; body: string }> = [];
      const transports: Transports = {
        email: async (message) => void sent.push({ channel: 'email', headline: message.subject, body: message.body }),
        sms: async (message) => void sent.push({ channel: 'sms', headline: message.subject, body: message.body }),
        push: async (message) => (sent.push({ channel: 'push', headline: message.title, body: message.body }), { invalidTokens: [], delivered: 1 }),
        close: async () => undefined,
      };
      const dispatcher = createDispatcher({ db: db(), transports, log: silent, appUrl: null, intervalMs: 0 });
      await dispatcher.runOnce(); // older rows of this file
      sent.length = 0;
      const before = (await settingsOf('munich')).json().notification_settings as NotificationSettingsEntry[];
      try {
        await setSettings('munich', [
          entry(true, {
            emailEnabled: true,
            email: EMAILS.munich,
            mobileEnabled: true,
            mobileNumber: '+49151 2345678',
            pushNotificationsEnabled: true,
            notificationsPreferences: {
              ...defaultPreferences({ email: false, sms: false, push: false }),
              inventory_count_notification: pref(true, false, true),
              delivery_notification: pref(false, true, false),
            },
          }),
          entry(false),
        ]);
        await db()
          .insert(notificationDevices)
          .values({ userId: ids.munich!, deviceId: 'dev-de', token: 'fcm-token-de', deviceName: 'Android / Chrome' })
          .onConflictDoNothing();
        const send = async (locale: string, event: Parameters<typeof emitNotifications>[1]) => {
          await db().update(users).set({ locale }).where(eq(users.id, ids.munich!));
          const result = await db().transaction((tx) => emitNotifications(tx, event));
          await dispatcher.runOnce();
          const words = sent.splice(0);
          return { rows: await rowsOf(result), words };
        };
        const assigned: NotificationText = {
          key: 'stockCountAssigned',
          params: { id: 27, by: 'anna.schmidt@lift.example', storageLocation: 'V001', plant: 'DE02', deadline: '2026-12-03' },
        };
        const german = await send('de-DE', {
          key: 'inventory_count_notification',
          userIds: [ids.munich!],
          ...englishNotificationText(assigned),
          text: assigned,
          link: '/mechanic-view/27',
          plantCode: 'DE02',
        });
        const inGerman = {
          headline: 'Inventur Nr. 27 wurde Ihnen zugewiesen',
          body: 'anna.schmidt@lift.example hat Ihnen die Inventur Nr. 27 des Lagerorts V001 im Werk DE02 zugewiesen. Bitte zählen Sie bis 3. Dezember 2026.',
        };
        expect(german.words.sort((a, b) => a.channel.localeCompare(b.channel))).toEqual([
          { channel: 'email', ...inGerman },
          { channel: 'push', ...inGerman },
        ]);
        // Stored in English (what a client without the key shows), the key beside it for the app.
        expect(german.rows.map((row) => row.message)).toEqual([
          'anna.schmidt@lift.example assigned stock count #27 of storage location V001 in plant DE02 to you. Please count by 2026-12-03.',
          'anna.schmidt@lift.example assigned stock count #27 of storage location V001 in plant DE02 to you. Please count by 2026-12-03.',
        ]);

        const status: NotificationText = {
          key: 'orderItemStatus',
          params: { order: 'SO-7', line: 10, material: 'KM452229', description: 'Brake microswitch', status: 'ToBePickedUp' },
        };
        const finnish = await send('fi-FI', { key: 'delivery_notification', userIds: [ids.munich!], ...englishNotificationText(status), text: status, plantCode: 'DE02' });
        // An SMS has no subject: the body alone, in Finnish.
        expect(finnish.words).toEqual([
          { channel: 'sms', headline: '', body: 'Huoltotilauksen SO-7 rivi 10 (KM452229 Brake microswitch) on nyt tilassa ”Noudettavissa”.' },
        ]);

        // A text without a key (another producer's) is sent as stored, whatever the language.
        const plain = await send('fi-FI', { key: 'delivery_notification', userIds: [ids.munich!], subject: 'Parcel 9 delivered', body: 'At the depot', plantCode: 'DE02' });
        expect(plain.words).toEqual([{ channel: 'sms', headline: '', body: 'At the depot' }]); // an SMS has no subject
      } finally {
        await db().update(users).set({ locale: 'en-US' }).where(eq(users.id, ids.munich!));
        await setSettings('munich', before); // as the next tests expect them, also when this one failed
      }
    });

    it('gives up after the last attempt, and re-sends a message whose sender crashed mid-send', async () => {
      const sms = await startSmsProvider();
      try {
        const transports = await createTransports(loadNotificationConfig({ SMS_PROVIDER_URL: sms.url }));
        const dispatcher = createDispatcher({ db: db(), transports, log: silent, appUrl: null, intervalMs: 0 });
        await dispatcher.runOnce();
        const result = await db().transaction((tx) =>
          emitNotifications(tx, { key: 'delivery_notification', userIds: [ids.munich!], subject: 'Retry', body: 'Retry me', plantCode: 'DE02' }),
        );
        const smsId = result.recorded.find((r) => r.channel === 'sms')!.id;
        sms.failNext.count = MAX_ATTEMPTS;
        for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
          await db().update(notifications).set({ nextAttemptAt: null }).where(eq(notifications.id, smsId));
          await dispatcher.runOnce();
        }
        let [row] = await db().select().from(notifications).where(eq(notifications.id, smsId));
        expect(row).toMatchObject({ deliveryState: 'failed', attempts: MAX_ATTEMPTS });
        expect(row!.deliveryError).toContain('503');

        // A row left 'sending' by a process that died is taken again once its lease is over.
        await db().update(notifications).set({ deliveryState: 'sending', attempts: 1, nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(notifications.id, smsId));
        await dispatcher.runOnce();
        [row] = await db().select().from(notifications).where(eq(notifications.id, smsId));
        expect(row!.deliveryState).toBe('sent');
        expect(sms.received).toContainEqual(expect.objectContaining({ body: 'Retry me' }));
        await transports.close();
      } finally {
        await sms.close();
      }
    });

    it('marks e-mail recorded (not dropped) when no SMTP server is configured', async () => {
      const dispatcher = createDispatcher({ db: db(), transports: await createTransports(loadNotificationConfig({})), log: silent, appUrl: null, intervalMs: 0 });
      const result = await db().transaction((tx) =>
        emitNotifications(tx, { key: 'delivery_notification', userIds: [ids.munich!], subject: 'No SMTP', body: 'b', plantCode: 'DE02' }),
      );
      await dispatcher.runOnce();
      const rows = await rowsOf(result);
      expect(rows.filter((r) => r.channel === 'email').every((r) => r.deliveryState === 'recorded' && r.deliveryError === 'E-mail transport not configured')).toBe(true);
      // Recorded messages are in the user's lists.
      const list = await call('GET', `/email_notifications?query=${encodeURIComponent('No SMTP')}`, 'munich');
      expect(list.json().items.length).toBe(2);
    });

    it('creating a stock count for a mechanic notifies them as their preferences ask', async () => {
      await setSettings('mechanic', [
        entry(true, {
          emailEnabled: true,
          email: EMAILS.mechanic,
          pushNotificationsEnabled: true,
          notificationsPreferences: { ...defaultPreferences({ email: false, sms: false, push: false }), inventory_count_notification: pref(false, false, true) },
        }),
      ]);
      const before = await db().select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, ids.mechanic!));
      const created = await product.app.inject({
        method: 'POST',
        url: '/api/v2/my_stock_count',
        headers: bearer(tokens.supervisor!),
        payload: { plant: 'FI01', type: 'wall_to_wall', storageLocation: 'V001', conductedBy: EMAILS.mechanic },
      });
      expect(created.statusCode, created.body).toBe(201);
      const after = await db().select().from(notifications).where(eq(notifications.userId, ids.mechanic!));
      const fresh = after.filter((row) => !before.some((b) => b.id === row.id));
      expect(fresh.map((r) => r.channel)).toEqual(['push']);
      expect(fresh[0]!.notificationKey).toBe('inventory_count_notification');
      expect(fresh[0]!.link).toBe(`/mechanic-view/${created.json().id}`);
      // #19 item 22: the English stays stored (what e-mail and SMS send); key and parameters beside it.
      const id = created.json().id as number;
      expect(fresh[0]!.title).toBe(`Stock count #${id} assigned to you`);
      const pushes = await product.app.inject({ method: 'GET', url: '/user_api/v1/push_notifications?page=1&maxResults=100', headers: bearer(tokens.mechanic!) });
      expect(pushes.statusCode, pushes.body).toBe(200);
      const item = (pushes.json().items as Array<{ id: number; text: unknown; message: string }>).find((row) => row.id === fresh[0]!.id)!;
      expect(item.text).toEqual({
        key: 'stockCountAssigned',
        params: { id, by: EMAILS.supervisor, storageLocation: 'V001', plant: 'FI01', deadline: null },
      });
      expect(item.message).toBe(`${EMAILS.supervisor} assigned stock count #${id} of storage location V001 in plant FI01 to you.`);
      const dropdown = await product.app.inject({ method: 'GET', url: '/user_api/v1/notifications', headers: bearer(tokens.mechanic!) });
      expect((dropdown.json().notifications as Array<{ id: number; text: unknown }>).find((row) => row.id === fresh[0]!.id)!.text).toEqual(item.text);
    });
  });
});
