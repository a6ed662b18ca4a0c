/**
 * §7 notifications of the caller: the dropdown (unread), the four keys, and per channel the paged
 * list, one item, and the read mark PUT {active:false}. Only retrieve (and the read mark) exist:
 * any other method is a 405 naming what is allowed. Nobody sees another user's notifications:
 * every query is bound to the caller's id, and a foreign id is a 404 like a missing one.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { errorBody } from '../../../src/contract/common';
import {
  dropdownResponse,
  markReadBody,
  NOTIFICATION_CHANNELS,
  notificationIdParams,
  notificationItemByChannel,
  notificationKeysResponse,
  notificationListQuery,
  notificationPage,
  type NotificationChannel,
} from '../../../src/contract/notifications';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { findNotification, listNotifications, markRead, toItem, unreadCount, unreadNotifications } from '../../repositories/notifications';
import { callerNotificationPlants } from '../../notifications/settings';
import type { CurrentUser } from '../../repositories/users';

const tags = ['notifications'];

/** §3/§9 key titles (the browser shows its own translations of the keys). */
const NOTIFICATION_KEY_TITLES = [
  { key: 'delivery_notification', title: 'Delivery' },
  { key: 'inventory_count_notification', title: 'Inventory count' },
  { key: 'contact_notification', title: 'Contact' },
  { key: 'other_notification', title: 'Other' },
] as const;

/** §6: notifications exist only in notifications_allowed_plants among the user's plants (super managers: all). */
export async function assertNotificationUser(db: Db, caller: CurrentUser): Promise<void> {
  const scope = await callerNotificationPlants(db, caller);
  if (scope !== null && scope.length === 0) {
    throw new HttpError(403, 'Notifications are not used in your plants');
  }
}

const CHANNEL_PATHS: Record<NotificationChannel, string> = {
  email: '/email_notifications',
  sms: '/sms_notifications',
  push: '/push_notifications',
};

const REFUSED_METHODS = ['POST', 'DELETE', 'PATCH'] as const;

export const notificationRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const caller = async (request: FastifyRequest) => {
    const user = requireUser(request);
    await assertNotificationUser(db, user);
    return user;
  };

  app.get(
    '/notifications',
    { schema: { tags, summary: 'The caller’s unread notifications (dropdown)', response: { 200: dropdownResponse, 403: errorBody } } },
    async (request) => {
      const user = await caller(request);
      const [entries, count] = await Promise.all([unreadNotifications(db, user.id), unreadCount(db, user.id)]);
      return { notifications: entries, unread_count: count };
    },
  );

  app.get(
    '/notifications/list_keys',
    { schema: { tags, summary: 'The four notification keys with their titles', response: { 200: notificationKeysResponse } } },
    async () => ({ notifications: NOTIFICATION_KEY_TITLES.map((entry) => ({ ...entry })) }),
  );

  for (const channel of NOTIFICATION_CHANNELS) {
    const path = CHANNEL_PATHS[channel];
    const item = notificationItemByChannel[channel];
    const page = notificationPage(item).register(z.globalRegistry, { id: `${channel[0]!.toUpperCase()}${channel.slice(1)}NotificationPage` });

    app.get(
      path,
      {
        schema: {
          tags,
          summary: `The caller’s ${channel} notifications (paged, newest first)`,
          querystring: notificationListQuery,
          response: { 200: page, 400: errorBody, 403: errorBody },
        },
      },
      async (request) => {
        const user = await caller(request);
        return listNotifications(db, user.id, channel, request.query);
      },
    );

    app.get(
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: `One ${channel} notification of the caller`,
          params: notificationIdParams,
          response: { 200: item, 400: errorBody, 403: errorBody, 404: errorBody },
        },
      },
      async (request) => {
        const user = await caller(request);
        const row = await findNotification(db, user.id, channel, request.params.id);
        if (!row) throw new HttpError(404, `No ${channel} notification ${request.params.id}`);
        return toItem(row);
      },
    );

    app.put(
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: `Mark one ${channel} notification read ({active: false})`,
          params: notificationIdParams,
          body: markReadBody,
          response: { 200: item, 400: errorBody, 403: errorBody, 404: errorBody },
        },
      },
      async (request, reply) => {
        const user = await caller(request);
        return runMutation(db, request, reply, async (tx) => {
          const row = await markRead(tx, user.id, channel, request.params.id);
          if (!row) throw new HttpError(404, `No ${channel} notification ${request.params.id}`);
          return { body: toItem(row) };
        });
      },
    );

    for (const [url, allowed] of [
      [path, 'GET'],
      [`${path}/:id`, 'GET, PUT'],
    ] as const) {
      app.route({
        method: [...REFUSED_METHODS, ...(url === path ? (['PUT'] as const) : [])],
        url,
        schema: { hide: true },
        handler: async (request, reply) => {
          requireUser(request);
          reply.header('allow', allowed);
          throw new HttpError(405, `${request.method} is not allowed on ${channel} notifications: only retrieve (${allowed})`);
        },
      });
    }
  }
};
