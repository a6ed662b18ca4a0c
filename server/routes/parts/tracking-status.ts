/**
 * §7 GET /parts/v1/users/me/tracking-status: one page of the caller's order rows with the tab
 * counts, and GET /parts/v1/users/me/tracking-status/{orderId}: one order with every item and its
 * carrier events (the order-details screen). The search text is read with the shared §5 parser;
 * a bad term is a 400 naming it. "My orders" (§6) is for mechanics, customer service admins and
 * supervisors; anyone else asking for it gets a 403 rather than a silently different list. Both
 * refusals carry a `code` the browser words in the user's language (decision 0055): a search
 * from an address (a shared link, an old history entry) reaches the server unread by the form.
 *
 * A list page is built by PostgreSQL on every call (docs/decisions/0021) and answered as its JSON
 * text with a strong ETag of its content (If-None-Match → 304), compressed as the client accepts.
 */
import type { FastifyReply } from 'fastify';
import { ResponseSerializationError, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { orderDetails, orderIdParams, trackingStatusQuery, trackingStatusResponse } from '../../../src/contract/parts';
import { can } from '../../../src/domain/permissions';
import { parseSearch, termErrorParams } from '../../../src/domain/search-language';
import { cachedBody, encodingOf, matchesIfNoneMatch, payloadOf } from '../../cache';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { BAD_CURSOR } from '../../repositories/paging';
import { findOrderDetails, listTrackingStatus, trackingCursor } from '../../repositories/tracking';

const tags = ['tracking'];

export const trackingStatusRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/users/me/tracking-status',
    {
      // Compressed here (payloadOf): the plugin would compress again (deflate) under the
      // identity ETag, and add a second Vary.
      compress: false,
      schema: {
        tags,
        summary: 'Order rows the caller may see, filtered by the §5 search language and the status tab, with the tab counts',
        querystring: trackingStatusQuery,
        description: 'Answers carry an ETag; a request whose If-None-Match holds the current one gets 304 Not Modified.',
        response: { 200: trackingStatusResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { query, page, status, myOrders, maxResults, after } = request.query;
      if (myOrders && !can(user.grants, 'tracking.myOrders')) {
        throw new HttpError(403, 'myOrders is only for mechanics, customer service admins and supervisors', { code: 'myOrdersNotAllowed' });
      }
      const search = parseSearch(query);
      if (search.errors.length > 0) {
        // The English names every bad term; the coded text (serverErrors.searchTerm, the form's
        // own text for the reason) the first one, as the form would mark it.
        throw new HttpError(400, search.errors.map((error) => error.message).join('; '), { code: 'searchTerm', params: termErrorParams(search.errors[0]!) });
      }
      const cursor = after === undefined ? undefined : trackingCursor(after);
      if (cursor === null) throw new HttpError(400, BAD_CURSOR);
      const built = await listTrackingStatus(db, user, { terms: search.terms, status, myOrders, page, maxResults, after: cursor });
      // What the route's serializer (fastify-type-provider-zod) writes, done here for the ETag.
      const checked = trackingStatusResponse.safeParse(built);
      if (!checked.success) throw new ResponseSerializationError(request.method, request.url, { cause: checked.error });
      const answer = cachedBody(JSON.stringify(checked.data));
      // The browser may keep the page for this user only and must ask again every time (it then
      // gets a 304 when nothing changed); the app's offline mirror is unaffected (src/offline).
      const sent = encodingOf(answer, request.headers['accept-encoding']);
      const vary = reply.getHeader('vary');
      reply.header('etag', sent.etag).header('cache-control', 'private, no-cache').header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
      // 304 is not in the response schema (it has no body): sent past the typed reply.
      if (matchesIfNoneMatch(request.headers['if-none-match'], sent.etag)) return (reply as FastifyReply).code(304).send();
      // Already compressed (kept with the cached page): the compression plugin leaves it as it is.
      if (sent.encoding) reply.header('content-encoding', sent.encoding);
      return reply.type('application/json; charset=utf-8').send(payloadOf(answer, sent.encoding) as never);
    },
  );

  app.get(
    '/users/me/tracking-status/:orderId',
    {
      schema: {
        tags,
        summary: 'One order the caller may see, with every item and its carrier events',
        params: orderIdParams,
        response: { 200: orderDetails, 400: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      // The order, its items and their carrier events from one snapshot: an ERP file applied
      // between the reads would show a status from before it beside a timeline from after it.
      const details = await db.transaction((tx) => findOrderDetails(tx, user, request.params.orderId), { isolationLevel: 'repeatable read', accessMode: 'read only' });
      if (!details) throw new HttpError(404, `Service Order not found: ${request.params.orderId}`);
      return details;
    },
  );
};
