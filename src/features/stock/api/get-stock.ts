import { stockListResponse, type StockPage } from '../../../contract/stock';
import type { StockType } from '../../../domain/stock';
import { PAGE_SIZE } from '../../../domain/constants';
import { stockApi, toSearchParams } from '../../../lib/api-client';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';

/** GET /api/v2/my_stock | my_team_stock | my_plant_stock: one page, mirrored for offline. */
export const getStock = async (type: StockType, query: string, page: number): Promise<StockPage> =>
  stockListResponse.parse(await stockApi.get(type, { searchParams: toSearchParams({ query, page, maxResults: PAGE_SIZE }) }).json());

export const stockQueries = {
  all: () => ['stock'] as const,
  page: (type: StockType, query: string, page: number) => [...stockQueries.all(), type, query.toLowerCase(), page] as const,
};

export function useStockPage(userEmail: string, type: StockType, query: string, page: number) {
  return useMirroredQuery({
    queryKey: stockQueries.page(type, query, page),
    userEmail,
    scope: 'stock',
    fetcher: () => getStock(type, query, page),
    mainList: true,
  });
}
