import { prioritiesResponse, type PrioritiesResponse } from '../../../contract/priority';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { useMirroredQuery } from '../../../offline/use-mirrored-query';

export interface PrioritiesParams {
  query: string;
  countries: string[];
}

/** GET /user_api/v1/tracking/uap/priorities: access points per ship-to-party, mirrored for offline. */
export const getPriorities = async (params: PrioritiesParams): Promise<PrioritiesResponse> =>
  prioritiesResponse.parse(
    await userApi
      .get('tracking/uap/priorities', { searchParams: toSearchParams({ query: params.query || undefined, countries: params.countries }) })
      .json(),
  );

export const priorityQueries = {
  all: () => ['priorities'] as const,
  list: (params: PrioritiesParams) => [...priorityQueries.all(), 'list', params] as const,
  countries: (query: string) => [...priorityQueries.all(), 'countries', query] as const,
  shipToPartyCodes: () => [...priorityQueries.all(), 'ship-to-party-codes'] as const,
};

export function usePriorities(userEmail: string, params: PrioritiesParams) {
  return useMirroredQuery({
    queryKey: priorityQueries.list(params),
    userEmail,
    scope: 'priorities',
    fetcher: () => getPriorities(params),
    mainList: true,
    // §8: failures of the UAP calls are only logged; the screen says what failed.
    silent: true,
  });
}
