/**
 * GET / PUT /user_api/v1/users/{uid}/notifications_settings (§7). Read through the mirror (the
 * profile screen opens offline with the last copy); saved online only, because the server's §5
 * messages belong next to the fields.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { NotificationSettingsEntry, NotificationSettingsResponse } from '../../../contract/notifications';
import { userApi } from '../../../lib/api-client';
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
