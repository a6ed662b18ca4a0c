/**
 * §7 approval requests: GET /approval_requests/{id}, GET /approval_requests/pending and the
 * decisions POST /approval_requests/{id}/approve | reject (with an Idempotency-Key).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalRequest, pendingApprovals } from '../../../contract/users';
import { userApi } from '../../../lib/api-client';

export const approvalQueries = {
  all: () => ['approvals'] as const,
  request: (id: string) => [...approvalQueries.all(), 'request', id] as const,
  pending: () => [...approvalQueries.all(), 'pending'] as const,
};

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
    queryFn: async () => pendingApprovals.parse(await userApi.get('approval_requests/pending').json()),
    networkMode: 'always',
    meta: { silent: true },
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
    mutationFn: async (decision: 'approve' | 'reject') =>
      approvalRequest.parse(
        await userApi.post(`approval_requests/${id}/${decision}`, { headers: { 'Idempotency-Key': crypto.randomUUID() } }).json(),
      ),
    onSuccess: (decided) => {
      queryClient.setQueryData(approvalQueries.request(decided.request_id), decided);
      // Users-management lists and tabs show approval states too.
      void queryClient.invalidateQueries({ queryKey: approvalQueries.pending() });
      void queryClient.invalidateQueries({ queryKey: ['users-admin'] });
    },
    // Refused (decided meanwhile by someone else: 409, or gone: 404): the page shows the request as it is now.
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: approvalQueries.request(id) });
      void queryClient.invalidateQueries({ queryKey: approvalQueries.pending() });
    },
  });
}
