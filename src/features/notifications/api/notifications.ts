/**
 * The caller's notifications (§7): unread for the dropdown, the paged channel lists, one item,
 * and the read mark. Reads are mirrored (useMirroredQuery) so the lists work offline; the read
 * mark goes through the outbox (ARCHITECTURE §3), so a mark made offline is sent later.
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type {
  DropdownResponse,
  EmailNotificationItem,
  NotificationChannel,
  NotificationItem,
  NotificationKey,
  NotificationPage,
  PushNotificationItem,
  SmsNotificationItem,
} from '../../../contract/notifications';
import type * as NotificationContract from '../../../contract/notifications';
import { userApi, toSearchParams } from '../../../lib/api-client';
import { parseWith } from '../../../lib/lazy-schema';
import { loadChunk } from '../../../lib/chunk-load';
import { deviceDb } from '../../../offline/device-db';
import { mirrorKey } from '../../../offline/mirror';
import { useOutboxEntries } from '../../../offline/outbox-live';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';
import { PAGE_SIZE } from '../../../domain/constants';

export const NOTIFICATIONS_SCOPE = 'notifications';
export const READ_KIND = 'notification.read';

export interface ItemByChannel {
  email: EmailNotificationItem;
  sms: SmsNotificationItem;
  push: PushNotificationItem;
}

export interface ChannelListParams {
  page: number;
  notificationKey: NotificationKey | null;
  query?: string;
}

export const notificationQueries = {
  all: () => ['notifications'] as const,
  unread: () => [...notificationQueries.all(), 'unread'] as const,
  list: (channel: NotificationChannel, params: ChannelListParams) => [...notificationQueries.all(), channel, params] as const,
  item: (channel: NotificationChannel, id: number) => [...notificationQueries.all(), channel, 'item', id] as const,
};

/**
 * Each channel's schemas: answers are parsed at the edge (#19), not cast. They are built with the
 * first notification call, not while the app starts (#22, lib/lazy-schema.ts).
 */
const schemasOf = (contract: typeof NotificationContract) => ({
  dropdown: contract.dropdownResponse,
  item: { email: contract.emailNotificationItem, sms: contract.smsNotificationItem, push: contract.pushNotificationItem },
  page: {
    email: contract.notificationPage(contract.emailNotificationItem),
    sms: contract.notificationPage(contract.smsNotificationItem),
    push: contract.notificationPage(contract.pushNotificationItem),
  },
});
let built: ReturnType<typeof schemasOf> | null = null;
const schemas = async () => (built ??= schemasOf(await import('../../../contract/notifications')));

export const getUnreadNotifications = async (): Promise<DropdownResponse> => parseWith(async () => (await schemas()).dropdown, userApi.get('notifications').json());

export const getNotificationPage = async <C extends NotificationChannel>(channel: C, params: ChannelListParams): Promise<NotificationPage<ItemByChannel[C]>> =>
  (await parseWith<unknown>(
    async () => (await schemas()).page[channel],
    userApi
      .get(`${channel}_notifications`, {
        searchParams: toSearchParams({
          page: params.page,
          maxResults: PAGE_SIZE,
          notificationKey: params.notificationKey ?? undefined,
          query: params.query || undefined,
        }),
      })
      .json(),
  )) as NotificationPage<ItemByChannel[C]>;

export const getNotification = async <C extends NotificationChannel>(channel: C, id: number): Promise<ItemByChannel[C]> =>
  (await parseWith<unknown>(async () => (await schemas()).item[channel], userApi.get(`${channel}_notifications/${id}`).json())) as ItemByChannel[C];

const readTarget = (channel: NotificationChannel, id: number) => `notification:${channel}:${id}`;

/** Ids whose read mark still waits in the outbox: hidden from the dropdown until it is sent. */
export function usePendingReadTargets(userEmail: string): Set<string> {
  const entries = useOutboxEntries(NOTIFICATIONS_SCOPE, userEmail);
  return new Set(entries.filter((entry) => entry.kind === READ_KIND).map((entry) => entry.target));
}

/** The bell's list is read again this often while the app is in front (notifications arrive without push too). */
export const UNREAD_REFRESH_MS = 120_000;

/**
 * Pull after push, on screen: once read marks have left the outbox (sent, or refused and dropped),
 * the list is read again. Until then it shows them read from the outbox; a read made before the
 * mark reached the server still says unread, and without this the item turned unread again (and
 * the bell counted it again) as soon as its mark was sent.
 */
function useRefetchWhenMarksSent(pending: Set<string>, refetch: () => unknown): void {
  const previous = useRef(pending);
  useEffect(() => {
    const sent = [...previous.current].some((target) => !pending.has(target));
    previous.current = pending;
    if (sent) void refetch();
  }, [pending, refetch]);
}

export function useUnreadNotifications(userEmail: string, enabled: boolean) {
  const query = useMirroredQuery({
    queryKey: notificationQueries.unread(),
    userEmail,
    scope: NOTIFICATIONS_SCOPE,
    fetcher: getUnreadNotifications,
    enabled,
    // §8: failures of the notification list are only logged.
    silent: true,
    refetchInterval: UNREAD_REFRESH_MS,
  });
  const pending = usePendingReadTargets(userEmail);
  useRefetchWhenMarksSent(pending, query.refetch);
  const all = query.data?.notifications ?? [];
  const unread = all.filter((entry) => !pending.has(readTarget(entry.notification_type, entry.id)));
  // The bell counts every unread notification, not only the newest the list holds; those read on
  // this device but not yet on the server are taken off (a service without the count: the list's length).
  // The server's count still holds every mark waiting in the outbox, so each is taken off once here.
  const total = query.data?.unread_count;
  const unreadCount = total === undefined ? unread.length : Math.max(unread.length, total - pending.size);
  return { ...query, unread, unreadCount };
}

/**
 * The dropdown's copy without one notification. Its count stays the server's: the mark waits in
 * the outbox and useUnreadNotifications takes each waiting mark off once (it was taken off twice).
 */
function withoutEntry(data: DropdownResponse, channel: NotificationChannel, id: number): DropdownResponse {
  return { ...data, notifications: data.notifications.filter((n) => !(n.id === id && n.notification_type === channel)) };
}

export function useNotificationPage<C extends NotificationChannel>(userEmail: string, channel: C, params: ChannelListParams, enabled = true) {
  const query = useMirroredQuery({
    queryKey: notificationQueries.list(channel, params),
    userEmail,
    scope: NOTIFICATIONS_SCOPE,
    fetcher: () => getNotificationPage(channel, params),
    enabled,
    mainList: true,
    // §8: failures of the notification lists are only logged; the list says it was not loaded.
    silent: true,
  });
  const pending = usePendingReadTargets(userEmail);
  useRefetchWhenMarksSent(pending, query.refetch);
  return { ...query, pending };
}

export function useNotificationItem<C extends NotificationChannel>(userEmail: string, channel: C, id: number | null) {
  return useMirroredQuery({
    queryKey: notificationQueries.item(channel, id ?? 0),
    userEmail,
    scope: NOTIFICATIONS_SCOPE,
    fetcher: () => getNotification(channel, id!),
    enabled: id !== null,
    silent: true,
  });
}

/**
 * Marks one notification read (§4: active false): the dropdown copy on the device loses it and an
 * outbox entry carries PUT {active:false} to the server, now or when the connection returns.
 */
export function useMarkNotificationRead(userEmail: string) {
  const queryClient = useQueryClient();
  return async (channel: NotificationChannel, id: number) => {
    const unreadKey = notificationQueries.unread();
    queryClient.setQueryData<{ data: DropdownResponse; savedAt: number; source: string } | undefined>([...unreadKey, userEmail], (current) =>
      current ? { ...current, data: withoutEntry(current.data, channel, id) } : current,
    );
    await queueReadMark(userEmail, channel, id);
  };
}

/** The device's part of a read mark: the dropdown copy loses it and the outbox carries the PUT. */
export async function queueReadMark(userEmail: string, channel: NotificationChannel, id: number): Promise<void> {
  const unreadKey = notificationQueries.unread();
  // The outbox and the device database load with the first mark, not with the first screen (#22).
  const [{ enqueue }, offlineDb] = await Promise.all([loadChunk(() => import('../../../offline/outbox')), deviceDb()]);
  await enqueue({
    userEmail,
    kind: READ_KIND,
    scope: NOTIFICATIONS_SCOPE,
    target: readTarget(channel, id),
    request: { service: 'user', method: 'PUT', path: `${channel}_notifications/${id}`, json: { active: false } },
    apply: async () => {
      const key = mirrorKey(userEmail, unreadKey);
      const saved = await offlineDb.pages.get(key);
      const data = saved?.data as DropdownResponse | undefined;
      if (saved && data) {
        await offlineDb.pages.put({
          ...saved,
          data: withoutEntry(data, channel, id),
        });
      }
    },
    coalesce: (waiting) => waiting.request,
    summary: { channel, id },
  });
}

export type { NotificationItem };
