import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { countrySuggestionsResponse } from '../../../contract/priority';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { priorityQueries } from './get-priorities';

/** GET /user_api/v1/tracking/uap/suggestions/countries: country codes starting with the typed text. */
export const getCountrySuggestions = async (query: string): Promise<string[]> =>
  countrySuggestionsResponse.parse(
    await userApi.get('tracking/uap/suggestions/countries', { searchParams: toSearchParams({ query: query || undefined }) }).json(),
  ).items;

export function useCountrySuggestions(query: string) {
  return useQuery({
    queryKey: priorityQueries.countries(query),
    queryFn: () => getCountrySuggestions(query),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
    // Suggestions are a help, not data: a failure is only logged (§8 "UAP calls").
    meta: { silent: true },
  });
}
