import { useQueryClient } from '@tanstack/react-query';
import { stockListResponse, type StockPage } from '../../../contract/stock';
import type { StockType } from '../../../domain/stock';
import { PAGE_SIZE } from '../../../domain/constants';
import { stockApi, toSearchParams } from '../../../lib/api-client';
import { freshCursorOf, useMirroredQuery } from '../../../offline/use-mirrored-query';

/**
 * GET /api/v2/my_stock | my_team_stock | my_plant_stock: one page, mirrored for offline. With
 * `after` (the page before's `next_cursor`, #16) the server reads on after that row, at the same
 * cost at any depth.
 */
export const getStock = async (type: StockType, query: string, page: number, after?: string): Promise<StockPage> =>
  stockListResponse.parse(await stockApi.get(type, { searchParams: toSearchParams({ query, page, maxResults: PAGE_SIZE, after }) }).json());

export const stockQueries = {
  all: () => ['stock'] as const,
  page: (type: StockType, query: string, page: number) => [...stockQueries.all(), type, query.toLowerCase(), page] as const,
};

export function useStockPage(userEmail: string, type: StockType, query: string, page: number) {
  const client = useQueryClient();
  return useMirroredQuery({
    queryKey: stockQueries.page(type, query, page),
    userEmail,
    scope: 'stock',
    // Load more reads on after the page before when it is at hand (keyset), else by number; pages
    // read again together wait for the page before's fresh cursor (freshCursorOf).
    afterOf: async (signal) => (page > 1 ? freshCursorOf(client, stockQueries.page(type, query, page - 1), userEmail, signal) : undefined),
    fetcher: (signal, after) => getStock(type, query, page, after),
    mainList: true,
  });
}
