/**
 * §7 approval requests: GET /approval_requests/{id}, GET /approval_requests/pending and the
 * decisions POST /approval_requests/{id}/approve | reject (with an Idempotency-Key).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalRequest, pendingApprovals } from '../../../contract/users';
import { userApi } from '../../../lib/api-client';

export const approvalQueries = {
  all: () => ['approvals'] as const,
  request: (id: string) => [...approvalQueries.all(), 'request', id] as const,
  pending: () => [...approvalQueries.all(), 'pending'] as const,
};

export function useApprovalRequest(id: string) {
  return useQuery({
    queryKey: approvalQueries.request(id),
    queryFn: async () => approvalRequest.parse(await userApi.get(`approval_requests/${id}`).json()),
  });
}

export function usePendingApprovals() {
  return useQuery({
    queryKey: approvalQueries.pending(),
    queryFn: async () => pendingApprovals.parse(await userApi.get('approval_requests/pending').json()),
  });
}

export function useDecideApproval(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
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
