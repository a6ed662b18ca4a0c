/**
 * THE hook for mirrored lists and pages: network first, the device's copy when the network fails
 * or the browser is offline, with the time that copy was saved. Screens never know where their
 * data came from; they show `isOfflineCopy` and `savedAt` in the offline banner.
 */
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { mirrorKey, networkFirst } from './mirror';

export interface MirroredQueryOptions<T> {
  queryKey: QueryKey;
  /** Whose copy this is: copies of different users of one device never mix. */
  userEmail: string;
  /** What the page is about; changes of that scope patch it (see outbox.ts). */
  scope: string;
  fetcher: () => Promise<T>;
  enabled?: boolean;
  /** A main list shows the loading overlay while it fetches (§2). */
  mainList?: boolean;
  /** Failures are only logged, not shown in the global alert (secondary data such as tab counts). */
  silent?: boolean;
}

export function useMirroredQuery<T>({ queryKey, userEmail, scope, fetcher, enabled = true, mainList = false, silent = false }: MirroredQueryOptions<T>) {
  const query = useQuery({
    queryKey: [...queryKey, userEmail],
    queryFn: () => networkFirst({ key: mirrorKey(userEmail, queryKey), scope, fetcher }),
    enabled,
    meta: { mainList, silent },
  });
  return {
    ...query,
    data: query.data?.data,
    savedAt: query.data?.savedAt,
    isOfflineCopy: query.data?.source === 'mirror',
  };
}
