import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorMessage, statusOf } from './api-client';
import { ACCOUNT_REFUSALS } from '../domain/constants';
import { showError } from './error-alert';
import { NothingSavedError } from '../offline/mirror';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** A main list: shows the loading overlay while it fetches (§2). */
      mainList?: boolean;
      /** §8: failures of some calls are only logged, not shown. */
      silent?: boolean;
      /** Refetched on a timer to follow changes: a refetch of what it shows is not listing (no overlay). */
      follow?: boolean;
    };
    mutationMeta: { silent?: boolean };
  }
}

function report(error: unknown, silent: boolean | undefined) {
  // Offline with no copy on the device: the screen says so in its place (#19 item 24), not as an alert.
  if (error instanceof NothingSavedError) return;
  // A full disk reads in the user's language there too (errorMessage words StorageFullError).
  void errorMessage(error).then((message) => {
    // The user is on their way to /user-expired or /welcome (§8), which say it better than an
    // alert (a red error over "your request is on its way" read as something gone wrong).
    if (statusOf(error) === 403 && ACCOUNT_REFUSALS.includes(message)) return;
    if (silent) console.warn(message);
    else showError(message);
  });
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta?.silent) }),
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => report(error, mutation.meta?.silent) }),
    defaultOptions: {
      // ky already applies the §5 retry rule; a second layer would multiply the waits.
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
