/** User service (§7 /user_api/v1): access-point priorities per ship-to-party and their CSV uploads. */
import { z } from './zod';
import { PRIORITY_SUGGESTIONS_MAX } from '../domain/constants';
import { DISABLE_ACTIONS, PRIORITY_UPLOAD_KINDS } from '../domain/priority';
import { queryBoolean, repeated } from './common';

const maxResults = z._default(
  z.coerce
    .number({ message: 'maxResults must be a number' })
    .check(
      z.int('maxResults must be a whole number'),
      z.gte(1, 'maxResults must be 1 or more'),
      z.lte(PRIORITY_SUGGESTIONS_MAX, `maxResults must be ${PRIORITY_SUGGESTIONS_MAX} or less`),
    ),
  PRIORITY_SUGGESTIONS_MAX,
);

const countryCode = z.string().check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z]{2}$/, 'countries must be two-letter country codes'));

/** The longest search text of the priority list; the search box takes no more. */
export const PRIORITY_QUERY_MAX_LENGTH = 100;

export const prioritiesQuery = z.object({
  query: z.optional(z.string().check(z.trim(), z.maxLength(PRIORITY_QUERY_MAX_LENGTH, `query must be ${PRIORITY_QUERY_MAX_LENGTH} characters or less`))),
  countries: repeated(countryCode),
  maxResults,
});
export type PrioritiesQuery = z.input<typeof prioritiesQuery>;

export const uapInfo = z
  .object({
    accessPointId: z.string(),
    name: z.string(),
    address: z.string(),
    postalCode: z.string(),
    city: z.string(),
    country: z.string(),
    priority: z.int(),
    isEnabled: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'UapInfo' });
export type UapInfo = z.infer<typeof uapInfo>;

/** §3 priority entry; the ship-to-party's name and address are ours, for people reading the list. */
export const priorityEntry = z
  .object({
    shipToPartyCode: z.string(),
    shipToPartyName: z.string(),
    shipToPartyAddress: z.string(),
    uapinfos: z.array(uapInfo),
    writableByYou: z
      .optional(z.boolean())
      .register(z.globalRegistry, {
        description:
          'Whether the caller may change this number’s priorities now (its write scope, read per request). Absent from services that do not send it: the app then decides from the profile.',
      }),
  })
  .register(z.globalRegistry, { id: 'PriorityEntry' });
export type PriorityEntry = z.infer<typeof priorityEntry>;

export const prioritiesResponse = z
  .object({
    items: z.array(priorityEntry),
    has_more: z.optional(z.boolean()).register(z.globalRegistry, { description: 'More ship-to-parties match than maxResults: search or filter by country to reach them.' }),
  })
  .register(z.globalRegistry, { id: 'Priorities' });
export type PrioritiesResponse = z.infer<typeof prioritiesResponse>;

export const countrySuggestionsQuery = z.object({
  query: z.optional(z.string().check(z.trim(), z.maxLength(100, 'query must be 100 characters or less'))),
  maxResults,
});
export const countrySuggestionsResponse = z.object({ items: z.array(z.string()) }).register(z.globalRegistry, { id: 'CountrySuggestions' });

export const uapIdsResponse = z.object({ uap_ids: z.array(z.string()) }).register(z.globalRegistry, { id: 'UapIds' });
export const shipToPartyCodesResponse = z.object({ ship_to_party_codes: z.array(z.string()) }).register(z.globalRegistry, { id: 'ShipToPartyCodes' });
export type ShipToPartyCodesResponse = z.infer<typeof shipToPartyCodesResponse>;

/** DELETE /ship_to_party_codes/{code}: a number as the priority screens write it. */
export const shipToPartyCodeParams = z.object({ code: z.string().check(z.regex(/^[A-Za-z0-9_.-]{1,40}$/, 'code must be 1 to 40 letters, digits or . _ -')) });

// ───────────── CSV uploads ─────────────

export const uploadQuery = z.object({
  /** true: check the file and answer what would change, write nothing. */
  dryRun: z._default(queryBoolean, false),
});

/** The file itself, sent as text/csv (UTF-8). */
export const csvBody = z.string().register(z.globalRegistry, { description: 'The CSV file, UTF-8, ; or , separated, with a header line' });

/** Row errors the browser words in the user's language (priority.upload.error.<code>, with `params`). */
export const UPLOAD_ERROR_CODES = [
  'priorityTaken',
  'required',
  'formula',
  'invalidValue',
  'extraCells',
  'priorityRange',
  'actionInvalid',
  'shipToPartyTwice',
  'accessPointTwice',
  'unknownShipToParty',
  'tooManyShipToParty',
  'notYours',
  'shipToPartyOtherPlant',
  'unknownAccessPoint',
  'noPriority',
  'missingColumn',
  'notUtf8',
  'noRows',
] as const;
export type UploadErrorCode = (typeof UPLOAD_ERROR_CODES)[number];
export type UploadErrorParams = Record<string, string | number>;

/**
 * The delimiter a priority file was read with, as extraCells' `delimiter` param: a name the browser
 * words in the user's language (priority.upload.delimiter.<name>), not English text.
 */
export const CSV_DELIMITER_NAMES = ['semicolon', 'comma', 'tab', 'pipe'] as const;
export type CsvDelimiterName = (typeof CSV_DELIMITER_NAMES)[number];

export const uploadLineError = z
  .object({
    /** 1-based line of the file where the row starts. */
    line: z.int(),
    column: z.nullable(z.string()),
    value: z.nullable(z.string()),
    message: z.string(),
    /** A known error the browser words in the user's language (`message` stays the English fallback). */
    code: z.optional(z.enum(UPLOAD_ERROR_CODES)),
    params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
  })
  .register(z.globalRegistry, { id: 'UploadLineError' });
export type UploadLineError = z.infer<typeof uploadLineError>;

export const UPLOAD_CHANGES = ['insert', 'update', 'disable', 'delete', 'add', 'unchanged'] as const;

export const uploadRow = z
  .object({
    line: z.int(),
    shipToPartyCode: z.string(),
    accessPointId: z.nullable(z.string()),
    priority: z.nullable(z.int()),
    action: z.nullable(z.enum(DISABLE_ACTIONS)),
    /** What applying does to this row; null when the row has an error. */
    change: z.nullable(z.enum(UPLOAD_CHANGES)),
    /** Priority uploads: the access point's priority as stored now (null: none), so the preview shows old → new. */
    before: z.optional(z.nullable(z.object({ priority: z.int(), isEnabled: z.boolean() }))),
  })
  .register(z.globalRegistry, { id: 'UploadRow' });
export type UploadRow = z.infer<typeof uploadRow>;

export const uploadResult = z
  .object({
    kind: z.enum(PRIORITY_UPLOAD_KINDS),
    dryRun: z.boolean(),
    rowCount: z.int(),
    /** Rows that change (dry run: would change). */
    changed: z.int(),
    unchanged: z.int(),
    rows: z.array(uploadRow),
    errors: z.array(uploadLineError),
    /** Ship-to-party uploads: the numbers added and how many the user holds against the maximum. */
    shipToParty: z.nullable(z.object({ added: z.array(z.string()), count: z.int(), maximum: z.int() })),
  })
  .register(z.globalRegistry, { id: 'UploadResult' });
export type UploadResult = z.infer<typeof uploadResult>;

/** 422: the file was refused (not UTF-8, header, too many rows) or rows have errors; nothing changed. */
export const uploadRefusal = z
  .object({ message: z.string(), errors: z.array(uploadLineError) })
  .register(z.globalRegistry, { id: 'UploadRefusal' });
export type UploadRefusal = z.infer<typeof uploadRefusal>;

/**
 * A code of the body, as the feedback forms' code fields (contract/feedback.ts): up to 40 letters,
 * digits and / . _ -. Unbounded, a code of megabytes was stored nowhere but echoed whole in the 404.
 */
const bodyCode = (field: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { message: `Field ${field} is required`, abort: true }),
      z.maxLength(40, { message: `Field ${field} must be 40 characters or less`, abort: true }),
      z.regex(/^[A-Za-z0-9/._-]+$/, `Field ${field} may hold letters, digits and / . _ - only`),
    );

/** PM_write changes one access point's priority (or turns it on or off) for a ship-to-party number. */
export const updatePriorityBody = z
  .object({
    shipToPartyCode: bodyCode('shipToPartyCode'),
    accessPointId: bodyCode('accessPointId'),
    priority: z
      .number()
      .check(z.int('priority must be a whole number'), z.gte(1, 'priority must be between 1 and 99'), z.lte(99, 'priority must be between 1 and 99')),
    isEnabled: z.optional(z.boolean()),
    /**
     * What the editor was opened with (decision 0065, act on what was shown): a stored priority or
     * state other than these is a 409 (code priorityChangedMeanwhile) instead of someone else's
     * change overwritten unseen. Optional: other API clients work as before.
     */
    expectedPriority: z.optional(z.number().check(z.int('expectedPriority must be a whole number'))),
    expectedIsEnabled: z.optional(z.boolean()),
  })
  .register(z.globalRegistry, { id: 'UpdatePriority' });
export type UpdatePriorityBody = z.infer<typeof updatePriorityBody>;
