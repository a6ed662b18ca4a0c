/** GET /users/{uid}/permissions, /users/grant_options and /users/plant_options: what the permission editor shows. */
import { useQuery } from '@tanstack/react-query';
import { grantOptions, plantOptions, userPermissions } from '../../../contract/users';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { userQueries } from './get-users';

export function useUserPermissions(uid: string) {
  return useQuery({
    queryKey: userQueries.permissions(uid),
    queryFn: async () => {
      const response = await userApi.get(`users/${uid}/permissions`);
      // Their version, sent back with a change: refused (412) if someone changed them since.
      return { ...userPermissions.parse(await response.json()), version: response.headers.get('etag') };
    },
    // A form open on them is not reset by a read in the background (focus, reconnect): it keeps
    // what is being typed; a save made by someone else meanwhile is caught by the version.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    // The permissions dialog's LoadError shows a failure: not the global alert a second time.
    meta: { silent: true },
  });
}

export function useGrantOptions() {
  return useQuery({
    queryKey: userQueries.grantOptions(),
    queryFn: async () => grantOptions.parse(await userApi.get('users/grant_options').json()),
    staleTime: 10 * 60_000,
    meta: { silent: true },
  });
}

export function usePlantOptions(plant: string) {
  return useQuery({
    queryKey: userQueries.plantOptions(plant),
    queryFn: async () => plantOptions.parse(await userApi.get('users/plant_options', { searchParams: toSearchParams({ plant }) }).json()),
    enabled: plant !== '',
    staleTime: 10 * 60_000,
  });
}
