/**
 * §7 PUT / DELETE /parts/v1/users/important-message: super managers set or clear the broadcast
 * messages every profile carries in `importantMessages` (§2 alert). One transaction each, through
 * runMutation (Idempotency-Key honoured), with an audit-log entry of before and after. A save
 * that names the list it started from (`expected`) is refused (409 importantMessagesChangedMeanwhile)
 * when another list was stored since: the screen keeps the typed text and shows the list as it is.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, sql } from 'drizzle-orm';
import { errorBody } from '../../../src/contract/common';
import { sameTexts } from '../../../src/domain/text';
import { importantMessagesBody, importantMessagesResponse } from '../../../src/contract/parts';
import type { Db, Tx } from '../../db/client';
import { auditLog, importantMessages } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';

const tags = ['important messages'];


/** `expected`: the list the caller's edit started from; undefined replaces whatever is stored. */
async function replaceMessages(tx: Tx, actor: { id: string; email: string }, next: string[], expected?: string[]) {
  // Writers take turns (as decision 0060's priority writers): without it, two saves at once on
  // PostgreSQL each deleted only the rows they saw and left both lists (positions doubled), and a
  // clear racing a save answered [] while messages stayed.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('important_messages'))`);
  const before = (await tx.select({ text: importantMessages.text }).from(importantMessages).orderBy(asc(importantMessages.position))).map((row) => row.text);
  // Compared under the lock: the turns alone only ordered two saves, the second still undid the first unseen.
  if (expected !== undefined && !sameTexts(expected, before)) {
    throw new HttpError(
      409,
      'Someone else changed the important messages after you opened them: nothing was sent. Look at the messages as they are now, add yours to them, then send again',
      { code: 'importantMessagesChangedMeanwhile' },
    );
  }
  await tx.delete(importantMessages);
  if (next.length > 0) {
    await tx.insert(importantMessages).values(next.map((text, index) => ({ position: index + 1, text, createdBy: actor.email })));
  }
  await tx.insert(auditLog).values({
    actorUserId: actor.id,
    actorEmail: actor.email,
    action: next.length > 0 ? 'importantMessages.set' : 'importantMessages.clear',
    targetType: 'important_messages',
    targetId: 'all',
    before,
    after: next,
  });
  return { body: { important_messages: next } };
}

export const importantMessageRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.put(
    '/users/important-message',
    {
      config: { capability: 'importantMessages.write' },
      schema: {
        tags,
        summary: 'Replace the important messages shown to every user',
        body: importantMessagesBody,
        response: { 200: importantMessagesResponse, 400: errorBody, 403: errorBody, 409: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Empty lines are dropped: the alert hides an empty message anyway (§2).
      const messages = request.body.important_messages.filter((message) => message !== '');
      // Stored lists hold no empty message either: an empty line in `expected` is not a difference.
      const expected = request.body.expected?.filter((message) => message !== '');
      return runMutation(db, request, reply, (tx) => replaceMessages(tx, user, messages, expected));
    },
  );

  app.delete(
    '/users/important-message',
    {
      config: { capability: 'importantMessages.write' },
      schema: {
        tags,
        summary: 'Clear the important messages',
        response: { 200: importantMessagesResponse, 403: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => runMutation(db, request, reply, (tx) => replaceMessages(tx, requireUser(request), [])),
  );
};
