/**
 * One error handler: 4xx carry { message } saying what is wrong; 5xx never leak internals.
 * zod validation failures name the field and the rule.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers, e.g. Retry-After on a 503. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A call the caller's roles do not allow; coded (decision 0055): the app words it in the reader's language. */
export const permissionDenied = (capability: string) =>
  new HttpError(403, `Permission denied: your roles do not allow ${capability}`, { code: 'permissionDenied', params: { capability } });

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).headers(error.headers).send({ message: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'request';
      const details = error.validation.map((issue) => {
        const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return path ? `${where}.${path}: ${issue.message}` : `${where}: ${issue.message}`;
      });
      return reply.status(400).send({ message: details.join('; ') });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its contract');
      return reply.status(500).send({ message: 'Internal server error' });
    }
    if (bodyCutShort(error, request)) {
      // The client went away mid-body (its code is ECONNRESET too): its doing, not an outage.
      request.log.info({ err: error }, 'the client stopped sending the request body');
      return reply.status(400).send({ message: BODY_CUT_SHORT });
    }
    const unavailable = stateIn(error, UNAVAILABLE_STATES);
    if (unavailable) {
      // The database is away (restarting, failing over, out of connections): an outage, not a
      // defect of this request. A 503 the phones wait out, where a 500 would, repeated, make
      // them set the change aside for the user (src/offline/sync.ts).
      request.log.error({ err: error }, 'the database is not reachable');
      return reply.status(503).header('retry-after', '5').send({ message: unavailable });
    }
    const busy = stateIn(error, BUSY_STATES);
    if (busy) {
      // The transaction was rolled back whole: the same request may simply be sent again (the
      // offline outbox does so by itself for any 5xx).
      request.log.warn({ err: error }, 'the database gave way to a concurrent change');
      return reply.status(503).header('retry-after', '1').send({ message: busy });
    }
    const conflict = stateIn(error, CONFLICT_STATES);
    if (conflict) {
      // A row the change names went away meanwhile (23503), or one with the same key came (23505),
      // past the route's own checks: the request met another change, it is not a defect. Nothing
      // was written; a 409 with a code the app words, not a 500 the outbox would retry as an outage.
      request.log.warn({ err: error }, 'the database refused a change that met another one');
      return reply.status(409).send(conflict);
    }
    const refused = stateIn(error, REFUSED_VALUES);
    if (refused) {
      request.log.info({ err: error }, 'the database refused a value of the request');
      return reply.status(400).send({ message: refused });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Internal server error' });
  });
}

/**
 * Values a request carried that the database cannot store or read, whatever the route: a 400
 * saying so, not a 500. Found by the SQLSTATE of the error or of its cause (Drizzle wraps the
 * driver's error); every route validates first, so this is the net under those checks.
 */
const REFUSED_VALUES: Record<string, string> = {
  '22021': 'Text must not contain NUL characters',
  '22P05': 'Text contains a character the database cannot store',
  '22007': 'A date or time is not valid',
  '22008': 'A date or time is out of range',
  '22003': 'A number is out of range',
};

/** Constraint violations a concurrent change causes past a route's own checks (see the handler). */
const CONFLICT_STATES: Record<string, { message: string; code: string }> = {
  '23503': { message: 'Something this change refers to was removed meanwhile; nothing was written. Look at it again as it is now.', code: 'referenceGoneMeanwhile' },
  '23505': { message: 'The same thing was saved by another change at the same moment; nothing was written. Look at it again as it is now.', code: 'keyTakenMeanwhile' },
};

/**
 * A transaction PostgreSQL ended because of a concurrent one (a deadlock, a serialization
 * failure): nothing was written, and sending the request again is the answer. A 503 with
 * Retry-After, not a 500: the request was fine, the moment was not.
 */
const BUSY = 'Another change to the same data was being saved at the same moment; nothing was written. Send it again.';
const BUSY_STATES: Record<string, string> = { '40P01': BUSY, '40001': BUSY };

/**
 * The database or the connection to it is away: SQLSTATE classes 08 and 57P, too many connections,
 * the socket's own codes (a request's own aborted body, with the same ECONNRESET, is told apart first).
 */
const AWAY = 'The database cannot be reached at the moment; nothing was written. Send it again in a moment.';
const UNAVAILABLE_STATES: Record<string, string> = Object.fromEntries(
  ['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].map((code) => [code, AWAY]),
);

/**
 * A client that stops sending its body (a closed tab, a phone off the network): Node destroys the
 * request's stream with an "aborted" error whose code is ECONNRESET, a code the database's socket
 * also fails with. Told apart by being that very error (a body parser rethrows it; a parser that
 * failed on its own, say on a full disk, leaves the stream destroyed with an AbortError of its
 * own, and its error stays a 500). Answered 400, if anyone still listens.
 */
const BODY_CUT_SHORT = 'The request ended before its body was complete (the connection was closed); nothing was written. Send it again.';
function bodyCutShort(error: unknown, request: FastifyRequest): boolean {
  return error instanceof Error && error === request.raw.errored;
}

/** The message for the SQLSTATE of a database error in `table`, or of its cause (Drizzle wraps the driver's error). */
function stateIn<T>(error: unknown, table: Record<string, T>): T | null {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code in table) return table[code]!;
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}
