/**
 * §7 approval requests: GET /approval_requests/{id}, GET /approval_requests/pending and the
 * decisions POST /approval_requests/{id}/approve | reject (with an Idempotency-Key).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalRequest, PENDING_HAS_MORE_HEADER, pendingApprovals, type PendingApproval } from '../../../contract/users';
import { userApi } from '../../../lib/api-client';
import { sendOnce } from '../../../lib/send-once';

/**
 * User administration's queries (the users feature's userQueries.all()): its changes (a removal)
 * refresh them, and so does a decision here. Features do not import each other: spelled here.
 */
const USERS_ADMIN = ['users-admin'] as const;

export const approvalQueries = {
  all: () => ['approvals'] as const,
  request: (id: string) => [...approvalQueries.all(), 'request', id] as const,
  /**
   * The users-management tab's key (userQueries.pending() there), holding the same shape
   * (PendingPage): one cache of the one answer. Two caches went apart: a removal or a refused
   * decision refreshed one, and the page's "Other pending" kept a user removed meanwhile.
   */
  pending: () => [...USERS_ADMIN, 'pending'] as const,
};

/** The answer as the users tab keeps it (its pendingPage): the requests, and whether more wait (X-Has-More). */
async function fetchPending(): Promise<{ requests: PendingApproval[]; hasMore: boolean }> {
  const response = await userApi.get('approval_requests/pending');
  const requests = pendingApprovals.parse(await response.json());
  return { requests, hasMore: response.headers.get(PENDING_HAS_MORE_HEADER)?.trim().toLowerCase() === 'true' };
}

/**
 * Offline the calls fail at once (networkMode 'always'): paused, TanStack's default, the screen
 * spun for ever. The screen says "no connection" in place (LoadError), not also as the alert.
 */
export const approvalRequestQuery = (id: string) =>
  queryOptions({
    queryKey: approvalQueries.request(id),
    queryFn: async () => approvalRequest.parse(await userApi.get(`approval_requests/${id}`).json()),
    networkMode: 'always',
    meta: { silent: true },
  });

export const pendingApprovalsQuery = () =>
  queryOptions({
    queryKey: approvalQueries.pending(),
    queryFn: fetchPending,
    networkMode: 'always',
    meta: { silent: true },
    // The page lists the requests; whether more wait is the users tab's to say.
    select: (page) => page.requests,
  });

export function useApprovalRequest(id: string) {
  return useQuery(approvalRequestQuery(id));
}

export function usePendingApprovals() {
  return useQuery(pendingApprovalsQuery());
}

export function useDecideApproval(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    // Never paused for a connection: a paused decision was sent later, unseen, even after the user
    // had left the screen. Offline the buttons are off; a connection lost meanwhile fails here.
    networkMode: 'always',
    // Pressed again after no answer, the same decision under the same key (sendOnce): answered as
    // decided, not refused as decided meanwhile by its own first try.
    mutationFn: (decision: 'approve' | 'reject') =>
      sendOnce('users', `approval_requests/${id}`, decision, async (key) =>
        approvalRequest.parse(await userApi.post(`approval_requests/${id}/${decision}`, { headers: { 'Idempotency-Key': key } }).json()),
      ),
    onSuccess: (decided) => {
      queryClient.setQueryData(approvalQueries.request(decided.request_id), decided);
      // The pending requests (approvalQueries.pending, under USERS_ADMIN), and the
      // users-management lists and tabs, which show approval states too.
      void queryClient.invalidateQueries({ queryKey: USERS_ADMIN });
    },
    // Refused (decided meanwhile by someone else: 409, or gone: 404): the page shows the request,
    // the other pending ones and the users lists as they are now (the other decision changed them too).
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: approvalQueries.request(id) });
      void queryClient.invalidateQueries({ queryKey: USERS_ADMIN });
    },
  });
}
