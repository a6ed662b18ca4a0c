/** GET /user_api/v1/approval_requests/pending: the users-management tab of requests waiting for a decision. */
import { useQuery } from '@tanstack/react-query';
import { pendingApprovals } from '../../../contract/users';
import { userApi } from '../../../lib/api-client';
import { userQueries } from './get-users';

export function usePendingApprovals(enabled: boolean) {
  return useQuery({
    queryKey: userQueries.pending(),
    queryFn: async () => pendingApprovals.parse(await userApi.get('approval_requests/pending').json()),
    enabled,
    meta: { mainList: true },
  });
}
