/**
 * The two sub-tabs of the notification screen that are not notifications: Sent feedback (the
 * caller's feedback, GET /user_api/v1/feedback) and Stock count (the caller's stock counts,
 * GET /api/v2/my_stock_count). Both mirrored for offline like every list.
 */
import type { FeedbackPage } from '../../../contract/feedback';
import type { StockCountPage } from '../../../contract/stock';
import { PAGE_SIZE } from '../../../domain/constants';
import { stockApi, toSearchParams, userApi } from '../../../lib/api-client';
import { parseWith } from '../../../lib/lazy-schema';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';
import { notificationQueries } from './notifications';

// The schemas load with the first call, not with the app: the status monitor opens with these
// sub-tabs closed (#22, lib/lazy-schema.ts). contract/stock is still imported by the start elsewhere
// (the count's outbox kinds, decision 0034); contract/feedback is not.
export const getSentFeedback = async (page: number): Promise<FeedbackPage> =>
  parseWith(
    async () => (await import('../../../contract/feedback')).feedbackPage,
    userApi.get('feedback', { searchParams: toSearchParams({ page, maxResults: PAGE_SIZE }) }).json(),
  );

export const getMyStockCounts = async (page: number): Promise<StockCountPage> =>
  parseWith(
    async () => (await import('../../../contract/stock')).stockCountListResponse,
    stockApi.get('my_stock_count', { searchParams: toSearchParams({ page, maxResults: PAGE_SIZE, orderByColumn: 'created', sortDirection: 'desc' }) }).json(),
  );

export function useSentFeedback(userEmail: string, page: number, enabled: boolean) {
  return useMirroredQuery({
    queryKey: [...notificationQueries.all(), 'sent-feedback', page],
    userEmail,
    scope: 'feedback',
    fetcher: () => getSentFeedback(page),
    enabled,
    mainList: true,
    // §8: failures of the notification lists are only logged; the list says it was not loaded.
    silent: true,
  });
}

export function useMyStockCounts(userEmail: string, page: number, enabled: boolean) {
  return useMirroredQuery({
    queryKey: [...notificationQueries.all(), 'stock-counts', page],
    userEmail,
    scope: 'stock-counts',
    fetcher: () => getMyStockCounts(page),
    enabled,
    mainList: true,
    silent: true,
  });
}
