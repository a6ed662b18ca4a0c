/**
 * THE hook for mirrored lists and pages: network first, the device's copy when the network fails
 * or the browser is offline, with the time that copy was saved. Screens never know where their
 * data came from; they show `isOfflineCopy` and `savedAt` in the offline banner.
 */
import { queryOptions, useQuery, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { mirrorKey, networkFirst, type Mirrored } from './mirror';

export interface MirroredQueryOptions<T> {
  queryKey: QueryKey;
  /** Whose copy this is: copies of different users of one device never mix. */
  userEmail: string;
  /** What the page is about; changes of that scope patch it (see outbox.ts). */
  scope: string;
  /**
   * Reads the page. The signal aborts it when a newer query of the list supersedes it (§4 "one
   * list query at a time", decision 0026): pass it to the HTTP call.
   */
  fetcher: (signal?: AbortSignal) => Promise<T>;
  enabled?: boolean;
  /** A main list shows the loading overlay while it fetches (§2). */
  mainList?: boolean;
  /** Failures are only logged, not shown in the global alert (secondary data such as tab counts). */
  silent?: boolean;
  /** Refetched on a timer to follow what changes (the file dashboard): its refetches are not listing. */
  follow?: boolean;
}

/** The query behind useMirroredQuery, for a route that starts it before its screen has loaded (#22). */
export function mirroredQueryOptions<T>({ queryKey, userEmail, scope, fetcher, mainList = false, silent = false, follow = false }: Omit<MirroredQueryOptions<T>, 'enabled'>) {
  return queryOptions({
    queryKey: [...queryKey, userEmail],
    queryFn: ({ signal, client, queryKey: fullKey }) =>
      networkFirst({
        key: mirrorKey(userEmail, queryKey),
        scope,
        fetcher: () => fetcher(signal),
        // The saved copy was shown while the network gave no answer: the answer replaces it.
        onLateAnswer: (fresh) => client.setQueryData(fullKey, fresh),
      }),
    meta: { mainList, silent, follow },
    // The query runs offline too: networkFirst answers from the device's copy (or says there is
    // none). TanStack's default pauses a query while the browser is offline, so a screen whose
    // answer had left the memory cache (5 minutes) showed its spinner for ever in a basement,
    // though the device held the page, and the banner said nothing was saved.
    networkMode: 'always',
  });
}

export function useMirroredQuery<T>({
  enabled = true,
  refetchInterval,
  ...options
}: MirroredQueryOptions<T> & {
  /** Read again this often while the page is visible (what changes on the server by itself, e.g. the bell). */
  refetchInterval?: number;
}) {
  const query = useQuery({ ...mirroredQueryOptions(options), enabled, ...(refetchInterval ? { refetchInterval, refetchOnWindowFocus: true } : {}) });
  return {
    ...query,
    data: query.data?.data,
    savedAt: query.data?.savedAt,
    isOfflineCopy: query.data?.source === 'mirror',
  };
}

/**
 * #16, decision 0035: the `next_cursor` of a mirrored page at hand (the page before the one to
 * read), for a list that pages by keyset underneath its page numbers; none when it is not there.
 */
export function cursorOf(client: QueryClient, queryKey: QueryKey, userEmail: string): string | undefined {
  return client.getQueryData<Mirrored<{ next_cursor?: string | null }>>([...queryKey, userEmail])?.data.next_cursor ?? undefined;
}
