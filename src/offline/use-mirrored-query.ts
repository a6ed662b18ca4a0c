/**
 * THE hook for mirrored lists and pages: network first, the device's copy when the network fails
 * or the browser is offline, with the time that copy was saved. Screens never know where their
 * data came from; they show `isOfflineCopy` and `savedAt` in the offline banner.
 */
import { queryOptions, useQuery, type Query, type QueryCache, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { isOffline } from './errors';
import { mirrorKey, networkFirst, type Mirrored } from './mirror';

/**
 * What a query does with the call that goes on after its saved copy was shown
 * (mirror.ts `answerOrSavedCopy`), made when its query function starts. The late outcome counts
 * only while the saved copy is still what the query holds: the one data update since the start is
 * the copy itself. Another read that answered first, or a change written into the cache
 * meanwhile, is newer, and the late outcome is dropped. `failure` hands a late refusal (a count
 * handed to someone else, a 404, a 401) to the query as its error, as a refetch's failure would
 * be: the data stays, the error is set, the query cache's `onError` reports it.
 * `signal`: the call was superseded (decision 0026); its outcome counts no more.
 */
/** The latest call of each query that made a late outcome (`lateOutcome`). */
const latestCall = new WeakMap<object, object>();

export function lateOutcome<TData>(client: QueryClient, queryKey: QueryKey, signal?: AbortSignal) {
  const cache = client.getQueryCache();
  const query = cache.find<TData>({ queryKey, exact: true }) as Query<TData, Error, TData> | undefined;
  const copyShown = (query?.state.dataUpdateCount ?? 0) + 1;
  // Only the query's latest call: an older one answering late must not count as the newer call's
  // update (then the newer call's own late outcome would be dropped) — the newer call answers.
  const call = {};
  if (query) latestCall.set(query, call);
  const stillShown = (): boolean =>
    query !== undefined &&
    signal?.aborted !== true &&
    latestCall.get(query) === call &&
    cache.get(query.queryHash) === query &&
    query.state.dataUpdateCount === copyShown;
  return {
    stillShown,
    answer: (data: TData): void => {
      if (stillShown()) client.setQueryData(queryKey, data);
    },
    failure: (error: unknown): void => {
      if (!query || !stillShown()) return;
      const failure = error instanceof Error ? error : new Error(String(error));
      const { state } = query;
      query.setState({
        error: failure,
        status: 'error',
        errorUpdateCount: state.errorUpdateCount + 1,
        errorUpdatedAt: Date.now(),
        fetchFailureCount: state.fetchFailureCount + 1,
        fetchFailureReason: failure,
        isInvalidated: true,
      });
      cache.config.onError?.(failure, query as Query<unknown, unknown, unknown>);
    },
  };
}

/** The call of each query that goes on after its saved copy was shown: a newer call aborts it. */
const goingOn = new WeakMap<Query, AbortController>();

/**
 * The signal of a mirrored query's call. TanStack aborts the call while its query function runs;
 * once the function has returned the saved copy the call goes on without it, so this aborts it
 * too when a newer call of the query starts, when the query's last observer goes (the screen
 * left) and when the query leaves the cache (decision 0026: one read of a list at a time).
 */
function supersedable(client: QueryClient, queryKey: QueryKey, signal: AbortSignal): { signal: AbortSignal; settled: () => void } {
  const cache = client.getQueryCache();
  const query = cache.find({ queryKey, exact: true });
  const controller = new AbortController();
  const abort = () => controller.abort(signal.reason);
  if (signal.aborted) abort();
  signal.addEventListener('abort', abort, { once: true });
  if (!query) return { signal: controller.signal, settled: () => signal.removeEventListener('abort', abort) };
  goingOn.get(query)?.abort(new DOMException('A newer read of the query superseded this one.', 'AbortError'));
  goingOn.set(query, controller);
  const stop = cache.subscribe((event) => {
    if (event.query !== query) return;
    if (event.type === 'removed' || (event.type === 'observerRemoved' && query.getObserversCount() === 0)) {
      // The saved copy shown meanwhile is not an answer of the server: the screen's next visit
      // reads again (TanStack would take it for fresh within its stale time).
      if ((query.state.data as { source?: string } | undefined)?.source === 'mirror') query.invalidate();
      controller.abort(new DOMException('Nobody shows this query any more.', 'AbortError'));
    }
  });
  return {
    signal: controller.signal,
    settled: () => {
      stop();
      signal.removeEventListener('abort', abort);
      if (goingOn.get(query) === controller) goingOn.delete(query);
    },
  };
}

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
  fetcher: (signal?: AbortSignal, after?: string) => Promise<T>;
  /**
   * A page read after the page before it (keyset, decision 0035): where its `after` comes from,
   * awaited before the network is asked (`freshCursorOf`), so waiting for the page before does not
   * use up this page's NO_ANSWER_YET_MS and show its device copy while online. Handed to `fetcher`.
   */
  afterOf?: (signal: AbortSignal) => Promise<string | undefined>;
  enabled?: boolean;
  /** A main list shows the loading overlay while it fetches (§2). */
  mainList?: boolean;
  /** Failures are only logged, not shown in the global alert (secondary data such as tab counts). */
  silent?: boolean;
  /** Refetched on a timer to follow what changes (the file dashboard): its refetches are not listing. */
  follow?: boolean;
}

/** The query behind useMirroredQuery, for a route that starts it before its screen has loaded (#22). */
export function mirroredQueryOptions<T>({ queryKey, userEmail, scope, fetcher, afterOf, mainList = false, silent = false, follow = false }: Omit<MirroredQueryOptions<T>, 'enabled'>) {
  return queryOptions({
    queryKey: [...queryKey, userEmail],
    queryFn: async ({ signal, client, queryKey: fullKey }) => {
      const call = supersedable(client, fullKey, signal);
      // Offline the device's copy answers: nothing to wait for.
      let after: string | undefined;
      if (afterOf && !isOffline()) {
        try {
          after = await afterOf(call.signal);
        } catch (error) {
          call.settled();
          throw error;
        }
      }
      // The saved copy was shown while the network gave no answer: the answer replaces it, a
      // refusal becomes the query's error, unless something newer came meanwhile.
      const late = lateOutcome<Mirrored<T>>(client, fullKey, call.signal);
      let fetched = false;
      const answer = networkFirst({
        key: mirrorKey(userEmail, queryKey),
        scope,
        fetcher: () => {
          fetched = true;
          let reading: Promise<T>;
          try {
            reading = fetcher(call.signal, after);
          } catch (error) {
            call.settled();
            throw error;
          }
          void reading.then(call.settled, call.settled);
          return reading;
        },
        stillShown: late.stillShown,
        onLateAnswer: late.answer,
        onLateFailure: late.failure,
      });
      // Offline the network is not asked: nothing goes on, and the call's listeners go now.
      void answer.then(
        () => fetched || call.settled(),
        () => fetched || call.settled(),
      );
      return answer;
    },
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

/**
 * The page before's `next_cursor`, fresh: when the loaded pages are read again together (back
 * after their stale time, a reconnection, an invalidation), the cursor at hand is the one of the
 * page before's old answer, and a row that moved meanwhile would hide or show twice. So this waits
 * for the page before's read going on and takes its new cursor (the pages are then read one after
 * another); when that read fails, stops, leaves the cache or only returns the device's copy,
 * undefined (the page is read by number). The wait only ever goes to a lower page: no cycle.
 * Rejects when `signal` aborts (this page's own read was superseded, decision 0026).
 */
export async function freshCursorOf(client: QueryClient, queryKey: QueryKey, userEmail: string, signal?: AbortSignal): Promise<string | undefined> {
  // Pages read again together start in one go in the cache's order, not the pages' (a page
  // opened by its address, then Previous): one turn lets the page before start its read too.
  await Promise.resolve();
  signal?.throwIfAborted();
  const cache = client.getQueryCache();
  const query = cache.find({ queryKey: [...queryKey, userEmail], exact: true });
  if (query?.state.fetchStatus === 'fetching' && !(await serverAnswers(cache, query, signal))) return undefined;
  return cursorOf(client, queryKey, userEmail);
}

/**
 * Waits for the read of `query` going on: true when the server answered it; false when it failed,
 * was cancelled (its old data put back), paused, the query left the cache, or the device's copy
 * stood in for the answer (mirror.ts: its cursor is as old as the copy). Rejects when `signal` aborts.
 */
function serverAnswers(cache: QueryCache, query: Query, signal?: AbortSignal): Promise<boolean> {
  const { dataUpdateCount, errorUpdateCount } = query.state;
  const answered = () =>
    query.state.dataUpdateCount > dataUpdateCount &&
    query.state.errorUpdateCount === errorUpdateCount &&
    (query.state.data as Mirrored<unknown> | undefined)?.source === 'network';
  return new Promise<boolean>((resolve, reject) => {
    let stop = () => {};
    const finish = (settle: () => void) => {
      stop();
      signal?.removeEventListener('abort', aborted);
      settle();
    };
    const aborted = () => finish(() => reject(signal?.reason));
    stop = cache.subscribe((event) => {
      if (event.query !== query) return;
      if (event.type === 'removed') finish(() => resolve(false));
      else if (query.state.fetchStatus !== 'fetching') finish(() => resolve(answered()));
    });
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
