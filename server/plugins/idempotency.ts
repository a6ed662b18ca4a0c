/**
 * Every mutating call is one transaction, and with an `Idempotency-Key` header it happens once:
 * the key is claimed inside the same transaction as the write, and the first response is stored
 * with it, so a repeat (the offline outbox retrying after a lost answer) gets that response back
 * byte for byte, and two concurrent repeats cannot both write (the second waits on the key's row
 * lock, then replays). The same key with a different request is a 422. An error rolls the claim
 * back with the write, so a retry after a 4xx/5xx runs again. Keys are kept 30 days (≥ 24 h): as
 * long as a change may wait on a phone whose answer was lost (signed out over a holiday, switched
 * off in a van), so its resend is still recognised and never applied a second time.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { HttpError } from './errors';
import { requireUser } from './auth';

export const IDEMPOTENCY_RETENTION_HOURS = 30 * 24;
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,200}$/;

export interface MutationResult {
  status?: number;
  body: unknown;
}

/** The request's Idempotency-Key (undefined without one); a 400 when it is malformed. */
export function assertIdempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? header : undefined;
  if (header !== undefined && (!key || !KEY_PATTERN.test(key))) {
    throw new HttpError(400, 'Idempotency-Key must be 8 to 200 letters, digits or . _ : -');
  }
  return key;
}

/**
 * What makes two requests the same: method, route, query and body. A route that declares no body
 * ignores one, so a body sent to it is no part of the request (and is never serialised: an
 * unchecked body nested thousands deep overflowed JSON.stringify's stack, a 500).
 */
function requestHash(request: FastifyRequest): string {
  const body = request.routeOptions.schema?.body ? (request.body ?? null) : null;
  const shape = { method: request.method, route: request.routeOptions.url, query: request.query ?? null, body };
  let text: string;
  try {
    text = JSON.stringify(shape);
  } catch {
    throw new HttpError(400, 'The request cannot be read: its body or query is nested too deeply');
  }
  return createHash('sha256').update(text).digest('hex');
}

export async function runMutation(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Tx) => Promise<MutationResult>,
): Promise<FastifyReply> {
  const user = requireUser(request);
  const key = assertIdempotencyKey(request);
  const hash = requestHash(request);
  const outcome = await db.transaction(async (tx) => {
    if (key) {
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ userId: user.id, key, method: request.method, path: request.url, requestHash: hash })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length === 0) {
        const previous = await storedAnswer(tx, request, key);
        if (!previous) throw new HttpError(422, 'This Idempotency-Key was already used for a different request');
        return previous;
      }
    }
    const result = await work(tx);
    const status = result.status ?? 200;
    const text = JSON.stringify(result.body);
    if (key) {
      await tx
        .update(idempotencyKeys)
        .set({ statusCode: status, responseBody: text, contentType: 'application/json; charset=utf-8' })
        .where(and(eq(idempotencyKeys.userId, user.id), eq(idempotencyKeys.key, key)));
    }
    return { replayed: false, status, text };
  });
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.status(outcome.status).type('application/json; charset=utf-8').send(outcome.text);
}

export async function purgeExpiredIdempotencyKeys(db: Db): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`));
}

type Stored = { replayed: true; status: number; text: string };

/**
 * The answer stored under the request's key, checked to be for this very request (422 otherwise;
 * 409 while the first is still being processed); undefined when the key is not stored.
 */
async function storedAnswer(db: Db | Tx, request: FastifyRequest, key: string): Promise<Stored | undefined> {
  const user = requireUser(request);
  const [previous] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, user.id), eq(idempotencyKeys.key, key)));
  if (!previous) return undefined;
  // The hash names the route's pattern (`/users/:uid/permissions`); the stored address tells
  // apart the rows it applies to (the same body for another user is another request).
  if (previous.requestHash !== requestHash(request) || previous.path !== request.url) {
    throw new HttpError(422, 'This Idempotency-Key was already used for a different request');
  }
  if (previous.statusCode === null || previous.responseBody === null) {
    throw new HttpError(409, 'A request with this Idempotency-Key is still being processed; try again shortly');
  }
  return { replayed: true, status: previous.statusCode, text: previous.responseBody };
}

/**
 * For a call whose work cannot be one transaction (it calls another system between two, e.g. the
 * ERP booking of a submission): the stored answer of a repeat is sent before any of the work runs
 * again, and the call's last transaction goes through `runMutation`, which stores the answer.
 * Returns true when it was a repeat (the answer is sent: the caller must stop), false otherwise.
 * Not the reply itself: a Fastify reply is a thenable, so an `await` of it resolves to undefined
 * and a caller testing it went on with the work after the stored answer was sent.
 */
export async function replayStored(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const key = assertIdempotencyKey(request);
  if (!key) return false;
  const stored = await storedAnswer(db, request, key);
  if (!stored) return false;
  reply.header('Idempotent-Replayed', 'true').status(stored.status).type('application/json; charset=utf-8').send(stored.text);
  return true;
}
