/** GET /user_api/v1/approval_requests/pending: the users-management tab of requests waiting for a decision. */
import { useQuery } from '@tanstack/react-query';
import { PENDING_HAS_MORE_HEADER, pendingApprovals, type PendingApproval } from '../../../contract/users';
import { userApi } from '../../../lib/api-client';
import { userQueries } from './get-users';

export interface PendingPage {
  requests: PendingApproval[];
  /** The server answers at most PENDING_APPROVALS_MAX, oldest first; more wait beyond them. */
  hasMore: boolean;
}

/** The answer's list, and whether more wait: its X-Has-More header (the bare list cannot say). */
export function pendingPage(body: unknown, headers: Pick<Headers, 'get'>): PendingPage {
  return { requests: pendingApprovals.parse(body), hasMore: headers.get(PENDING_HAS_MORE_HEADER)?.trim().toLowerCase() === 'true' };
}

/** One read of the pending requests, for the tab's list and for its number. */
async function readPendingPage(): Promise<PendingPage> {
  const response = await userApi.get('approval_requests/pending');
  return pendingPage(await response.json(), response.headers);
}

/**
 * The approval page's "Other pending" reads the same key, in the same shape (approvalQueries.pending
 * in src/features/approvals/api/approval-requests.ts): one cache of the one answer, under
 * userQueries.all(), so a removal or a decision refreshes both screens.
 */
export function usePendingApprovals(enabled: boolean) {
  return useQuery({
    queryKey: userQueries.pending(),
    queryFn: readPendingPage,
    enabled,
    meta: { mainList: true },
  });
}

/**
 * How many requests wait, for the pending tab's number on every tab of the users screen: its own
 * quiet query (silent, not a main list) so a failure says nothing on a tab that does not show the
 * list, and the list's loading overlay does not wait for it. Under userQueries.all(): a decision
 * or a removal refreshes it with the list.
 */
export function usePendingCount(enabled: boolean) {
  return useQuery({
    queryKey: [...userQueries.pending(), 'count'],
    queryFn: readPendingPage,
    select: (page) => ({ count: page.requests.length, atLeast: page.hasMore }),
    enabled,
    meta: { silent: true },
  });
}
