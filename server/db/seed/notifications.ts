/** Notifications on every channel, notification settings and push devices. */
import { NOTIFICATION_CHANNELS, NOTIFICATION_KEYS, type NotificationChannel } from '../../../src/domain/constants';
import { ACCOUNT_SPECS, DEMO_MECHANIC, type AttachmentSpec } from '../../auth/demo-accounts';
import type * as schema from '../schema';
import { IMPORTANT_MESSAGE, SHIP_TO_PARTIES } from './data';
import { plantDef, type Insert, type SeedUser, type World } from './model';
import type { OrderRows } from './orders';
import { Random } from './random';
import { addDays, addHours } from './time';
import { isExpired } from './users';

interface NotificationText {
  subject: string;
  title: string;
  message: string;
}

type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

function notificationText(rng: Random, key: NotificationKey, channel: NotificationChannel, user: SeedUser, orders: OrderRows): NotificationText {
  const firstName = user.spec.displayName.split(' ')[0] ?? user.spec.displayName;
  switch (key) {
    case 'delivery_notification': {
      const waiting = orders.items.filter((it) => it.deliveryStatus === 'ToBePickedUp' || it.deliveryStatus === 'At access point');
      const own = waiting.filter((it) => orders.ownerOf.get(it.orderId) === user.spec.email);
      const parcel = rng.pick(own.length > 0 ? own : waiting);
      const details = parcel.transportDetails as { trackingUrl: string };
      const code = rng.digits(4);
      const where = parcel.deliveryAddress ?? 'the access point';
      return {
        subject: `Parcel for service order ${parcel.orderId} is ready for pickup`,
        title: 'Parcel ready for pickup',
        message:
          channel === 'email'
            ? `Hello ${firstName},\n\nparcel ${parcel.trackingNumber} (${parcel.materialDescription}) for service order ${parcel.orderId} is waiting at ${where}. Pickup code: ${code}. It goes back to the sender after 7 days.\n\nTrack it: ${details.trackingUrl}\nQuestions: logistics@example.com`
            : channel === 'sms'
              ? `Parcel ${parcel.trackingNumber} for order ${parcel.orderId} is ready at ${where}. Pickup code ${code}. ${details.trackingUrl}`
              : `${parcel.materialDescription} for order ${parcel.orderId} is ready for pickup.`,
      };
    }
    case 'inventory_count_notification': {
      const id = rng.int(1, 8);
      const storageLocation = user.spec.attachments.find((a) => a.kind === 'storage_location')?.code ?? DEMO_MECHANIC.storageLocation;
      return {
        subject: `Stock count #${id} assigned to you`,
        title: 'Stock count assigned',
        message:
          channel === 'email'
            ? `Hello ${firstName},\n\na stock count (#${id}) was assigned to you for storage location ${storageLocation}. Please count by Friday: https://parts.example/mechanic-view/${id}\nQuestions: stock.admin@example.com`
            : `Stock count #${id} for ${storageLocation} is waiting. Open https://parts.example/stock-count`,
      };
    }
    case 'contact_notification': {
      const stp = rng.pick(SHIP_TO_PARTIES);
      return {
        subject: `Access point contact updated for ${stp.code}`,
        title: 'Access point contact updated',
        message: `The pickup contact for ship-to-party ${stp.code} (${stp.name}) changed. New contact: logistics.${stp.country.toLowerCase()}@example.com, ${plantDef(stp.plant).phonePrefix}${rng.digits(7)}.`,
      };
    }
    case 'other_notification':
      return {
        subject: 'Planned maintenance on Saturday',
        title: 'Service announcement',
        message: channel === 'email' ? `${IMPORTANT_MESSAGE}\n\nStatus page: https://status.example.com` : 'Reminder: ordering is unavailable Saturday 22:00–23:30 CET.',
      };
  }
}

/** Users who see notifications: super managers and users of notification-allowed plants (§6). */
function notificationRecipients(world: World): SeedUser[] {
  const allowed = ['FI01', 'DE02'];
  return world.users.filter(
    (u) =>
      u.row.approvalStatus === 'Approved' &&
      !isExpired(u, world.now) &&
      ACCOUNT_SPECS.includes(u.spec) &&
      (u.spec.grants.some((g) => g === 'super_manager' || g === 'super_manager_read_only') || u.spec.attachments.some((a) => a.kind === 'plant' && allowed.includes(a.plant))),
  );
}

export function buildNotifications(world: World, orders: OrderRows): Insert<typeof schema.notifications>[] {
  const rng = new Random('notifications');
  const rows: Insert<typeof schema.notifications>[] = [];
  for (const user of notificationRecipients(world)) {
    const attached = (kind: AttachmentSpec['kind']) => user.spec.attachments.find((a) => a.kind === kind);
    const perCombination = user.spec.email === DEMO_MECHANIC.email ? 2 : 1;
    for (const channel of NOTIFICATION_CHANNELS) {
      for (const key of NOTIFICATION_KEYS) {
        for (let n = 0; n < perCombination; n++) {
          const text = notificationText(rng, key, channel, user, orders);
          const created = n === 0 && key === 'delivery_notification' ? addHours(world.now, -rng.float(0.2, 5)) : addHours(world.now, -rng.float(6, 24 * 14));
          const failed = channel === 'sms' && key === 'other_notification' && n === 0 && user.spec.email === DEMO_MECHANIC.email;
          rows.push({
            userId: user.id,
            channel,
            notificationKey: key,
            userEmail: user.spec.email,
            phoneNumber: channel === 'sms' ? user.row.phoneNumber ?? null : null,
            plant: attached('plant')?.plant ?? null,
            plannerGroup: attached('planner_group')?.code ?? null,
            storageLocation: attached('storage_location')?.code ?? null,
            workCenter: attached('work_center')?.code ?? null,
            subject: channel === 'email' ? text.subject : null,
            title: channel === 'push' ? text.title : null,
            message: text.message,
            // Older ones were read (§4: read sets active to false).
            active: created > addDays(world.now, -3) ? rng.chance(0.8) : rng.chance(0.2),
            deliveryState: failed ? 'failed' : 'sent',
            deliveryError: failed ? 'SMS gateway: recipient number unreachable' : null,
            created,
          });
        }
      }
    }
  }
  return rows.sort((a, b) => Number(a.created) - Number(b.created));
}

type SettingsRow = Insert<typeof schema.notificationSettings>;

/**
 * One notification-settings row of a user: where it sends (an address, a number, push or not) and,
 * per notification kind, which of those channels are on.
 */
function settingsRow(
  world: World,
  user: SeedUser,
  primary: boolean,
  to: { email: string | null; mobileNumber: string | null; push: boolean },
  channels: (key: NotificationKey) => { email: boolean; sms: boolean; push: boolean },
): SettingsRow {
  return {
    userId: user.id,
    primary,
    emailEnabled: to.email !== null,
    email: to.email,
    mobileEnabled: Boolean(to.mobileNumber),
    mobileNumber: to.mobileNumber,
    pushNotificationsEnabled: to.push,
    preferences: Object.fromEntries(
      NOTIFICATION_KEYS.map((key) => {
        const on = channels(key);
        return [key, { emailEnabled: on.email, smsEnabled: on.sms, pushEnabled: on.push }];
      }),
    ),
    updatedAt: addDays(world.now, -10),
  };
}

/** Approved demo accounts: a primary row (their own address and phone) and a second one (the team's shared address for front-liners). */
export function buildNotificationSettings(world: World): SettingsRow[] {
  return world.users
    .filter((u) => ACCOUNT_SPECS.includes(u.spec) && u.row.approvalStatus === 'Approved')
    .flatMap((user) => {
      const isFrontline = user.spec.grants.some((g) => g === 'mechanic' || g === 'supervisor');
      return [
        settingsRow(world, user, true, { email: user.spec.email, mobileNumber: user.row.phoneNumber ?? null, push: isFrontline }, (key) => ({
          email: true,
          sms: isFrontline && key === 'delivery_notification',
          push: isFrontline && key !== 'other_notification',
        })),
        settingsRow(world, user, false, { email: isFrontline ? 'service.fi01@example.com' : null, mobileNumber: null, push: false }, (key) => ({
          email: key === 'delivery_notification',
          sms: false,
          push: false,
        })),
      ];
    });
}

export function buildDevices(world: World, mechanic: SeedUser): Insert<typeof schema.notificationDevices>[] {
  const rng = new Random('devices');
  const token = () => `${rng.digits(4)}:APA91b${Array.from({ length: 134 }, () => rng.pick([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'])).join('')}`;
  return [
    { userId: mechanic.id, deviceId: rng.digits(13), token: token(), deviceName: 'Android / Chrome', isEnabled: true, isLoggedIn: true, updatedAt: addDays(world.now, -2) },
    { userId: mechanic.id, deviceId: rng.digits(13), token: token(), deviceName: 'Windows / Edge', isEnabled: false, isLoggedIn: false, updatedAt: addDays(world.now, -40) },
  ];
}
