/** GET /user_api/v1/audit_log: every recorded change (who, what, before, after, when), newest first; super managers only. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { auditLogPage, auditLogQuery } from '../../../src/contract/users';
import type { Db } from '../../db/client';
import { listAuditLog } from '../../repositories/user-admin';

export const auditLogRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/audit_log',
    {
      config: { capability: 'auditLog.read' },
      schema: {
        tags: ['users management'],
        summary: 'The audit log (paged); with userId only the changes to that user',
        querystring: auditLogQuery,
        response: { 200: auditLogPage, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => listAuditLog(db, request.query),
  );
};
