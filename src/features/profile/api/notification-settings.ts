/**
 * GET / PUT /user_api/v1/users/{uid}/notifications_settings (§7). Read through the mirror (the
 * profile screen opens offline with the last copy); saved online only, because the server's §5
 * messages belong next to the fields. A save names the revision its form was opened with
 * (decision 0068): another save since is a 409 notificationSettingsChangedMeanwhile, not undone.
 * This browser registers for push and signs out by calls of its own (push_devices/{deviceId}).
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  NotificationSettingsEntry,
  NotificationSettingsResponse,
  NotificationTeamResponse,
  RegisterPushDeviceBody,
  UpdateNotificationSettingsBody,
} from '../../../contract/notifications';
import { isCodedRefusal, toSearchParams, userApi } from '../../../lib/api-client';
import { parseWith } from '../../../lib/lazy-schema';
import { sendOnce } from '../../../lib/send-once';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';
import { deviceId } from '../push/device';

export const settingsQueries = {
  all: () => ['notification-settings'] as const,
  of: (uid: string) => [...settingsQueries.all(), uid] as const,
};

// The schema loads with the call, not with the app: the push prompt reads the settings at start (#22, lib/lazy-schema.ts).
const settingsSchema = async () => (await import('../../../contract/notifications')).notificationSettingsResponse;

export const getNotificationSettings = async (uid: string): Promise<NotificationSettingsResponse> =>
  parseWith(settingsSchema, userApi.get(`users/${encodeURIComponent(uid)}/notifications_settings`).json());

/**
 * The form's save: `expectedRevision` is the revision its edit started from (none only for a copy
 * saved on the device before revisions existed: then it replaces the settings as before).
 */
export const putNotificationSettings = (uid: string, entries: NotificationSettingsEntry[], expectedRevision?: number): Promise<NotificationSettingsResponse> => {
  const body: UpdateNotificationSettingsBody = { notificationSettings: entries, ...(expectedRevision === undefined ? {} : { expectedRevision }) };
  // Saved again after no answer, under the first try's key (sendOnce): answered as saved, not
  // refused as saved elsewhere meanwhile by its own first try.
  return sendOnce('notification-settings', `notifications_settings:${uid}`, body, (key) =>
    parseWith(
      settingsSchema,
      userApi
        .put(`users/${encodeURIComponent(uid)}/notifications_settings`, {
          json: body,
          // This browser names itself: the server takes a token and sign-in state only for it.
          headers: { 'Idempotency-Key': key, 'X-Device-Id': deviceId() },
        })
        .json(),
    ),
  );
};

/** Saved on another device or by someone else since the form opened (409 notificationSettingsChangedMeanwhile): nothing was saved. */
export const isNotificationSettingsChangedMeanwhile = (error: unknown): Promise<boolean> => isCodedRefusal(error, 409, 'notificationSettingsChangedMeanwhile');

const pushDeviceUrl = (uid: string, id: string) => `users/${encodeURIComponent(uid)}/push_devices/${encodeURIComponent(id)}`;

/** PUT …/push_devices/{deviceId}: this browser, signed in with its push token; nothing else of the settings is written. */
export const registerPushDevice = async (uid: string, device: RegisterPushDeviceBody): Promise<NotificationSettingsResponse> =>
  parseWith(settingsSchema, userApi.put(pushDeviceUrl(uid, deviceId()), { json: device, headers: { 'Idempotency-Key': crypto.randomUUID() } }).json());

/** DELETE …/push_devices/{deviceId}/sign_in: this browser marked signed out (§2); nothing else of the settings is written. */
export const signOutPushDevice = async (uid: string): Promise<void> => {
  await userApi.delete(`${pushDeviceUrl(uid, deviceId())}/sign_in`, { headers: { 'Idempotency-Key': crypto.randomUUID() } });
};

export function useNotificationSettings(userEmail: string, uid: string, enabled = true) {
  return useMirroredQuery({
    queryKey: settingsQueries.of(uid),
    userEmail,
    scope: 'notification-settings',
    fetcher: () => getNotificationSettings(uid),
    enabled,
  });
}

/** Saves and puts the server's answer in the cache (and so in the mirror on the next read). */
export function useSaveNotificationSettings(userEmail: string, uid: string) {
  const queryClient = useQueryClient();
  return async (entries: NotificationSettingsEntry[], expectedRevision: number | undefined) => {
    const saved = await putNotificationSettings(uid, entries, expectedRevision);
    queryClient.setQueryData([...settingsQueries.of(uid), userEmail], { data: saved, savedAt: Date.now(), source: 'network' });
    return saved;
  };
}

const teamSchema = async () => (await import('../../../contract/notifications')).notificationTeamResponse;

/** GET /user_api/v1/users/notification_settings_team: whose settings the caller may change (§6). */
export const getNotificationTeam = async (query: string): Promise<NotificationTeamResponse> =>
  parseWith(teamSchema, userApi.get('users/notification_settings_team', { searchParams: toSearchParams({ query: query || undefined }) }).json());

export function useNotificationTeam(query: string, enabled: boolean) {
  return useQuery({
    queryKey: [...settingsQueries.all(), 'team', query],
    queryFn: () => getNotificationTeam(query),
    enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}
