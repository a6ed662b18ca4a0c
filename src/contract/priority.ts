/** User service (§7 /user_api/v1): access-point priorities per ship-to-party and their CSV uploads. */
import { z } from 'zod';
import { PRIORITY_SUGGESTIONS_MAX } from '../domain/constants';
import { DISABLE_ACTIONS, PRIORITY_UPLOAD_KINDS } from '../domain/priority';
import { queryBoolean, repeated } from './common';

const maxResults = z.coerce
  .number({ message: 'maxResults must be a number' })
  .int('maxResults must be a whole number')
  .min(1, 'maxResults must be 1 or more')
  .max(PRIORITY_SUGGESTIONS_MAX, `maxResults must be ${PRIORITY_SUGGESTIONS_MAX} or less`)
  .default(PRIORITY_SUGGESTIONS_MAX);

const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'countries must be two-letter country codes');

export const prioritiesQuery = z.object({
  query: z.string().trim().max(100, 'query must be 100 characters or less').optional(),
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
    priority: z.number().int(),
    isEnabled: z.boolean(),
  })
  .meta({ id: 'UapInfo' });
export type UapInfo = z.infer<typeof uapInfo>;

/** §3 priority entry; the ship-to-party's name and address are ours, for people reading the list. */
export const priorityEntry = z
  .object({
    shipToPartyCode: z.string(),
    shipToPartyName: z.string(),
    shipToPartyAddress: z.string(),
    uapinfos: z.array(uapInfo),
  })
  .meta({ id: 'PriorityEntry' });
export type PriorityEntry = z.infer<typeof priorityEntry>;

export const prioritiesResponse = z.object({ items: z.array(priorityEntry) }).meta({ id: 'Priorities' });
export type PrioritiesResponse = z.infer<typeof prioritiesResponse>;

export const countrySuggestionsQuery = z.object({
  query: z.string().trim().max(100, 'query must be 100 characters or less').optional(),
  maxResults,
});
export const countrySuggestionsResponse = z.object({ items: z.array(z.string()) }).meta({ id: 'CountrySuggestions' });

export const uapIdsResponse = z.object({ uap_ids: z.array(z.string()) }).meta({ id: 'UapIds' });
export const shipToPartyCodesResponse = z.object({ ship_to_party_codes: z.array(z.string()) }).meta({ id: 'ShipToPartyCodes' });
export type ShipToPartyCodesResponse = z.infer<typeof shipToPartyCodesResponse>;

// ───────────── CSV uploads ─────────────

export const uploadQuery = z.object({
  /** true: check the file and answer what would change, write nothing. */
  dryRun: queryBoolean.default(false),
});

/** The file itself, sent as text/csv (UTF-8). */
export const csvBody = z.string().meta({ description: 'The CSV file, UTF-8, ; or , separated, with a header line' });

export const uploadLineError = z
  .object({
    /** 1-based line of the file where the row starts. */
    line: z.number().int(),
    column: z.string().nullable(),
    value: z.string().nullable(),
    message: z.string(),
    /** A known error the browser words in the user's language (`message` stays the English fallback). */
    code: z.enum(['priorityTaken']).optional(),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  })
  .meta({ id: 'UploadLineError' });
export type UploadLineError = z.infer<typeof uploadLineError>;

export const UPLOAD_CHANGES = ['insert', 'update', 'disable', 'delete', 'add', 'unchanged'] as const;

export const uploadRow = z
  .object({
    line: z.number().int(),
    shipToPartyCode: z.string(),
    accessPointId: z.string().nullable(),
    priority: z.number().int().nullable(),
    action: z.enum(DISABLE_ACTIONS).nullable(),
    /** What applying does to this row; null when the row has an error. */
    change: z.enum(UPLOAD_CHANGES).nullable(),
  })
  .meta({ id: 'UploadRow' });
export type UploadRow = z.infer<typeof uploadRow>;

export const uploadResult = z
  .object({
    kind: z.enum(PRIORITY_UPLOAD_KINDS),
    dryRun: z.boolean(),
    rowCount: z.number().int(),
    /** Rows that change (dry run: would change). */
    changed: z.number().int(),
    unchanged: z.number().int(),
    rows: z.array(uploadRow),
    errors: z.array(uploadLineError),
    /** Ship-to-party uploads: the numbers added and how many the user holds against the maximum. */
    shipToParty: z
      .object({ added: z.array(z.string()), count: z.number().int(), maximum: z.number().int() })
      .nullable(),
  })
  .meta({ id: 'UploadResult' });
export type UploadResult = z.infer<typeof uploadResult>;

/** 422: the file was refused (not UTF-8, header, too many rows) or rows have errors; nothing changed. */
export const uploadRefusal = z
  .object({ message: z.string(), errors: z.array(uploadLineError) })
  .meta({ id: 'UploadRefusal' });
export type UploadRefusal = z.infer<typeof uploadRefusal>;

/** PM_write changes one access point's priority (or turns it on or off) for a ship-to-party number. */
export const updatePriorityBody = z
  .object({
    shipToPartyCode: z.string().trim().min(1, 'Field shipToPartyCode is required'),
    accessPointId: z.string().trim().min(1, 'Field accessPointId is required'),
    priority: z.number().int('priority must be a whole number').min(1, 'priority must be between 1 and 99').max(99, 'priority must be between 1 and 99'),
    isEnabled: z.boolean().optional(),
  })
  .meta({ id: 'UpdatePriority' });
export type UpdatePriorityBody = z.infer<typeof updatePriorityBody>;
