/**
 * GET / PUT /user_api/v1/users/{uid}/notifications_settings (§7). Read through the mirror (the
 * profile screen opens offline with the last copy); saved online only, because the server's §5
 * messages belong next to the fields.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettingsEntry, NotificationSettingsResponse, NotificationTeamResponse } from '../../../contract/notifications';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { parseWith } from '../../../lib/lazy-schema';
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

export const putNotificationSettings = async (uid: string, entries: NotificationSettingsEntry[]): Promise<NotificationSettingsResponse> =>
  parseWith(
    settingsSchema,
    userApi
      .put(`users/${encodeURIComponent(uid)}/notifications_settings`, {
        json: { notificationSettings: entries },
        // This browser names itself: the server takes a token and sign-in state only for it.
        headers: { 'Idempotency-Key': crypto.randomUUID(), 'X-Device-Id': deviceId() },
      })
      .json(),
  );

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
  return async (entries: NotificationSettingsEntry[]) => {
    const saved = await putNotificationSettings(uid, entries);
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
