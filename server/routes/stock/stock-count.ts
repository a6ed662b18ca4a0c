/**
 * §7 /api/v2/my_stock_count (list, one count by stockCountId) and /my_stock_count/submit,
 * plus /my_material to find a material to add. Submission books the count in the ERP through
 * the adapter: completed with its physical inventory document, or error with latest_sap_error.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { errorBody } from '../../../src/contract/common';
import {
  myMaterialQuery,
  myMaterialResponse,
  stockCountListQuery,
  stockCountListResponse,
  stockCountRow,
  submitStockCountQuery,
} from '../../../src/contract/stock';
import { submitConflict } from '../../../src/contract/stock-count-parts';
import { can } from '../../../src/domain/permissions';
import type { Db } from '../../db/client';
import { materialCounts, stockCounts } from '../../db/schema';
import type { ErpAdapter } from '../../erp/adapter';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { assertEditable, findStockCount, listStockCounts, oversees, searchMaterials, toStockCountRows, movedBookLines } from '../../repositories/stock-counts';
import { splitSubmitRefusal } from '../../repositories/stock-count-parts';

const tags = ['stock counts'];

export const stockCountRoutes: FastifyPluginAsyncZod<{ db: Db; erp: ErpAdapter }> = async (app, { db, erp }) => {
  app.get(
    '/my_stock_count',
    {
      config: { capability: 'stockCount.read' },
      schema: {
        tags,
        summary: 'Stock counts the caller may see (default sort: plant)',
        querystring: stockCountListQuery,
        response: { 200: stockCountListResponse, 400: errorBody },
      },
    },
    async (request) => listStockCounts(db, requireUser(request), request.query),
  );

  app.get(
    '/my_stock_count/submit',
    {
      config: { capability: 'stockCount.submit' },
      schema: {
        tags,
        summary: 'Submit a stock count to the ERP system (completed, or error with latest_sap_error)',
        querystring: submitStockCountQuery,
        response: { 200: stockCountRow, 400: errorBody, 403: errorBody, 404: errorBody, 409: z.union([submitConflict, errorBody]), 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { stockCountId, confirmOpenParts } = request.query;
      return runMutation(db, request, reply, async (tx) => {
        const count = await findStockCount(tx, user, stockCountId, true);
        assertEditable(count);
        // #18: a split count is submitted when every part is done, or by its planner confirming the open ones; never with a variance.
        const refusal = await splitSubmitRefusal(tx, user, count, {
          confirmOpenParts: confirmOpenParts === true,
          mayConfirm: can(user.grants, 'stockCount.edit') && (await oversees(tx, user, count.id)),
        });
        if (refusal) {
          const { message, ...lists } = refusal;
          throw new HttpError(409, message, lists);
        }
        const lines = await tx
          .select()
          .from(materialCounts)
          .where(eq(materialCounts.stockCountId, count.id))
          .orderBy(asc(materialCounts.materialCode));
        const missing = lines.filter((line) => line.quantity === null).length;
        if (missing > 0) {
          throw new HttpError(409, `${missing} material${missing === 1 ? ' is' : 's are'} not counted yet: count every line before submitting`);
        }
        const moved = await movedBookLines(tx, lines);
        if (moved.length > 0) {
          const codes = moved.map((line) => line.material_code).join(', ');
          throw new HttpError(
            409,
            `The book quantity changed after counting started for ${codes}: keep the counted quantity or keep the difference before submitting`,
          );
        }
        const result = await erp.postPhysicalInventory({
          stockCountId: count.id,
          plant: count.plant,
          storageLocation: count.storageLocation,
          lines: lines.map((line) => ({ materialCode: line.materialCode, quantity: Number(line.quantity), unit: line.unit })),
        });
        const [updated] = await tx
          .update(stockCounts)
          .set(
            result.ok
              ? {
                  status: 'completed',
                  physicalInventoryDocumentNumber: result.documentNumber,
                  latestSapError: null,
                  isDraft: false,
                  submittedAt: sql`now()`,
                  updatedAt: sql`now()`,
                }
              : { status: 'error', latestSapError: JSON.stringify(result.error), updatedAt: sql`now()` },
          )
          .where(eq(stockCounts.id, count.id))
          .returning();
        const [row] = await toStockCountRows(tx, [updated!], user);
        return { body: row };
      });
    },
  );

  app.get(
    '/my_material',
    {
      config: { capability: 'stock.read' },
      schema: {
        tags: ['stock'],
        summary: 'Materials by code prefix or description, to add to a count',
        querystring: myMaterialQuery,
        response: { 200: myMaterialResponse, 400: errorBody },
      },
    },
    async (request) => searchMaterials(db, request.query.materialCode, request.query.page, request.query.maxResults),
  );
};
