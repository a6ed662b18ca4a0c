import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { businessDayResponse, compactViewResponse, detailedViewResponse, type CompactRow, type FileRow } from '../../../contract/dashboard';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';

/** GET /user_api/v1/dashboard/compact_view and detailed_view (§7), mirrored for offline reading. */
export const getCompactView = async (startDate: string, endDate: string): Promise<CompactRow[]> =>
  compactViewResponse.parse(await userApi.get('dashboard/compact_view', { searchParams: toSearchParams({ start_date: startDate, end_date: endDate }) }).json());

export const getDetailedView = async (date: string): Promise<FileRow[]> =>
  detailedViewResponse.parse(await userApi.get('dashboard/detailed_view', { searchParams: toSearchParams({ date }) }).json());

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
    // §8: failures of the dashboard views are only logged; the screen says what failed.
    silent: true,
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
    // Followed every 5 s while files are processed (file-dashboard-page.tsx): those refetches show no overlay.
    follow: true,
    silent: true,
  });
}

/**
 * Today as the ERP's schedule counts it (GET /dashboard/business_day), the device's day until it
 * has answered or where it cannot (offline, a service without the call): "Today's files" near
 * midnight are the server's day, not the viewer's.
 */
export function useBusinessToday(): string {
  const answer = useQuery({
    // Its own key: an upload's refresh of the file dashboard's lists does not ask the day again.
    queryKey: ['business-day'],
    queryFn: async () => businessDayResponse.parse(await userApi.get('dashboard/business_day').json()),
    staleTime: 60_000,
    retry: false,
    meta: { silent: true },
  });
  return answer.data?.today ?? dayjs().format('YYYY-MM-DD');
}
