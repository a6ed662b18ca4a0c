import { stockCountListResponse, type StockCountPage, type StockCountRow } from '../../../contract/stock';
import { stockApi, toSearchParams } from '../../../lib/api-client';
import type { STOCK_COUNT_TYPES } from '../../../domain/constants';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';

export interface StockCountListParams {
  page: number;
  maxResults: number;
  orderByColumn: string;
  sortDirection: 'asc' | 'desc';
  /** §7 filters of the list (#19 item 6): search text and count type; absent: all. */
  query?: string;
  type?: (typeof STOCK_COUNT_TYPES)[number];
}

/** GET /api/v2/my_stock_count: the counts the user may see, one page, mirrored for offline. */
export const getStockCounts = async (params: StockCountListParams): Promise<StockCountPage> =>
  stockCountListResponse.parse(await stockApi.get('my_stock_count', { searchParams: toSearchParams({ ...params }) }).json());

/** One count as it is now (null: not one the user sees): what a form reads again after a refusal. */
export async function getStockCount(stockCountId: number): Promise<StockCountRow | null> {
  const page = stockCountListResponse.parse(await stockApi.get('my_stock_count', { searchParams: toSearchParams({ stockCountId, page: 1, maxResults: 1 }) }).json());
  return page.stock_counts[0] ?? null;
}

export const stockCountQueries = {
  all: () => ['stock-counts'] as const,
  list: (params: StockCountListParams) => [...stockCountQueries.all(), 'list', params] as const,
};

export function useStockCounts(userEmail: string, params: StockCountListParams) {
  return useMirroredQuery({
    queryKey: stockCountQueries.list(params),
    userEmail,
    scope: 'stock-counts',
    fetcher: () => getStockCounts(params),
    mainList: true,
  });
}
