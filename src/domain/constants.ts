/** §9 Business constants and limits. One home for each number the spec names. */

export const LOCALES = ['cs-CZ', 'de-DE', 'en-US', 'es-ES', 'fi-FI', 'fr-FR', 'it-IT', 'pt-PT', 'sv-SE'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

/** §1: a locale outside the nine falls back to en-US; a bare language ("de") maps to its locale. */
export function resolveLocale(value: string | null | undefined): Locale {
  if (!value) return DEFAULT_LOCALE;
  const exact = LOCALES.find((locale) => locale.toLowerCase() === value.toLowerCase());
  if (exact) return exact;
  const language = value.split(/[-_]/)[0]?.toLowerCase();
  return LOCALES.find((locale) => locale.slice(0, 2) === language) ?? DEFAULT_LOCALE;
}

/** The name dayjs gives a locale's language (its locale files are per language: `fi`, `en`). */
export const dayjsLocaleName = (locale: Locale): string => (locale === 'en-US' ? 'en' : locale.slice(0, 2));

export const PAGE_SIZE = 20;
export const PRIORITY_SUGGESTIONS_MAX = 120;

/**
 * §5/§9 priority manager. The spec does not give the maximum of ship-to-party numbers a user may
 * add ("value not shown"): 50 is ours. PRIORITY_MIN/MAX match the database check
 * access_point_priorities_priority_ck. Upload limits keep one upload one quick transaction.
 */
export const MAX_SHIP_TO_PARTY_NUMBERS = 50;
export const PRIORITY_MIN = 1;
export const PRIORITY_MAX = 99;
export const PRIORITY_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const PRIORITY_UPLOAD_MAX_ROWS = 20_000;
export const SEARCH_HISTORY_SIZE = 10;

/** §5/§9 retry: 3 tries, waits of 20^(4 − remaining tries) ms → 20 ms, 400 ms, 8000 ms. */
export const RETRY_LIMIT = 3;
export function retryDelayMs(remainingTries: number): number {
  return 20 ** (4 - remainingTries);
}

export const NARROW_BREAKPOINT_PX = 991;
export const ERROR_ALERT_SECONDS = 9;
export const PUSH_TOAST_MS = 10_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const STOCK_COUNT_TYPES = ['single', 'wall_to_wall'] as const;
export const STOCK_COUNT_STATUSES = [
  'initiated',
  'in_progress',
  'submitted',
  'completed',
  'cancelled',
  'error',
  'recount',
] as const;
export type StockCountStatus = (typeof STOCK_COUNT_STATUSES)[number];
/** §4: counts that can still change. Submitted, completed and cancelled counts are closed. */
export const EDITABLE_COUNT_STATUSES: readonly StockCountStatus[] = ['initiated', 'in_progress', 'error', 'recount'];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const SEARCH_OPERATORS = ['>=', '<=', '!=', '>', '<', '='] as const;

export const DELIVERY_STATUSES = ['Delivered', 'Delivery Failed', 'OnTheWay', 'ToBePickedUp', 'At access point'] as const;
export const DELIVERY_TYPES = ['Warehouse', 'AccessPoint', 'Courier', 'Pickup'] as const;

export const NOTIFICATION_CHANNELS = ['email', 'sms', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const NOTIFICATION_KEYS = [
  'delivery_notification',
  'inventory_count_notification',
  'contact_notification',
  'other_notification',
] as const;
export const FEEDBACK_TYPES = [
  'Feedback',
  'ReportIssue',
  'RequestUpdateOrder',
  'RequestStockTransfer',
  'ReportStockDifference',
  'RequestUpdateAccessPointContactNotification',
] as const;

export const APPROVAL_STATUSES = ['Pending', 'Approved', 'Rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const FILE_STATUSES = ['processed', 'errored', 'missing', 'in_progress', 'not_processed'] as const;
export const FILE_PARTS_OF_DAY = ['morning', 'midday', 'evening'] as const;

/** §8 messages the server and the browser both use verbatim. */
export const MESSAGES = {
  userExpired: 'User expired',
  missingToken: 'User profile does not have an identity token.',
  emailDomainNotSupported: (domain: string) => `Email domain ${domain} not supported`,
  emailFormat: 'Email must have one @ character surrounded by non-@ characters.',
  mobileNumber:
    'The mobile phone number you entered is not valid. Please enter a valid mobile phone number starting with the country code.',
  pendingApproval: 'Your access request is waiting for approval.',
  approvalRejected: 'Your access request was rejected.',
} as const;

/**
 * §8's refusals of the account itself (403), not of the call: the app leads to /user-expired or
 * /welcome, and changes and feedback wait until a manager has extended or approved the account.
 */
export const ACCOUNT_REFUSALS: readonly string[] = [MESSAGES.userExpired, MESSAGES.pendingApproval, MESSAGES.approvalRejected];
