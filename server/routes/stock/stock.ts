/** §7 /api/v2/my_stock, /my_team_stock, /my_plant_stock: stock lists scoped to the caller. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { stockListQuery, stockListResponse } from '../../../src/contract/stock';
import { STOCK_TYPES } from '../../../src/domain/stock';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { BAD_CURSOR } from '../../repositories/paging';
import { listStock, stockCursor } from '../../repositories/stock';

export const stockRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  for (const type of STOCK_TYPES) {
    app.get(
      `/${type}`,
      {
        config: { capability: 'stock.read' },
        schema: {
          tags: ['stock'],
          summary: `Stock items: ${type.replaceAll('_', ' ')} (page size 20; zero stock hidden when searching)`,
          querystring: stockListQuery,
          response: { 200: stockListResponse, 400: errorBody },
        },
      },
      async (request) => {
        const { after, ...options } = request.query;
        const cursor = after === undefined ? undefined : stockCursor(after);
        if (cursor === null) throw new HttpError(400, BAD_CURSOR);
        return listStock(db, requireUser(request), type, { ...options, after: cursor });
      },
    );
  }
};
