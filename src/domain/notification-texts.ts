/**
 * Texts the server writes into notifications (#19 item 22), as a key and parameters: the PWA
 * renders them in the user's language, and the server keeps the English wording as the stored
 * text (what e-mail and SMS send, and what clients without the key show). The wording itself has
 * one home, `notifications.text.*` in locales/*.json; en-US is the stored English.
 */
import { formatQuantity } from './quantity';

export const NOTIFICATION_TEXT_KEYS = ['stockCountAssigned', 'stockCountPartAssigned', 'stockCountRecountLine', 'stockCountDue', 'orderItemStatus', 'stockTransferDone', 'stockTransferDeclined', 'stockTransferRequested'] as const;
export type NotificationTextKey = (typeof NOTIFICATION_TEXT_KEYS)[number];

export interface NotificationTextParams {
  stockCountAssigned: { id: number; by: string; storageLocation: string; plant: string; deadline: string | null };
  /** #18: one part of a count split among several counters (decision 0033). */
  stockCountPartAssigned: { id: number; by: string; storageLocation: string; plant: string; deadline: string | null; lines: number };
  /** #18: a line two counters counted differently, sent back to them to count again. */
  stockCountRecountLine: { id: number; by: string; storageLocation: string; plant: string; material: string };
  stockCountDue: { id: number; storageLocation: string; plant: string; deadline: string };
  orderItemStatus: { order: string; line: number; material: string; description: string; status: string };
  /** Decision 0061: a stock transfer request marked done or declined, told to its requester. */
  stockTransferDone: TransferDecided;
  stockTransferDeclined: TransferDecided;
  /**
   * A new stock transfer request, told to those who may decide it in its plant. `id` names the
   * request, so its decision resolves these notifications (the link is the list's, not the request's).
   */
  stockTransferRequested: { id: string; name: string; by: string; material: string; quantity: number; from: string; to: string; plant: string };
}

type TransferDecided = {
  material: string;
  quantity: number;
  from: string;
  to: string;
  plant: string;
  by: string;
};

export type NotificationText = { [K in NotificationTextKey]: { key: K; params: NotificationTextParams[K] } }[NotificationTextKey];

/** The parameters each key needs, to tell a usable text from one a client cannot render. */
const REQUIRED: { [K in NotificationTextKey]: (keyof NotificationTextParams[K])[] } = {
  stockCountAssigned: ['id', 'by', 'storageLocation', 'plant'],
  stockCountPartAssigned: ['id', 'by', 'storageLocation', 'plant', 'lines'],
  stockCountRecountLine: ['id', 'by', 'storageLocation', 'plant', 'material'],
  stockCountDue: ['id', 'storageLocation', 'plant', 'deadline'],
  orderItemStatus: ['order', 'line', 'material', 'description', 'status'],
  stockTransferDone: ['material', 'quantity', 'from', 'to', 'plant', 'by'],
  stockTransferDeclined: ['material', 'quantity', 'from', 'to', 'plant', 'by'],
  stockTransferRequested: ['id', 'name', 'by', 'material', 'quantity', 'from', 'to', 'plant'],
};

/** A text as it arrived (from our server or another): usable when its key is known and its parameters are there. */
export function knownNotificationText(text: { key: string; params: Record<string, unknown> } | null | undefined): NotificationText | null {
  if (!text || !(NOTIFICATION_TEXT_KEYS as readonly string[]).includes(text.key)) return null;
  const required = REQUIRED[text.key as NotificationTextKey] as string[];
  const ok = required.every((name) => {
    const value = text.params[name];
    return typeof value === 'string' || typeof value === 'number';
  });
  return ok ? (text as NotificationText) : null;
}

/** `{{name}}` interpolation as i18next does it; text only, never markup. */
export function interpolate(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    const value = params[name];
    return value === null || value === undefined ? '' : String(value);
  });
}

/** The templates of one language's `notifications.text` group. */
export interface NotificationTemplates {
  countBy: string;
  stockCountAssigned: { subject: string; body: string };
  stockCountPartAssigned: { subject: string; body: string };
  stockCountRecountLine: { subject: string; body: string };
  stockCountDue: { subject: string; body: string };
  orderItemStatus: { subject: string; body: string };
  stockTransferDone: { subject: string; body: string };
  stockTransferDeclined: { subject: string; body: string };
  stockTransferRequested: { subject: string; body: string };
}

/** How a language words the parameters that are not plain names and numbers. */
export interface ParamWording {
  /** A delivery status (`arrived`, `in_transit`…) in the language. */
  status: (status: string) => string;
  /** A deadline (`YYYY-MM-DD`) as a long date in the language. */
  deadline: (deadline: string) => string;
  /**
   * The language's tag (`de-DE`): a transfer's quantity as a number of that language ("1,5 ×
   * KM100" in German, "1.5 × KM100" in English). Without it the quantity stays as stored.
   */
  language?: string;
}

/**
 * The parameters as a reader of one language reads them: a delivery status, a deadline and a
 * quantity in that language. One rule for the app (the user's language) and the server (e-mail,
 * SMS and push in the recipient's language).
 */
export function localParams(text: NotificationText, wording: ParamWording): Record<string, unknown> {
  if (text.key === 'orderItemStatus') return { ...text.params, status: wording.status(text.params.status) };
  if ('quantity' in text.params) {
    const { quantity } = text.params;
    // A stored row from elsewhere may carry the quantity as text: it stays as it came.
    return wording.language && typeof quantity === 'number' ? { ...text.params, quantity: formatQuantity(quantity, wording.language) } : text.params;
  }
  if (!('deadline' in text.params)) return text.params;
  const deadline = text.params.deadline;
  return { ...text.params, deadline: deadline ? wording.deadline(deadline) : deadline };
}

/** Subject and body of a text from a language's templates; parameters already in that language. */
export function renderNotificationText(templates: NotificationTemplates, text: NotificationText, params: Record<string, unknown> = text.params): { subject: string; body: string } {
  const own = templates[text.key];
  const subject = interpolate(own.subject, params);
  let body = interpolate(own.body, params);
  if ((text.key === 'stockCountAssigned' || text.key === 'stockCountPartAssigned') && text.params.deadline) body = `${body} ${interpolate(templates.countBy, params)}`;
  return { subject, body };
}
