/**
 * Text a request carries must be well-formed Unicode (#20). JSON can spell a lone UTF-16
 * surrogate (`"\ud800"`): JavaScript keeps it in the string, but PostgreSQL cannot store it in
 * jsonb, so the write failed with a 500 after validation had passed. One hook, before every route's
 * own validation, refuses such a string (or object key) with a 400 naming the field, in the form
 * the zod errors use (`body.openFeedback: …`). Surrogate pairs (emoji) are ordinary text.
 *
 * Query strings and path parameters are decoded from UTF-8 bytes, which cannot yield a lone
 * surrogate (ill-formed bytes become U+FFFD); they are checked all the same, as cheap insurance.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** With the `u` flag a class of surrogates matches only unpaired ones: a pair is one code point. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/**
 * The path (`body.items.2.text`) of the first string or key in `value` holding a lone surrogate, or
 * null. Iterative: a parsed body may nest deeper than the call stack.
 */
export function findLoneSurrogate(value: unknown, root: string): string | null {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: root }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (hasLoneSurrogate(current)) return path;
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) pending.push({ value: current[index], path: `${path}.${index}` });
    } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current)) {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        // JSON.stringify escapes the lone surrogate, so the message itself stays well-formed.
        if (hasLoneSurrogate(key)) return `${path} (the key ${JSON.stringify(key)})`;
      }
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!;
        pending.push({ value: child, path: `${path}.${key}` });
      }
    }
  }
  return null;
}

/** Registers the check for every route of `app` (call before the routes are registered). */
export function refuseLoneSurrogates(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const parts = [
      ['body', request.body],
      ['querystring', request.query],
      ['params', request.params],
    ] as const;
    for (const [where, value] of parts) {
      const path = findLoneSurrogate(value, where);
      if (path) {
        throw new HttpError(400, `${path}: text must not contain a lone UTF-16 surrogate (an unpaired \\uD800–\\uDFFF escape); send well-formed Unicode text`);
      }
    }
  });
}
