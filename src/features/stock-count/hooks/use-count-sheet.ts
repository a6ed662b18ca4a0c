import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useProfile } from '../../../lib/profile';
import { lateOutcome } from '../../../offline/use-mirrored-query';
import type { Mirrored } from '../../../offline/mirror';
import { loadCountSheet, readCountSheet, sheetKey, type CountSheet } from '../offline/count-sheet';

export const countSheetQueries = {
  all: () => ['count-sheet'] as const,
  one: (email: string, stockCountId: number) => [...countSheetQueries.all(), email, stockCountId] as const,
};

type DeviceSheet = Awaited<ReturnType<typeof readCountSheet>>;
/** Reads started by the route table before the screen's chunk arrived (#22), briefly kept. */
const readAhead = new Map<string, { sheet: DeviceSheet; at: number }>();
const READ_AHEAD_MS = 10_000;

/**
 * Starts reading the count from the device while the screen's chunk loads (#22: an offline start
 * shows the first line at once): the screen's first render uses this read instead of waiting for
 * its own, and its live query takes over from there.
 */
export function prefetchCountSheet(email: string, stockCountId: number): void {
  if (!Number.isInteger(stockCountId)) return;
  const key = sheetKey(email, stockCountId);
  void readCountSheet(key).then(
    (sheet) => readAhead.set(key, { sheet, at: Date.now() }),
    () => undefined,
  );
}

function freshReadAhead(key: string): DeviceSheet | undefined {
  const read = readAhead.get(key);
  return read && Date.now() - read.at < READ_AHEAD_MS ? read.sheet : undefined;
}

/**
 * A stock count and all its lines. The screen shows the device's copy live (every edit, every
 * confirmation from the sync engine updates it at once); the query refreshes that copy from the
 * server whenever there is a connection.
 */
export function useCountSheet(stockCountId: number) {
  const { email } = useProfile();
  const key = sheetKey(email, stockCountId);
  const sheet = useLiveQuery(() => readCountSheet(key), [key], freshReadAhead(key));
  const refresh = useQuery({
    queryKey: countSheetQueries.one(email, stockCountId),
    queryFn: ({ client, queryKey }) => {
      const late = lateOutcome<Mirrored<CountSheet>>(client, queryKey);
      return loadCountSheet(email, stockCountId, late.answer, late.failure);
    },
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
