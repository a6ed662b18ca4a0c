/**
 * §7 GET /parts/v1/users/me/tracking-status: one page of the caller's order rows with the tab
 * counts, and GET /parts/v1/users/me/tracking-status/{orderId}: one order with every item and its
 * carrier events (the order-details screen). The search text is read with the shared §5 parser;
 * a bad term is a 400 naming it. "My orders" (§6) is for mechanics, customer service admins and
 * supervisors; anyone else asking for it gets a 403 rather than a silently different list.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { orderDetails, orderIdParams, trackingStatusQuery, trackingStatusResponse } from '../../../src/contract/parts';
import { can } from '../../../src/domain/permissions';
import { parseSearch } from '../../../src/domain/search-language';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { findOrderDetails, listTrackingStatus } from '../../repositories/tracking';

const tags = ['tracking'];

export const trackingStatusRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/users/me/tracking-status',
    {
      schema: {
        tags,
        summary: 'Order rows the caller may see, filtered by the §5 search language and the status tab, with the tab counts',
        querystring: trackingStatusQuery,
        response: { 200: trackingStatusResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { query, page, status, myOrders, maxResults } = request.query;
      if (myOrders && !can(user.grants, 'tracking.myOrders')) {
        throw new HttpError(403, 'myOrders is only for mechanics, customer service admins and supervisors');
      }
      const search = parseSearch(query);
      if (search.errors.length > 0) throw new HttpError(400, search.errors.map((error) => error.message).join('; '));
      return listTrackingStatus(db, user, { terms: search.terms, status, myOrders, page, maxResults });
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
      const details = await findOrderDetails(db, requireUser(request), request.params.orderId);
      if (!details) throw new HttpError(404, `Service Order not found: ${request.params.orderId}`);
      return details;
    },
  );
};
