import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { businessDayResponse, compactViewResponse, detailedViewResponse, type CompactRow, type FileRow } from '../../../contract/dashboard';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';
import { useOnline } from '../../../lib/use-online';
import { TODAY_FOLLOW_MS, followInterval, hasFileAtWork } from '../follow-interval';

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

function useDetailedView(userEmail: string, date: string, enabled: boolean, refetchInterval: number | undefined) {
  return useMirroredQuery({
    queryKey: fileDashboardQueries.day(date),
    userEmail,
    scope: 'file-dashboard',
    fetcher: () => getDetailedView(date),
    enabled,
    mainList: true,
    // The business day is read again on a timer: those refetches show no overlay.
    follow: true,
    silent: true,
    refetchInterval,
  });
}

/**
 * One day's files (§2). The business day is read again on a timer (follow-interval.ts): expected
 * slots turn missing and new files arrive though nothing is processing; other days are read once.
 */
export function useDayFiles(userEmail: string, date: string, enabled = true) {
  const today = useBusinessToday();
  const online = useOnline();
  // The pace follows the last answer, which is known only after the query: kept from the render
  // that saw it (React's "information from previous renders"), one render later is soon enough.
  const [isAtWork, setIsAtWork] = useState(false);
  const view = useDetailedView(userEmail, date, enabled, followInterval(date, today, isAtWork, online));
  const isAtWorkNow = hasFileAtWork(view.data);
  if (isAtWorkNow !== isAtWork) setIsAtWork(isAtWorkNow);
  return view;
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
    // A screen left open over midnight moves on to the new day's files. Not after a failure (a
    // service without the call): the device's day stands and the log gets no line a minute.
    refetchInterval: (query) => (query.state.status === 'error' ? false : TODAY_FOLLOW_MS),
    retry: false,
    meta: { silent: true },
  });
  return answer.data?.today ?? dayjs().format('YYYY-MM-DD');
}
