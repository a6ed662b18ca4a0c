/**
 * The settings form's save names the revision its edit started from (decision 0068), in a body
 * the server accepts, and tells a refusal for a save made elsewhere meanwhile from other refusals.
 * This browser registers and signs out by its own device's calls, never the whole settings.
 */
import { HTTPError, type NormalizedOptions } from 'ky';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerPushDeviceBody, updateNotificationSettingsBody, type NotificationSettingsEntry, type NotificationSettingsResponse } from '../../../contract/notifications';
import { userApi } from '../../../lib/api-client';
import { MemoryStorage } from '../../../../tests/setup/memory-storage';
import { isNotificationSettingsChangedMeanwhile, putNotificationSettings, registerPushDevice, signOutPushDevice } from './notification-settings';

const refusal = (status: number, body: unknown) => new HTTPError(new Response(JSON.stringify(body), { status }), new Request('http://api.test/x'), {} as NormalizedOptions);

const off = { emailEnabled: false, smsEnabled: false, pushEnabled: false };
const entry = (primary: boolean): NotificationSettingsEntry => ({
  primary,
  emailEnabled: primary,
  email: primary ? 'mechanic@example.com' : null,
  mobileEnabled: false,
  mobileNumber: null,
  pushNotificationsEnabled: false,
  pushNotificationsSettings: [],
  notificationsPreferences: { delivery_notification: off, inventory_count_notification: off, contact_notification: off, other_notification: off },
});
const answer: NotificationSettingsResponse = { notification_settings: [entry(true), entry(false)], revision: 8 };
const answering = () => ({ json: async () => answer }) as never;

beforeEach(() => {
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
  localStorage.setItem('deviceId', '123456789012345');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('saving the notification settings', () => {
  it('sends the revision the edit started from, with this browser named, in a body the server accepts', async () => {
    const put = vi.spyOn(userApi, 'put').mockReturnValue(answering());
    expect(await putNotificationSettings('u-1', answer.notification_settings, 7)).toEqual(answer);
    const [path, options] = put.mock.calls[0]!;
    expect(path).toBe('users/u-1/notifications_settings');
    const sent = options as { json: unknown; headers: Record<string, string> };
    expect(sent.json).toEqual({ notificationSettings: answer.notification_settings, expectedRevision: 7 });
    expect(updateNotificationSettingsBody.safeParse(sent.json).success).toBe(true);
    expect(sent.headers['X-Device-Id']).toBe('123456789012345');
    // Revision 0 (settings never saved) is a revision like any other: named, not left out.
    await putNotificationSettings('u-1', answer.notification_settings, 0);
    expect((put.mock.calls[1]![1] as { json: { expectedRevision?: number } }).json.expectedRevision).toBe(0);
  });

  it('names no revision for a copy that has none (saved on the device before revisions existed)', async () => {
    const put = vi.spyOn(userApi, 'put').mockReturnValue(answering());
    await putNotificationSettings('u-1', answer.notification_settings, undefined);
    const json = (put.mock.calls[0]![1] as { json: Record<string, unknown> }).json;
    expect('expectedRevision' in json).toBe(false);
    expect(updateNotificationSettingsBody.safeParse(json).success).toBe(true);
  });

  it('saves again after no answer under the first try\'s key (answered from it, not refused as saved meanwhile), and anew once answered', async () => {
    const put = vi.spyOn(userApi, 'put').mockImplementationOnce(() => {
      throw new TypeError('Failed to fetch');
    });
    put.mockReturnValue(answering());
    const keyOf = (call: number) => (put.mock.calls[call]![1] as { headers: Record<string, string> }).headers['Idempotency-Key'];
    await expect(putNotificationSettings('u-key', answer.notification_settings, 7)).rejects.toThrow('Failed to fetch');
    await putNotificationSettings('u-key', answer.notification_settings, 7);
    expect(keyOf(1)).toBe(keyOf(0));
    // Answered: the same settings saved once more are a new save.
    await putNotificationSettings('u-key', answer.notification_settings, 7);
    expect(keyOf(2)).not.toBe(keyOf(0));
    // Other settings after no answer are another save, under their own key.
    put.mockImplementationOnce(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(putNotificationSettings('u-key', answer.notification_settings, 8)).rejects.toThrow('Failed to fetch');
    await putNotificationSettings('u-key', answer.notification_settings, 9);
    expect(keyOf(4)).not.toBe(keyOf(3));
  });

  it('tells settings changed meanwhile from other refusals', async () => {
    expect(await isNotificationSettingsChangedMeanwhile(refusal(409, { message: 'changed', code: 'notificationSettingsChangedMeanwhile' }))).toBe(true);
    expect(await isNotificationSettingsChangedMeanwhile(refusal(409, { message: 'Another conflict', code: 'priorityChangedMeanwhile' }))).toBe(false);
    expect(await isNotificationSettingsChangedMeanwhile(refusal(400, { message: 'Bad', code: 'notificationSettingsChangedMeanwhile' }))).toBe(false);
    expect(await isNotificationSettingsChangedMeanwhile(new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('this browser as a push device', () => {
  it('registers its own device only: no read of the settings, no save of them', async () => {
    const get = vi.spyOn(userApi, 'get');
    const put = vi.spyOn(userApi, 'put').mockReturnValue(answering());
    await registerPushDevice('u-1', { deviceName: 'Android / Chrome', token: 'tok-1' });
    expect(get).not.toHaveBeenCalled();
    expect(put).toHaveBeenCalledTimes(1);
    const [path, options] = put.mock.calls[0]!;
    expect(path).toBe('users/u-1/push_devices/123456789012345');
    const json = (options as { json: unknown }).json;
    expect(json).toEqual({ deviceName: 'Android / Chrome', token: 'tok-1' });
    expect(registerPushDeviceBody.safeParse(json).success).toBe(true);
  });

  it('signs its own device out at sign-out, by an idempotent call (retried as the calls it replaces were)', async () => {
    const get = vi.spyOn(userApi, 'get');
    const put = vi.spyOn(userApi, 'put');
    const remove = vi.spyOn(userApi, 'delete').mockReturnValue(answering());
    await signOutPushDevice('u-1');
    expect(remove.mock.calls[0]![0]).toBe('users/u-1/push_devices/123456789012345/sign_in');
    expect(get).not.toHaveBeenCalled();
    expect(put).not.toHaveBeenCalled();
  });
});
