/**
 * §7 file-processing dashboard calls of the user service: the file rows of a day and per-day
 * counts, readable by super managers of both kinds (§6 "read file dashboard").
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { compactViewQuery, compactViewResponse, detailedViewQuery, detailedViewResponse } from '../../../src/contract/dashboard';
import type { Db } from '../../db/client';
import type { IngestionSchedule } from '../../ingestion/schedule';
import { compactView, detailedView } from '../../repositories/file-processing';

const tags = ['file dashboard'];

export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Db; schedule: IngestionSchedule }> = async (app, { db, schedule }) => {
  app.get(
    '/dashboard/detailed_view',
    {
      config: { capability: 'fileDashboard.read' },
      schema: {
        tags,
        summary: 'The ERP files of one business day with their status and line-numbered errors (expected files without a row included)',
        querystring: detailedViewQuery,
        response: { 200: detailedViewResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => detailedView(db, request.query.date, schedule),
  );

  app.get(
    '/dashboard/compact_view',
    {
      config: { capability: 'fileDashboard.read' },
      schema: {
        tags,
        summary: 'Per business day of the range: number of files and how many are processed, errored, missing, in progress, not processed',
        querystring: compactViewQuery,
        response: { 200: compactViewResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => compactView(db, request.query.start_date, request.query.end_date, schedule),
  );
};
