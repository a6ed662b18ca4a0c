/**
 * GET (paged, the caller's own) and POST /user_api/v1/feedback for the six forms of §3/§9, and
 * the plants a form may name (§6: own plants; super managers get every plant from the server).
 * A form naming a plant outside that list is a 403 naming the plant.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { errorBody } from '../../../src/contract/common';
import { feedbackBody, feedbackItem, feedbackListQuery, feedbackPage, feedbackPlants } from '../../../src/contract/feedback';
import { isSuperManager } from '../../../src/domain/permissions';
import type { Db, Tx } from '../../db/client';
import { feedback, plants } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import type { CurrentUser } from '../../repositories/users';

const tags = ['feedback'];

/** §6: the plants the caller may name in a feedback form. */
export async function feedbackPlantsOf(db: Db | Tx, user: CurrentUser): Promise<{ code: string; name: string }[]> {
  const columns = { code: plants.code, name: plants.name };
  if (isSuperManager(user.grants)) return db.select(columns).from(plants).orderBy(asc(plants.code));
  if (user.plants.length === 0) return [];
  return db.select(columns).from(plants).where(inArray(plants.code, user.plants)).orderBy(asc(plants.code));
}

type FeedbackRow = typeof feedback.$inferSelect;
const toItem = (row: FeedbackRow) =>
  feedbackItem.parse({ id: row.id, type: row.type, plant: row.plant, created: row.created.toISOString(), payload: row.payload ?? {} });

export const feedbackRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/feedback',
    {
      schema: {
        tags,
        summary: 'The caller’s sent feedback, newest first (paged)',
        querystring: feedbackListQuery,
        response: { 200: feedbackPage, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { page, maxResults, type } = request.query;
      const where = and(eq(feedback.userId, user.id), type ? eq(feedback.type, type) : undefined);
      const [[total], rows] = await Promise.all([
        db.select({ n: count() }).from(feedback).where(where),
        db
          .select()
          .from(feedback)
          .where(where)
          .orderBy(desc(feedback.created), desc(feedback.id))
          .limit(maxResults)
          .offset((page - 1) * maxResults),
      ]);
      const pages = Math.max(1, Math.ceil(Number(total?.n ?? 0) / maxResults));
      return { page, pages, has_next: page < pages, has_prev: page > 1, items: rows.map(toItem) };
    },
  );

  app.get(
    '/feedback/plants',
    {
      schema: {
        tags,
        summary: 'Plants the caller may name in a feedback form (own plants; super managers: all)',
        response: { 200: feedbackPlants, 403: errorBody },
      },
    },
    async (request) => ({ plants: await feedbackPlantsOf(db, requireUser(request)) }),
  );

  app.post(
    '/feedback',
    {
      schema: {
        tags,
        summary: 'Send one of the six feedback forms (§3): Feedback, ReportIssue, RequestUpdateOrder, RequestStockTransfer, ReportStockDifference, RequestUpdateAccessPointContactNotification',
        body: feedbackBody,
        response: { 201: feedbackItem, 400: errorBody, 403: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { type, ...payload } = request.body;
      const plant = 'plant' in payload && typeof payload.plant === 'string' ? payload.plant.toUpperCase() : null;
      return runMutation(db, request, reply, async (tx) => {
        if (plant) {
          const allowed = await feedbackPlantsOf(tx, user);
          if (!allowed.some((p) => p.code === plant)) {
            const choices = allowed.map((p) => p.code).join(', ');
            throw new HttpError(
              403,
              `Plant ${plant} is not one of your plants; choose one of: ${choices || 'none'}`,
              choices ? { code: 'feedbackPlantNotYours', params: { plant, choices } } : { code: 'feedbackNoPlants', params: { plant } },
            );
          }
        }
        const [row] = await tx
          .insert(feedback)
          .values({ userId: user.id, type, plant, payload: { ...payload, ...(plant ? { plant } : {}) } })
          .returning();
        return { status: 201, body: toItem(row!) };
      });
    },
  );
};
