import { z } from 'zod';
import { PAGE_SIZE } from '../domain/constants';
import { hasControlCharacter } from '../domain/text';

/** Every 4xx/5xx body: the browser shows `message` (stock calls show the whole body, §8). */
export const errorBody = z.object({ message: z.string() }).meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBody>;

/** Query arrays arrive as repeated keys (§7): `?countries=FI&countries=DE`; one key is one value. */
export const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item));

/** A query boolean: "true" / "false" only (§5: myOrders must be boolean). */
export const queryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

export const pageEnvelope = {
  page: z.number().int().min(0),
  pages: z.number().int().min(0),
  has_next: z.boolean(),
  has_prev: z.boolean(),
};

/** `page` of a paged list (§7): a whole number from 1. */
export const pageParam = z.coerce
  .number({ message: 'page must be a number' })
  .int('page must be a whole number')
  .min(1, 'page must be 1 or more')
  .default(1);

/** `maxResults` of a paged list: a whole number from 1 to `max`, 20 by default (§9 page size). */
export const maxResultsParam = (max: number) =>
  z.coerce
    .number({ message: 'maxResults must be a number' })
    .int('maxResults must be a whole number')
    .min(1, 'maxResults must be 1 or more')
    .max(max, `maxResults must be ${max} or less`)
    .default(PAGE_SIZE);

/**
 * A free-text search parameter: at most `max` characters, none of them a control character (the
 * database cannot store NUL; none can be typed into a search field).
 */
export const searchText = (max: number) =>
  z
    .string()
    .max(max, `query must be ${max} characters or less`)
    .refine((value) => !hasControlCharacter(value), 'query must not contain control characters');
