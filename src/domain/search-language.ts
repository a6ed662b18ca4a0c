/**
 * §5 search language of the tracking search, shared by the browser (highlighting bad terms by
 * index, query parameters) and the server (the same parse turns into SQL).
 *
 * - The text is split into terms on white space; double quotes keep spaces inside one term,
 *   so a multi-word field can be written `"purchase order">=4500100000`. Spaces, `_` and `-`
 *   inside a field name are ignored, so `purchase_order`, `purchase-order` and `PurchaseOrder`
 *   name the same field as `"purchase order"`.
 * - A term with an operator (> < >= <= = !=, the longest match first) is field, operator, value.
 *   The field must be a known alias; the value must not be empty and must pass the field's check.
 * - A term without an operator is free text; wildcards (* ? %) are refused (§5 guidance), in a
 *   field's value too.
 * - A term written twice (the same field, operator and value, or the same free text) is read once;
 *   a search of more than MAX_SEARCH_TERMS different terms is refused at the first one too many.
 * - Nothing here throws: junk yields errors by term index.
 */
import { isControlCharacter } from './text';

export const OPERATORS = ['>=', '<=', '!=', '>', '<', '='] as const;
export type Operator = (typeof OPERATORS)[number];

/** Query-parameter suffix of each operator: `purchaseOrder_gte=4500100000`. */
export const OPERATOR_SUFFIXES: Record<Operator, string> = {
  '>': '_gt',
  '<': '_lt',
  '>=': '_gte',
  '<=': '_lte',
  '=': '_eq',
  '!=': '_ne',
};

/** How a field's values are checked and compared. */
export type ValueKind = 'document' | 'code' | 'text' | 'email' | 'date' | 'deliveryStatus';

export const SEARCH_FIELDS = [
  { key: 'purchaseOrder', aliases: ['purchase order', 'po'], kind: 'document' },
  { key: 'deliveryOrder', aliases: ['delivery order', 'do'], kind: 'document' },
  { key: 'salesOrder', aliases: ['sales order'], kind: 'document' },
  { key: 'serviceOrder', aliases: ['service order', 'so'], kind: 'document' },
  { key: 'storageLocation', aliases: ['sloc'], kind: 'code' },
  { key: 'trackingNumber', aliases: ['tracking number', 'tn'], kind: 'document' },
  { key: 'plant', aliases: ['plant'], kind: 'code' },
  { key: 'plannerGroup', aliases: ['planner group'], kind: 'code' },
  { key: 'equipment', aliases: ['equipment', 'ec'], kind: 'document' },
  { key: 'equipmentDescription', aliases: ['equipment description'], kind: 'text' },
  { key: 'workCenter', aliases: ['work center', 'wc'], kind: 'code' },
  { key: 'userEmail', aliases: ['user email'], kind: 'email' },
  { key: 'delivery', aliases: ['delivery', 'dl'], kind: 'deliveryStatus' },
  { key: 'material', aliases: ['material', 'mat', 'mc'], kind: 'document' },
  { key: 'materialDescription', aliases: ['material description'], kind: 'text' },
  { key: 'deliveryDate', aliases: ['delivery date', 'dd'], kind: 'date' },
] as const satisfies ReadonlyArray<{ key: string; aliases: readonly string[]; kind: ValueKind }>;

export type SearchFieldKey = (typeof SEARCH_FIELDS)[number]['key'];
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** Every alias as written in §5. */
export const SEARCH_ALIASES: readonly string[] = SEARCH_FIELDS.flatMap((field) => field.aliases);

/** `Purchase_Order`, `purchase-order`, `"purchase order"` → `purchaseorder`. */
const squash = (name: string) => name.toLowerCase().replace(/[\s_"'-]+/g, '');

const FIELD_BY_ALIAS = new Map<string, SearchField>(
  SEARCH_FIELDS.flatMap((field) => [...field.aliases.map((alias) => [squash(alias), field] as const), [squash(field.key), field] as const]),
);

export function findField(name: string): SearchField | undefined {
  return FIELD_BY_ALIAS.get(squash(name));
}

/**
 * The most different terms one search may hold. The server plans every range term apart
 * (narrowRanges: one EXPLAIN each, side by side on the pool), and 500 characters held about 100
 * terms: one search queued about 100 statements. Twenty is more than any search of §5 needs.
 */
export const MAX_SEARCH_TERMS = 20;

/** The delivery statuses of §4 as the guidance writes them, with the status each one finds (§4's names). */
export const DELIVERY_STATUS_WORDS = [
  ['delivered', 'Delivered'],
  ['failed', 'Delivery Failed'],
  ['on_the_way', 'OnTheWay'],
  ['to_be_picked_up', 'ToBePickedUp'],
  ['at_access_point', 'At access point'],
] as const;

/**
 * The delivery statuses of §4, as a person may type them (`dl=delivered`, `dl=at_access_point`).
 * A Map, not an object literal: `dl=constructor` found Object.prototype's and was a 500.
 */
const DELIVERY_STATUS_VALUES: ReadonlyMap<string, string> = new Map([
  ['delivered', 'Delivered'],
  ['deliveryfailed', 'Delivery Failed'],
  ['failed', 'Delivery Failed'],
  ['ontheway', 'OnTheWay'],
  ['tobepickedup', 'ToBePickedUp'],
  ['ataccesspoint', 'At access point'],
]);

export type TermErrorReason = 'unknownField' | 'emptyValue' | 'badValue' | 'operatorNotAllowed' | 'wildcard' | 'tooManyTerms';

export interface TermError {
  /** Position of the term in the split text, from 0. */
  index: number;
  term: string;
  reason: TermErrorReason;
  /** With badValue: what the field holds, so the message can say what fits (a date, a code …) rather than talk of dates for every field. */
  kind?: ValueKind;
  /** English message naming the term, for the server's 400 (the browser translates `reason`). */
  message: string;
}

export type SearchTerm =
  | { index: number; raw: string; type: 'free'; value: string }
  | { index: number; raw: string; type: 'field'; field: SearchFieldKey; operator: Operator; value: string };

export interface ParsedSearch {
  terms: SearchTerm[];
  errors: TermError[];
}

/** Splits on white space outside double quotes; quotes are kept for the term parser. */
export function splitTerms(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  const terms: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    // Control characters (NUL, the unit separator, …) cannot be typed into a term: they separate
    // terms like spaces, also between quotes, so none ever reaches a query.
    if (isControlCharacter(char) || (!quoted && /\s/.test(char))) {
      if (current) terms.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (current) terms.push(current);
  return terms;
}

/** The first operator in the term (outside quotes), longest match first at that position. */
function findOperator(term: string): { at: number; operator: Operator } | null {
  let quoted = false;
  for (let at = 0; at < term.length; at++) {
    const char = term[at];
    if (char === '"') quoted = !quoted;
    if (quoted) continue;
    const operator = OPERATORS.find((op) => term.startsWith(op, at));
    if (operator) return { at, operator };
  }
  return null;
}

const unquote = (value: string) => value.replace(/"/g, '').trim();

const DATE_SEPARATORS = '[/.\\\\-]?';
const YEAR_FIRST = new RegExp(`^(\\d{4})(${DATE_SEPARATORS})(\\d{2})\\2(\\d{2})$`);
const DAY_FIRST = new RegExp(`^(\\d{2})(${DATE_SEPARATORS})(\\d{2})\\2(\\d{4})$`);

/** A day of the calendar: 2026-02-29 and year 0 are not (the database would refuse them). */
const validDate = (year: number, month: number, day: number) => {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

/**
 * §5 date: 8 digits as yyyy-mm-dd or dd-mm-yyyy with an optional separator / . \ or - (the same
 * one twice), a real calendar day. Returns yyyy-mm-dd, or null when it is not such a date.
 */
export function normalizeSearchDate(value: string): string | null {
  const yearFirst = YEAR_FIRST.exec(value);
  if (yearFirst) {
    const [, year, , month, day] = yearFirst as unknown as [string, string, string, string, string];
    if (validDate(Number(year), Number(month), Number(day))) return `${year}-${month}-${day}`;
  }
  const dayFirst = DAY_FIRST.exec(value);
  if (dayFirst) {
    const [, day, , month, year] = dayFirst as unknown as [string, string, string, string, string];
    if (validDate(Number(year), Number(month), Number(day))) return `${year}-${month}-${day}`;
  }
  return null;
}

const WILDCARDS = /[*?%]/;
const DOCUMENT_PATTERN = /^[A-Za-z0-9/._-]{1,40}$/;
const CODE_PATTERN = /^[A-Za-z0-9_-]{1,20}$/;
const EMAIL_CHARS = /^[A-Za-z0-9._%+@-]{1,120}$/;

type ValueCheck = { ok: true; value: string } | { ok: false; reason: 'badValue' | 'operatorNotAllowed'; hint: string };

function checkValue(kind: ValueKind, operator: Operator, value: string): ValueCheck {
  switch (kind) {
    case 'document':
      return DOCUMENT_PATTERN.test(value) ? { ok: true, value } : { ok: false, reason: 'badValue', hint: 'use letters, digits and / . _ - only' };
    case 'code':
      return CODE_PATTERN.test(value) ? { ok: true, value: value.toUpperCase() } : { ok: false, reason: 'badValue', hint: 'use letters and digits only' };
    case 'text':
      return value.length <= 100 && !WILDCARDS.test(value) ? { ok: true, value } : { ok: false, reason: 'badValue', hint: 'at most 100 characters' };
    case 'email':
      return EMAIL_CHARS.test(value) ? { ok: true, value: value.toLowerCase() } : { ok: false, reason: 'badValue', hint: 'use the characters of an e-mail address' };
    case 'date': {
      const date = normalizeSearchDate(value);
      return date ? { ok: true, value: date } : { ok: false, reason: 'badValue', hint: 'write a date as yyyy-mm-dd or dd-mm-yyyy' };
    }
    case 'deliveryStatus': {
      if (operator !== '=' && operator !== '!=') return { ok: false, reason: 'operatorNotAllowed', hint: 'only = and != compare a delivery status' };
      const status = DELIVERY_STATUS_VALUES.get(squash(value));
      return status
        ? { ok: true, value: status }
        : { ok: false, reason: 'badValue', hint: `use ${DELIVERY_STATUS_WORDS.map(([word]) => word).join(', ')}` };
    }
  }
}

function parseTerm(raw: string, index: number): SearchTerm | TermError {
  const found = findOperator(raw);
  if (!found) {
    const value = unquote(raw);
    if (WILDCARDS.test(value)) {
      return { index, term: raw, reason: 'wildcard', message: `Search term ${index + 1} "${raw}": wildcards are not supported, enter each word separately` };
    }
    // A purchase order copied from an item as `order/item` searches its order number: the order's
    // text holds the number alone, so the slash form found nothing.
    return { index, raw, type: 'free', value: DIGITS_SLASH_ITEM.exec(value)?.[1] ?? value };
  }
  const fieldName = unquote(raw.slice(0, found.at));
  const value = unquote(raw.slice(found.at + found.operator.length));
  const field = findField(fieldName);
  if (!field) {
    return { index, term: raw, reason: 'unknownField', message: `Search term ${index + 1} "${raw}": unknown field "${fieldName}"` };
  }
  if (!value) {
    return { index, term: raw, reason: 'emptyValue', message: `Search term ${index + 1} "${raw}": the value is empty` };
  }
  // `po=4500*` is a wildcard, not a bad purchase order: said as such (an e-mail address may hold a
  // `%`, but one typed in a search is meant as a wildcard far more often than not).
  if (WILDCARDS.test(value)) {
    return { index, term: raw, reason: 'wildcard', message: `Search term ${index + 1} "${raw}": wildcards are not supported, compare the whole value` };
  }
  const checked = checkValue(field.kind, found.operator, value);
  if (!checked.ok) {
    const kind = checked.reason === 'badValue' ? { kind: field.kind } : {};
    return { index, term: raw, reason: checked.reason, ...kind, message: `Search term ${index + 1} "${raw}": ${checked.hint}` };
  }
  const stored = field.key === 'purchaseOrder' ? purchaseOrderNumber(checked.value) : checked.value;
  return { index, raw, type: 'field', field: field.key, operator: found.operator, value: stored };
}

/** `4500111273/00020`: a purchase order and its item, as an item shows it (`purchase_order`). */
const ORDER_SLASH_ITEM = /^([A-Za-z0-9]+)\/\d{1,6}$/;
/** The same as a free term: a document number of digits (not a code such as `MX18/2`). */
const DIGITS_SLASH_ITEM = /^(\d{6,})\/\d{1,6}$/;

/**
 * #19 item 26: an item shows its purchase order as `order/item`; a value copied from the screen
 * must find its order, so `po=4500111273/00020` searches the purchase order 4500111273 (all its
 * items in the order are listed: the search compares purchase orders, not their items).
 */
export function purchaseOrderNumber(value: string): string {
  return ORDER_SLASH_ITEM.exec(value)?.[1] ?? value;
}

/** What a term asks for: `po=1`, `PO=1` and `purchase_order=1` are one condition. */
const termKey = (term: SearchTerm) => (term.type === 'free' ? `\u0000${term.value}` : `${term.field}\u0000${term.operator}\u0000${term.value}`);

/**
 * §5: split, read each term, and report bad ones by index. Never throws. A term asking for what
 * an earlier one does is left out (the same condition twice is only more work for the server);
 * the first different term past MAX_SEARCH_TERMS is refused and nothing after it is read.
 */
export function parseSearch(text: unknown): ParsedSearch {
  const result: ParsedSearch = { terms: [], errors: [] };
  const seen = new Set<string>();
  for (const [index, raw] of splitTerms(text).entries()) {
    const parsed = parseTerm(raw, index);
    const key = 'reason' in parsed ? `\u0001${raw}` : parsed.type === 'free' && parsed.value === '' ? null : termKey(parsed);
    if (key === null) continue;
    const repeated = seen.has(key);
    if (!repeated && seen.size === MAX_SEARCH_TERMS) {
      result.errors.push({
        index,
        term: raw,
        reason: 'tooManyTerms',
        message: `Search term ${index + 1} "${raw}": a search holds at most ${MAX_SEARCH_TERMS} different terms, remove this one and those after it`,
      });
      break;
    }
    seen.add(key);
    // A bad term written twice is marked both times: each has to be corrected.
    if ('reason' in parsed) result.errors.push(parsed);
    else if (!repeated) result.terms.push(parsed);
  }
  return result;
}

/**
 * The text key of an error under `tracking.search.error.` (the form's, and through
 * serverErrors.searchTerm the server's 400): a bad value is worded by its field's kind.
 */
export function termErrorKey(error: TermError): string {
  return error.reason === 'badValue' && error.kind ? `badValue.${error.kind}` : error.reason;
}

/**
 * The parameters of an error's text (and of the server's 400 `params`, code `searchTerm`): the
 * term's number from 1, the term, its key, and what the key's text names besides (the most terms,
 * the delivery statuses as they are typed; the form adds their names in the user's language).
 */
export function termErrorParams(error: TermError): Record<string, string | number> {
  const key = termErrorKey(error);
  return {
    index: error.index + 1,
    term: error.term,
    reason: key,
    ...(key === 'tooManyTerms' ? { max: MAX_SEARCH_TERMS } : {}),
    ...(key === 'badValue.deliveryStatus' ? { statuses: DELIVERY_STATUS_WORDS.map(([word]) => word).join(', ') } : {}),
  };
}

/** The query parameters of parsed terms: `{ purchaseOrder_gte: ['4500100000'], text: ['door'] }`. */
export function toQueryParams(terms: readonly SearchTerm[]): Record<string, string[]> {
  const params: Record<string, string[]> = {};
  for (const term of terms) {
    const key = term.type === 'free' ? 'text' : `${term.field}${OPERATOR_SUFFIXES[term.operator]}`;
    (params[key] ??= []).push(term.value);
  }
  return params;
}

/** Quoted when it holds spaces or operator characters, so it reads back as the same term. */
const needsQuotes = (value: string) => /[\s"<>=!]/.test(value);

/** Writes a term back as search text; `parseSearch(formatTerm(t))` reads the same term again. */
export function formatTerm(term: SearchTerm): string {
  const value = needsQuotes(term.value) ? `"${term.value.replace(/"/g, '')}"` : term.value;
  return term.type === 'free' ? value : `${term.field}${term.operator}${value}`;
}

export function formatSearch(terms: readonly SearchTerm[]): string {
  return terms.map(formatTerm).join(' ');
}
