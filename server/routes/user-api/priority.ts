/**
 * §7 priority manager calls of the user service, and the three CSV uploads the spec names but
 * does not place (add/update priorities, disable/delete priorities, ship-to-party numbers).
 * Uploads take the raw file as text/csv (other types: 415; over the size limit: 413). With
 * `?dryRun=true` they answer the parsed rows and every error with its line, writing nothing;
 * without it they apply the whole file in one transaction or, if any row fails, nothing (422).
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { errorBody } from '../../../src/contract/common';
import {
  countrySuggestionsQuery,
  countrySuggestionsResponse,
  csvBody,
  prioritiesQuery,
  prioritiesResponse,
  shipToPartyCodeParams,
  shipToPartyCodesResponse,
  uapIdsResponse,
  uploadQuery,
  uploadRefusal,
  uploadResult,
} from '../../../src/contract/priority';
import type { Capability } from '../../../src/domain/permissions';
import type { PriorityUploadKind } from '../../../src/domain/priority';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { and, eq, inArray } from 'drizzle-orm';
import { isSuperManager } from '../../../src/domain/permissions';
import { auditLog, userAttachments } from '../../db/schema';
import { accessPointIds, countrySuggestions, HELD_SHIP_TO_PARTY_KINDS, listPriorities, storedHeldShipToPartyCodes, visibleShipToPartyCodes } from '../../repositories/priority';
import { CsvRefusal, parsePriorityCsv } from '../../priority/csv';
import { checkRows } from '../../priority/rows';
import { applyPlan, planUpload, toUploadResult } from '../../priority/upload';
import { readCsvBody, requireCsvContentType } from '../../priority/csv-body';

const tags = ['priority manager'];

/**
 * The 422 of an upload: the refusal with its lines and the code the browser words it with. The
 * serializer writes what the schema parsed, so without code and params here they were dropped.
 */
const codedUploadRefusal = z.extend(uploadRefusal, { code: errorBody.shape.code, params: errorBody.shape.params });

const UPLOADS: { path: string; kind: PriorityUploadKind; capability: Capability; summary: string }[] = [
  { path: '/uap_priority/uploads/add', kind: 'add', capability: 'priority.uploadAdd', summary: 'CSV upload: add or update access-point priorities (columns shipToPartyCode, accessPointId, priority)' },
  { path: '/uap_priority/uploads/disable', kind: 'disable', capability: 'priority.uploadDisable', summary: 'CSV upload: disable or delete access-point priorities (columns shipToPartyCode, accessPointId, optional action disable|delete)' },
  { path: '/ship_to_party_codes/uploads', kind: 'shipToParty', capability: 'priority.write', summary: 'CSV upload: add ship-to-party numbers to the caller (column shipToPartyCode)' },
];

export const priorityRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Scoped to this plugin: only the upload calls read text/csv bodies.
  app.addContentTypeParser('text/csv', (_request: FastifyRequest, payload: IncomingMessage) => readCsvBody(payload));

  app.get(
    '/tracking/uap/priorities',
    {
      config: { capability: 'priority.read' },
      schema: {
        tags,
        summary: 'Access points per ship-to-party number of the caller, priority 1 first',
        querystring: prioritiesQuery,
        response: { 200: prioritiesResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      const { items, hasMore } = await listPriorities(db, requireUser(request), request.query);
      return { items, ...(hasMore ? { has_more: true } : {}) };
    },
  );

  app.get(
    '/tracking/uap/suggestions/countries',
    {
      config: { capability: 'priority.read' },
      schema: {
        tags,
        summary: 'Country codes of the caller’s access points starting with query',
        querystring: countrySuggestionsQuery,
        response: { 200: countrySuggestionsResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => ({ items: await countrySuggestions(db, requireUser(request), request.query) }),
  );

  app.get(
    '/uap_priority',
    {
      config: { capability: 'priority.read' },
      schema: { tags, summary: 'Every access point id a priority may name', response: { 200: uapIdsResponse, 403: errorBody } },
    },
    async () => ({ uap_ids: await accessPointIds(db) }),
  );

  app.get(
    '/ship_to_party_codes',
    {
      config: { capability: 'priority.read' },
      schema: {
        tags,
        summary: 'The ship-to-party numbers the caller holds (super managers: all)',
        response: { 200: shipToPartyCodesResponse, 403: errorBody },
      },
    },
    async (request) => ({ ship_to_party_codes: await visibleShipToPartyCodes(db, requireUser(request)) }),
  );

  app.delete(
    '/ship_to_party_codes/:code',
    {
      config: { capability: 'priority.write' },
      schema: {
        tags,
        summary: 'Remove a ship-to-party number the caller added by upload; answers the numbers the caller holds then',
        params: shipToPartyCodeParams,
        response: { 200: shipToPartyCodesResponse, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { code } = request.params;
      return runMutation(db, request, reply, async (tx) => {
        const held = await tx
          .select({ kind: userAttachments.kind })
          .from(userAttachments)
          .where(and(eq(userAttachments.userId, user.id), eq(userAttachments.code, code), inArray(userAttachments.kind, [...HELD_SHIP_TO_PARTY_KINDS])));
        if (held.length === 0) throw new HttpError(404, `Ship-to-party number ${code} is not one of yours`, { code: 'shipToPartyNotHeld', params: { shipToPartyCode: code } });
        // A number a manager gave is the manager's to take back (the user's permissions); one the
        // user added by upload is theirs to remove.
        if (!held.some((row) => row.kind === 'managed_ship_to_party')) {
          throw new HttpError(409, `Ship-to-party number ${code} was given to you by a manager: ask a manager to remove it`, { code: 'shipToPartyGiven', params: { shipToPartyCode: code } });
        }
        // Removed by this call, or by another at the same moment (a second tab, a double tap with
        // its own key): only the call that removed it answers so and writes the history.
        const removed = await tx
          .delete(userAttachments)
          .where(and(eq(userAttachments.userId, user.id), eq(userAttachments.code, code), eq(userAttachments.kind, 'managed_ship_to_party')))
          .returning({ code: userAttachments.code });
        if (removed.length === 0) throw new HttpError(404, `Ship-to-party number ${code} is not one of yours`, { code: 'shipToPartyNotHeld', params: { shipToPartyCode: code } });
        // In the user's history (the audit log of target user, their id), as the upload that added
        // it (server/priority/upload.ts: after { managedShipToPartyNumber }).
        await tx.insert(auditLog).values({
          actorUserId: user.id,
          actorEmail: user.email,
          action: 'shipToParty.remove',
          targetType: 'user',
          targetId: user.id,
          before: { managedShipToPartyNumber: code },
          after: null,
        });
        const remaining = isSuperManager(user.grants) ? await visibleShipToPartyCodes(tx, user) : [...(await storedHeldShipToPartyCodes(tx, user.id))].sort();
        return { body: { ship_to_party_codes: remaining } };
      });
    },
  );

  for (const upload of UPLOADS) {
    app.post(
      upload.path,
      {
        config: { capability: upload.capability },
        onRequest: requireCsvContentType,
        schema: {
          tags,
          summary: upload.summary,
          consumes: ['text/csv'],
          querystring: uploadQuery,
          body: csvBody,
          response: {
            200: uploadResult,
            400: errorBody,
            403: errorBody,
            413: errorBody,
            415: errorBody,
            422: z.union([codedUploadRefusal, errorBody]),
          },
        },
      },
      (request, reply) => handleUpload(db, upload.kind, request, reply, request.query.dryRun, request.body),
    );
  }
};

async function handleUpload(
  db: Db,
  kind: PriorityUploadKind,
  request: FastifyRequest,
  reply: FastifyReply,
  dryRun: boolean,
  body: string,
) {
  const user = requireUser(request);
  let checked: ReturnType<typeof checkRows>;
  try {
    checked = checkRows(parsePriorityCsv(body, kind), kind);
  } catch (error) {
    if (error instanceof CsvRefusal) throw new HttpError(422, error.message, error.body);
    throw error;
  }
  if (dryRun) {
    const plan = await planUpload(db, user, kind, checked, false);
    return reply.send(toUploadResult(plan, true));
  }
  return runMutation(db, request, reply, async (tx) => {
    const plan = await planUpload(tx, user, kind, checked, true);
    if (plan.errors.length > 0) {
      const failing = new Set(plan.errors.map((error) => error.line)).size;
      throw new HttpError(
        422,
        `${failing} row${failing > 1 ? 's have' : ' has'} errors; nothing was changed. Correct ${failing > 1 ? 'them' : 'it'} and upload the file again.`,
        // count: the plural forms of serverErrors.uploadRowsHaveErrors in each language.
        { code: 'uploadRowsHaveErrors', params: { count: failing }, errors: plan.errors },
      );
    }
    await applyPlan(tx, user, plan);
    return { body: toUploadResult(plan, false) };
  });
}
