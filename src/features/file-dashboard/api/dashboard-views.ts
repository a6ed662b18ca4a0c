import type { CompactRow, FileRow } from '../../../contract/dashboard';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';

/** GET /user_api/v1/dashboard/compact_view and detailed_view (§7), mirrored for offline reading. */
export const getCompactView = (startDate: string, endDate: string) =>
  userApi.get('dashboard/compact_view', { searchParams: toSearchParams({ start_date: startDate, end_date: endDate }) }).json<CompactRow[]>();

export const getDetailedView = (date: string) => userApi.get('dashboard/detailed_view', { searchParams: toSearchParams({ date }) }).json<FileRow[]>();

export const fileDashboardQueries = {
  all: () => ['file-dashboard'] as const,
  compact: (startDate: string, endDate: string) => [...fileDashboardQueries.all(), 'compact', startDate, endDate] as const,
  day: (date: string) => [...fileDashboardQueries.all(), 'day', date] as const,
};

export function useCompactView(userEmail: string, startDate: string, endDate: string, enabled = true) {
  return useMirroredQuery({
    queryKey: fileDashboardQueries.compact(startDate, endDate),
    userEmail,
    scope: 'file-dashboard',
    fetcher: () => getCompactView(startDate, endDate),
    enabled,
    mainList: true,
  });
}

export function useDetailedView(userEmail: string, date: string, enabled = true) {
  return useMirroredQuery({
    queryKey: fileDashboardQueries.day(date),
    userEmail,
    scope: 'file-dashboard',
    fetcher: () => getDetailedView(date),
    enabled,
    mainList: true,
  });
}
