import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useProfile } from '../../../lib/profile';
import { loadCountSheet, readCountSheet, sheetKey } from '../offline/count-sheet';

export const countSheetQueries = {
  all: () => ['count-sheet'] as const,
  one: (email: string, stockCountId: number) => [...countSheetQueries.all(), email, stockCountId] as const,
};

/**
 * A stock count and all its lines. The screen shows the device's copy live (every edit, every
 * confirmation from the sync engine updates it at once); the query refreshes that copy from the
 * server whenever there is a connection.
 */
export function useCountSheet(stockCountId: number) {
  const { email } = useProfile();
  const key = sheetKey(email, stockCountId);
  const sheet = useLiveQuery(() => readCountSheet(key), [key]);
  const refresh = useQuery({
    queryKey: countSheetQueries.one(email, stockCountId),
    queryFn: () => loadCountSheet(email, stockCountId),
    // With the count on the device the screen is usable at once: the refresh runs behind it
    // without covering the list (a dropped connection can take seconds to fail).
    meta: { mainList: sheet === null, silent: true },
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
  return {
    email,
    sheet,
    savedAt: sheet?.savedAt,
    isOfflineCopy: refresh.data?.source === 'mirror',
    // undefined: the device is still being read; null: it holds no copy (then the server decides).
    isLoading: sheet === undefined || (sheet === null && refresh.isPending),
    error: refresh.error,
    refetch: refresh.refetch,
  };
}
