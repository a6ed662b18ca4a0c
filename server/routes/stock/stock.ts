/** §7 /api/v2/my_stock, /my_team_stock, /my_plant_stock: stock lists scoped to the caller. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { stockListQuery, stockListResponse, type StockItemRow } from '../../../src/contract/stock';
import { STOCK_TYPES } from '../../../src/domain/stock';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { BAD_CURSOR } from '../../repositories/paging';
import { listStock, stockCursor } from '../../repositories/stock';
import { blindLinesOf, stockLineKey } from '../../repositories/stock-counts';

/** A row the caller counts blind: its counts and total hidden, and why. */
function hideBlind(row: StockItemRow, blind: ReadonlyMap<string, number>): StockItemRow {
  const count = blind.get(stockLineKey(row.plant, row.storage_location, row.material_code));
  if (count === undefined) return row;
  return {
    ...row,
    unrestricted_count: null,
    quantity_inspection_count: null,
    blocked_count: null,
    restricted_count: null,
    transfer_count: null,
    total_quantity: null,
    blind_count_id: count,
  };
}

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
        const user = requireUser(request);
        const page = await listStock(db, user, type, { ...options, after: cursor });
        const blind = await blindLinesOf(db, user, page.stock_items);
        return blind.size === 0 ? page : { ...page, stock_items: page.stock_items.map((row) => hideBlind(row, blind)) };
      },
    );
  }
};
