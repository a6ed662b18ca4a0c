/**
 * Notifications (§3, §5, §7 user service): settings, the dropdown, the three paged channel lists.
 * One home for the wire shapes and the §5 recipient validators, used by server and browser alike.
 */
import { z } from './zod';
import { MESSAGES, NOTIFICATION_CHANNELS, NOTIFICATION_KEYS, SORT_DIRECTIONS } from '../domain/constants';
import { maxResultsParam, pageEnvelope, pageParam } from './common';

export { NOTIFICATION_CHANNELS, NOTIFICATION_KEYS };
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Delivery state of a recorded message (outbox). 'recorded' = no transport configured, kept and logged. */
export const DELIVERY_STATES = ['queued', 'sending', 'sent', 'failed', 'recorded', 'skipped'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

// ───────────── §5 validators ─────────────

/** §5 mobile number: + then at least 3 digits (spaces, dots, dashes and brackets between digits are tolerated). */
export function isValidMobileNumber(value: string): boolean {
  const compact = value.trim().replace(/[\s().-]/g, '');
  return /^\+\d{3,15}$/.test(compact);
}

/**
 * §5's looser check: an optional + and at least 3 digits (the same separators tolerated). Used
 * where a number is looked for rather than entered: a search for a phone number (#19 item 12).
 */
export function isLooseMobileNumber(value: string): boolean {
  const compact = value.trim().replace(/[\s().-]/g, '');
  return /^\+?\d{3,15}$/.test(compact);
}

/** §5 digits-only form used to compare numbers. */
export function mobileDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** §5: two numbers are the same when their digits are ("+358 40 123" = "358-40-123"). */
export function isSameMobileNumber(a: string | null | undefined, b: string | null | undefined): boolean {
  const digits = mobileDigits(a ?? '');
  return digits !== '' && digits === mobileDigits(b ?? '');
}

/** §5 e-mail format (the domain is checked against the allowed list by the server). */
export function isValidEmailFormat(value: string): boolean {
  return /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/.test(value.trim());
}

// ───────────── settings ─────────────

export const notificationPreference = z.object({
  emailEnabled: z.boolean(),
  smsEnabled: z.boolean(),
  pushEnabled: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreference>;

export const notificationPreferences = z.object({
  delivery_notification: notificationPreference,
  inventory_count_notification: notificationPreference,
  contact_notification: notificationPreference,
  other_notification: notificationPreference,
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

export const pushDeviceSettings = z.object({
  /** The browser's own id to its owner; anyone else reads a stable stand-in (the id signs a device in, X-Device-Id). */
  deviceId: z.string().check(z.trim(), z.minLength(1, 'deviceId is required'), z.maxLength(100)),
  deviceName: z.string().check(z.trim(), z.maxLength(200)),
  /** The push device token; answered to its owner only, null to anyone else reading the settings. */
  token: z.nullable(z.string().check(z.maxLength(4096))),
  isEnabled: z.boolean(),
  isLoggedIn: z.boolean(),
});
export type PushDeviceSettings = z.infer<typeof pushDeviceSettings>;

/** Most push devices one settings entry lists (the server keeps fewer per user, the newest first). */
export const PUSH_DEVICES_MAX = 50;

export const notificationSettingsEntry = z
  .object({
    primary: z.boolean(),
    emailEnabled: z.boolean(),
    email: z.nullable(z.string().check(z.maxLength(320))),
    mobileEnabled: z.boolean(),
    mobileNumber: z.nullable(z.string().check(z.maxLength(40))),
    pushNotificationsEnabled: z.boolean(),
    pushNotificationsSettings: z.array(pushDeviceSettings).check(z.maxLength(PUSH_DEVICES_MAX, `At most ${PUSH_DEVICES_MAX} push devices per settings entry`)),
    notificationsPreferences: notificationPreferences,
  })
  .register(z.globalRegistry, { id: 'NotificationSettingsEntry' });
export type NotificationSettingsEntry = z.infer<typeof notificationSettingsEntry>;

/** §5 checks of one entry; the message texts are the spec's. Domains are checked by the server. */
function checkEntry(entry: NotificationSettingsEntry, ctx: z.core.$RefinementCtx, index: number): void {
  const email = entry.email?.trim() ?? '';
  if ((entry.emailEnabled || email !== '') && !isValidEmailFormat(email)) {
    ctx.addIssue({ code: 'custom', path: [index, 'email'], message: MESSAGES.emailFormat });
  }
  const mobile = entry.mobileNumber?.trim() ?? '';
  if ((entry.mobileEnabled || mobile !== '') && !isValidMobileNumber(mobile)) {
    ctx.addIssue({ code: 'custom', path: [index, 'mobileNumber'], message: MESSAGES.mobileNumber });
  }
}

export const notificationSettingsList = z
  .array(notificationSettingsEntry)
  .check(
    z.minLength(1, 'Send the primary settings entry'),
    z.maxLength(2, 'Only a primary and a secondary settings entry exist'),
    z.superRefine((entries, ctx) => {
      if (entries.filter((e) => e.primary).length !== 1) {
        ctx.addIssue({ code: 'custom', message: 'Exactly one settings entry must be primary' });
      }
      entries.forEach((entry, index) => checkEntry(entry, ctx, index));
    }),
  );

/** A settings revision (decision 0068): a whole number, 0 for settings never saved. */
const settingsRevision = z.number().check(z.int('the revision must be a whole number'), z.gte(0, 'the revision must be 0 or more'));

export const updateNotificationSettingsBody = z
  .strictObject({
    notificationSettings: notificationSettingsList,
    /**
     * The `revision` the form was opened with (decision 0068, a save names what it started from):
     * when another save came since (another device, a supervisor), the save is a 409 (code
     * notificationSettingsChangedMeanwhile) with nothing written, instead of turning back what
     * that save changed. A save naming it writes of the push devices only their switches: a device
     * registers and signs out through calls of its own (PUT …/push_devices/{deviceId}, DELETE
     * …/push_devices/{deviceId}/sign_in). Optional: callers without it replace the settings as before.
     */
    expectedRevision: z.optional(settingsRevision),
  })
  .register(z.globalRegistry, { id: 'UpdateNotificationSettingsRequest' });
export type UpdateNotificationSettingsBody = z.infer<typeof updateNotificationSettingsBody>;

export const notificationSettingsResponse = z
  .object({
    notification_settings: z.array(notificationSettingsEntry),
    /**
     * Moves at every save of the settings (not when a device registers or signs out). The server
     * always sends it; a copy saved on the device before it existed has none (then nothing is named).
     */
    revision: z.optional(settingsRevision),
  })
  .register(z.globalRegistry, { id: 'NotificationSettings' });
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponse>;

/**
 * A browser's own push device calls (decision 0068), the user's only: PUT /users/{uid}/push_devices/{deviceId}
 * registers it and DELETE …/{deviceId}/sign_in signs it out. They write that device's row and nothing
 * else of the settings, and do not move their revision.
 */
export const pushDeviceParams = z.object({
  uid: z.string().check(z.uuid('uid must be a user id')).check(z.toLowerCase()),
  deviceId: pushDeviceSettings.shape.deviceId,
});
/** The PUT: this browser, signed in, with its push token; its switch stays as its user set it (on when new). */
export const registerPushDeviceBody = z
  .strictObject({
    deviceName: pushDeviceSettings.shape.deviceName,
    token: z.string().check(z.trim(), z.minLength(1, 'token is required'), z.maxLength(4096)),
  })
  .register(z.globalRegistry, { id: 'RegisterPushDeviceRequest' });
export type RegisterPushDeviceBody = z.infer<typeof registerPushDeviceBody>;

// Lower-cased: the check that these are the caller's own settings compares ids as text.
export const userIdParams = z.object({ uid: z.string().check(z.uuid('uid must be a user id')).check(z.toLowerCase()) });

/** The people whose notification settings the caller may change (supervisors have no users screen, §6). */
export const notificationTeamQuery = z.strictObject({
  query: z.optional(z.string().check(z.trim(), z.maxLength(100, 'query must be 100 characters or less'))),
});
export const NOTIFICATION_TEAM_MAX = 50;
export const notificationTeamResponse = z
  .object({
    users: z.array(z.object({ uid: z.string(), email: z.string(), display_name: z.string() })),
    /** More than NOTIFICATION_TEAM_MAX match: the answer is the first ones by e-mail; narrow with `query`. */
    has_more: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'NotificationSettingsTeam' });
export type NotificationTeamResponse = z.infer<typeof notificationTeamResponse>;

// ───────────── texts written by the server (#19 item 22) ─────────────

/**
 * A server-made text as a key and parameters the PWA renders in the user's language
 * (src/domain/notification-texts.ts); `message`, `subject` and `title` keep the English wording.
 * Loose on purpose: a key this app does not know, or no text at all (other services), falls back
 * to the stored wording.
 */
export const notificationTextField = z.nullish(
  z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number(), z.null()])) }),
);

// ───────────── dropdown, keys ─────────────

export const dropdownEntry = z.object({
  id: z.int(),
  notification_type: z.enum(NOTIFICATION_CHANNELS),
  notification_key: z.enum(NOTIFICATION_KEYS),
  notification_text: z.string(),
  created: z.string(),
  text: notificationTextField,
});
export type DropdownEntry = z.infer<typeof dropdownEntry>;

export const dropdownResponse = z
  .object({
    notifications: z.array(dropdownEntry),
    /** All unread notifications, counted up to 1,000 (the list holds the newest 50): the bell's number. Absent from services that do not send it. */
    unread_count: z.optional(z.int()),
  })
  .register(z.globalRegistry, { id: 'UnreadNotifications' });
export type DropdownResponse = z.infer<typeof dropdownResponse>;

export const notificationKeysResponse = z
  .object({ notifications: z.array(z.object({ key: z.enum(NOTIFICATION_KEYS), title: z.string() })) })
  .register(z.globalRegistry, { id: 'NotificationKeys' });
export type NotificationKeysResponse = z.infer<typeof notificationKeysResponse>;

// ───────────── channel lists ─────────────

export const NOTIFICATION_SORT_COLUMNS = ['created', 'subject', 'title', 'notification_key', 'active'] as const;

export const notificationListQuery = z.object({
  page: pageParam,
  maxResults: maxResultsParam(100),
  orderByColumn: z.optional(z.enum(NOTIFICATION_SORT_COLUMNS, { message: `orderByColumn must be one of ${NOTIFICATION_SORT_COLUMNS.join(', ')}` })),
  sortDirection: z.optional(z.enum(SORT_DIRECTIONS, { message: 'sortDirection must be asc or desc' })),
  query: z.optional(z.string().check(z.maxLength(200))),
  /** The §2 filter: all, or one notification key. */
  notificationKey: z.optional(z.enum(NOTIFICATION_KEYS, { message: `notificationKey must be one of ${NOTIFICATION_KEYS.join(', ')}` })),
});
export type NotificationListQuery = z.input<typeof notificationListQuery>;

const itemBase = {
  id: z.int(),
  notification_key: z.enum(NOTIFICATION_KEYS),
  user_email: z.string(),
  /** The address or number the message went to (e-mail: may be the secondary recipient). */
  recipient: z.nullable(z.string()),
  plant: z.nullable(z.string()),
  planner_group: z.nullable(z.string()),
  storage_location: z.nullable(z.string()),
  work_center: z.nullable(z.string()),
  message: z.string(),
  link: z.nullable(z.string()),
  active: z.boolean(),
  delivery_state: z.enum(DELIVERY_STATES),
  created: z.string(),
  text: notificationTextField,
};

export const emailNotificationItem = z.object({ ...itemBase, subject: z.nullable(z.string()) }).register(z.globalRegistry, { id: 'EmailNotification' });
export const smsNotificationItem = z.object({ ...itemBase, phone_number: z.nullable(z.string()) }).register(z.globalRegistry, { id: 'SmsNotification' });
export const pushNotificationItem = z.object({ ...itemBase, title: z.nullable(z.string()) }).register(z.globalRegistry, { id: 'PushNotification' });
export type EmailNotificationItem = z.infer<typeof emailNotificationItem>;
export type SmsNotificationItem = z.infer<typeof smsNotificationItem>;
export type PushNotificationItem = z.infer<typeof pushNotificationItem>;
export type NotificationItem = EmailNotificationItem | SmsNotificationItem | PushNotificationItem;

export const notificationItemByChannel = {
  email: emailNotificationItem,
  sms: smsNotificationItem,
  push: pushNotificationItem,
} as const;

export const notificationPage = <T extends z.core.$ZodType>(item: T) => z.object({ ...pageEnvelope, items: z.array(item) });
export type NotificationPage<T> = { page: number; pages: number; has_next: boolean; has_prev: boolean; items: T[] };

export const notificationIdParams = z.object({
  id: z.coerce.number({ message: 'id must be a number' }).check(z.int('id must be a whole number'), z.positive('id must be positive')),
});

/** §4 read state: the only change a client may make is `{ active: false }`. */
export const markReadBody = z
  .strictObject({ active: z.literal(false, { message: 'Only { "active": false } is accepted' }) })
  .register(z.globalRegistry, { id: 'MarkNotificationRead' });
