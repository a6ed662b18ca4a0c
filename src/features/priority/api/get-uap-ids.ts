import { useQuery } from '@tanstack/react-query';
import { uapIdsResponse } from '../../../contract/priority';
import { userApi } from '../../../lib/api-client';
import { priorityQueries } from './get-priorities';

/**
 * GET /user_api/v1/uap_priority (§7): every access point id a priority may name. The priority
 * search suggests them as the user types an access point (#19 item 10). A failure is only
 * logged (§8 UAP calls): the search works without suggestions.
 */
export const getUapIds = async (): Promise<string[]> => uapIdsResponse.parse(await userApi.get('uap_priority').json()).uap_ids;

export function useUapIds(enabled: boolean) {
  return useQuery({ queryKey: [...priorityQueries.all(), 'uap-ids'], queryFn: getUapIds, enabled, staleTime: 10 * 60_000, meta: { silent: true } });
}
