/**
 * One error handler: 4xx carry { message } saying what is wrong; 5xx never leak internals.
 * zod validation failures name the field and the rule.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.extra });
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
    const refused = refusedValue(error);
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

function refusedValue(error: unknown): string | null {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code in REFUSED_VALUES) return REFUSED_VALUES[code]!;
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}
