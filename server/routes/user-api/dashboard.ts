/**
 * §7 file-processing dashboard calls of the user service: the file rows of a day and per-day
 * counts, readable by super managers of both kinds (§6 "read file dashboard").
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { businessDayResponse, compactViewQuery, compactViewResponse, detailedViewQuery, detailedViewResponse } from '../../../src/contract/dashboard';
import type { Db } from '../../db/client';
import { localDate, type IngestionSchedule } from '../../ingestion/schedule';
import { compactView, detailedView } from '../../repositories/file-processing';

const tags = ['file dashboard'];

export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Db; schedule: IngestionSchedule }> = async (app, { db, schedule }) => {
  // Today is the schedule's day, not the device's: near midnight, a viewer in another zone than
  // the ERP's saw yesterday's or tomorrow's (empty) list under "Today's files".
  app.get(
    '/dashboard/business_day',
    {
      schema: {
        tags,
        summary: 'The business day now in the ingestion schedule’s time zone (whose files are today’s), and that zone',
        response: { 200: businessDayResponse },
      },
    },
    async () => ({ today: localDate(new Date(), schedule.timezone), timezone: schedule.timezone }),
  );

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
