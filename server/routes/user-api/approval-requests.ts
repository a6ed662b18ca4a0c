/**
 * §7 approval requests: GET /approval_requests/{id}, GET /approval_requests/pending, and the
 * decisions (ours: POST …/{id}/approve and …/{id}/reject) by super managers and user-acceptance
 * managers. Approving lets the user in on the next call; rejecting answers every later call with
 * 403 "Your access request was rejected." (the welcome page says so).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { approvalIdParams, approvalRequest, PENDING_APPROVALS_MAX, PENDING_HAS_MORE_HEADER, pendingApprovals } from '../../../src/contract/users';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { runMutation } from '../../plugins/idempotency';
import { decideApproval, pendingApprovals as listPending, readApprovalRequest } from '../../repositories/user-admin';

const tags = ['approval requests'];

export const approvalRequestRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/approval_requests/pending',
    {
      config: { capability: 'approvals.decide' },
      schema: {
        tags,
        summary: `Pending approval requests, oldest first: at most ${PENDING_APPROVALS_MAX}; the header X-Has-More (true or false) says whether more wait`,
        response: { 200: pendingApprovals, 403: errorBody },
      },
    },
    async (_request, reply) => {
      const { items, hasMore } = await listPending(db);
      reply.header(PENDING_HAS_MORE_HEADER, String(hasMore));
      return items;
    },
  );

  app.get(
    '/approval_requests/:id',
    {
      // The requester may read their own request from the welcome page.
      config: { allowUnapproved: true },
      schema: {
        tags,
        summary: 'One approval request (deciders: any; the requesting user: their own)',
        params: approvalIdParams,
        response: { 200: approvalRequest, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => readApprovalRequest(db, requireUser(request), request.params.id),
  );

  for (const [action, decision] of [
    ['approve', 'Approved'],
    ['reject', 'Rejected'],
  ] as const) {
    app.post(
      `/approval_requests/:id/${action}`,
      {
        config: { capability: 'approvals.decide' },
        schema: {
          tags,
          summary: decision === 'Approved' ? 'Approve a pending request: the user sees data on the next call' : 'Reject a pending request',
          params: approvalIdParams,
          response: { 200: approvalRequest, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody },
        },
      },
      async (request, reply) =>
        runMutation(db, request, reply, async (tx) => ({ body: await decideApproval(tx, requireUser(request), request.params.id, decision) })),
    );
  }
};
