import { z } from './zod';
import { PAGE_SIZE } from '../domain/constants';
import { hasControlCharacter } from '../domain/text';
import { MAX_COUNTED_QUANTITY, QUANTITY_DECIMALS_MESSAGE, QUANTITY_MAX_MESSAGE, QUANTITY_MESSAGE, isValidCountedQuantity } from '../domain/quantity';

/** Every 4xx/5xx body: the browser shows `message` (stock calls show the whole body, §8). */
export const errorBody = z
  .object({
    message: z.string(),
    /** A refusal the browser words in the user's language (serverErrors.<code>, with `params`); `message` is the English. */
    code: z.optional(z.string()),
    params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
  })
  .register(z.globalRegistry, { id: 'Error' });
export type ErrorBody = z.infer<typeof errorBody>;

/** Query arrays arrive as repeated keys (§7): `?countries=FI&countries=DE`; one key is one value. */
export const repeated = <T extends z.core.$ZodType>(item: T) =>
  z.pipe(
    z.transform((value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
    z.array(item),
  );

/** A query boolean: "true" / "false" only (§5: myOrders must be boolean). */
export const queryBoolean = z.pipe(
  z.enum(['true', 'false']),
  z.transform((value: 'true' | 'false') => value === 'true'),
);

/**
 * Lists count at most this many rows per count (docs/decisions/0021): a count above it is answered
 * as LIST_COUNT_CAP and named in the envelope's `counts_capped` (a lower bound; the UI shows "1,000+").
 */
export const LIST_COUNT_CAP = 1000;

/** The envelope field naming the counts of a page that are lower bounds (they reached LIST_COUNT_CAP). */
export const countsCapped = <const T extends readonly [string, ...string[]]>(names: T) =>
  z.array(z.enum(names)).register(z.globalRegistry, {
    description: `Counts that reached ${LIST_COUNT_CAP} and are lower bounds ("at least ${LIST_COUNT_CAP}").`,
  });

/**
 * Keyset paging underneath page numbers (docs/decisions/0035): a list that answers `next_cursor`
 * takes it back as `after` and reads the rows after that one in list order, at the same cost at
 * any depth (a page number alone is read with OFFSET, linear in the depth). `page` is still sent
 * and still names the page in the envelope; a cursor is opaque and belongs to the list's order,
 * not to its search or tab.
 */
export const afterParam = z
  .optional(
    z
      .string({ error: 'after must be text' })
      .check(z.minLength(1, 'after must be the next_cursor of the page before'), z.maxLength(200, 'after must be the next_cursor of the page before')),
  )
  .register(z.globalRegistry, {
    description: "The `next_cursor` of the page before: this page's rows are those after it in list order (constant time at any depth). `page` still names the page.",
  });
export const nextCursor = z.optional(z.nullable(z.string())).register(z.globalRegistry, {
  description: 'Send as `after` (with page + 1) to read the next page at the same cost at any depth; null on the last page.',
});

export const pageEnvelope = {
  page: z.int().check(z.gte(0)),
  pages: z.int().check(z.gte(0)),
  has_next: z.boolean(),
  has_prev: z.boolean(),
};

/** `page` of a paged list (§7): a whole number from 1. */
export const pageParam = z._default(
  z.coerce.number({ message: 'page must be a number' }).check(z.int('page must be a whole number'), z.gte(1, 'page must be 1 or more')),
  1,
);

/**
 * §5 required list parameters (#19 item 13, docs/decisions/0024): a missing one is a 400 naming it
 * ("querystring.page: page is required"), never a silent default. Pages number from 1.
 */
const mustBeSent = (name: string, otherwise: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `${name} is required` : otherwise);

/** A required whole number from `min` (to `max`), sent as query text. */
const requiredWholeNumber = (name: string, min: number, max?: number) =>
  z.pipe(
    z.string({ error: mustBeSent(name, `${name} must be a number`) }),
    z.coerce
      .number<string>({ message: `${name} must be a number` })
      .check(
        z.int(`${name} must be a whole number`),
        z.gte(min, `${name} must be ${min} or more`),
        z.lte(max ?? Number.MAX_SAFE_INTEGER, `${name} must be ${max} or less`),
      ),
  );

/** `page` where §5 requires it: a whole number from 1 (decision 0024). */
export const requiredPageParam = requiredWholeNumber('page', 1);

/** `maxResults` where §5 requires it: a whole number from 1 to `max`. */
export const requiredMaxResultsParam = (max: number) => requiredWholeNumber('maxResults', 1, max);

/** A required enumerated parameter: missing says so, a wrong value lists the allowed ones. */
export const requiredEnum = <const T extends readonly [string, ...string[]]>(name: string, values: T, otherwise: string) =>
  z.enum(values, { error: mustBeSent(name, otherwise) });

/** `maxResults` of a paged list: a whole number from 1 to `max`, 20 by default (§9 page size). */
export const maxResultsParam = (max: number) =>
  z._default(
    z.coerce
      .number({ message: 'maxResults must be a number' })
      .check(z.int('maxResults must be a whole number'), z.gte(1, 'maxResults must be 1 or more'), z.lte(max, `maxResults must be ${max} or less`)),
    PAGE_SIZE,
  );

/**
 * A free-text search parameter: at most `max` characters, none of them a control character (the
 * database cannot store NUL; none can be typed into a search field).
 */
export const searchText = (max: number, isRequired = false) =>
  z
    .string(isRequired ? { error: (issue) => (issue.input === undefined ? 'query is required (query= for no search)' : 'query must be text') } : undefined)
    .check(
      z.maxLength(max, `query must be ${max} characters or less`),
      z.refine((value) => !hasControlCharacter(value), 'query must not contain control characters'),
    );

/**
 * isValidCountedQuantity's thousandths only (at most 3 decimals): its bounds are the checks beside
 * it, each with its own message. Counted quantities and transfer quantities alike.
 */
export const atMostThreeDecimals = () =>
  z.refine<number>((value) => value < 0 || value >= MAX_COUNTED_QUANTITY || isValidCountedQuantity(value), QUANTITY_DECIMALS_MESSAGE);

/**
 * A counted quantity (isValidCountedQuantity): at least 0, below MAX_COUNTED_QUANTITY, at most 3
 * decimals, each refusal saying which of the three it broke.
 */
export const countedQuantity = () =>
  z.number({ message: QUANTITY_MESSAGE }).check(z.gte(0, QUANTITY_MESSAGE), z.lt(MAX_COUNTED_QUANTITY, QUANTITY_MAX_MESSAGE), atMostThreeDecimals());
