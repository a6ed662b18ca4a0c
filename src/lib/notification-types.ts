/**
 * The notification types with their titles (§3 "Notification types arrive as key and title"),
 * from GET /user_api/v1/notifications/list_keys (§7) rather than a list of our own: the
 * notification filter and the per-type preferences show the types the server names, in its
 * order. Mirrored, so the screens know them offline; until the first answer (or with none on
 * the device) the four keys of §9 stand in. A failure is only logged (§8).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationKey } from '../contract/notifications';
import { NOTIFICATION_KEYS } from '../domain/constants';
import { mirrorKey, networkFirst } from '../offline/mirror';
import { lateOutcome } from '../offline/use-mirrored-query';
import { userApi } from './api-client';
import { parseWith } from './lazy-schema';

export interface NotificationType {
  key: NotificationKey;
  /** The server's title; screens show their own translation of the key and fall back to it. */
  title: string;
}

export const FALLBACK_NOTIFICATION_TYPES: NotificationType[] = NOTIFICATION_KEYS.map((key) => ({ key, title: key }));

/** The schema loads with the call, not with the app (#22, lib/lazy-schema.ts). */
export const getNotificationTypes = async (): Promise<NotificationType[]> =>
  (await parseWith(async () => (await import('../contract/notifications')).notificationKeysResponse, userApi.get('notifications/list_keys').json())).notifications;

export const notificationTypesQuery = (userEmail: string) =>
  queryOptions({
    queryKey: ['notification-types', userEmail] as const,
    queryFn: async ({ client, queryKey }) => {
      const late = lateOutcome<NotificationType[]>(client, queryKey);
      return (
        await networkFirst({
          key: mirrorKey(userEmail, ['notification-types']),
          scope: 'notification-types',
          fetcher: getNotificationTypes,
          stillShown: late.stillShown,
          onLateAnswer: (fresh) => late.answer(fresh.data),
          onLateFailure: late.failure,
        })
      ).data;
    },
    staleTime: 60 * 60_000,
    meta: { silent: true },
  });

export function useNotificationTypes(userEmail: string): NotificationType[] {
  const query = useQuery(notificationTypesQuery(userEmail));
  return query.data && query.data.length > 0 ? query.data : FALLBACK_NOTIFICATION_TYPES;
}
