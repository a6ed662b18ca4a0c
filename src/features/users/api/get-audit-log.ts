/** GET /user_api/v1/audit_log?userId=: the history of changes to one user (super managers). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditLogPage } from '../../../contract/users';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { userQueries } from './get-users';

export function useUserHistory(uid: string, page: number) {
  return useQuery({
    queryKey: userQueries.history(uid, page),
    queryFn: async () =>
      auditLogPage.parse(await userApi.get('audit_log', { searchParams: toSearchParams({ userId: uid, page, maxResults: 10 }) }).json()),
    placeholderData: keepPreviousData,
    // Read by the history dialog, whose LoadError shows a failure: not the global alert a second time.
    meta: { silent: true },
  });
}
