/** GET /users/{uid}/permissions, /users/grant_options and /users/plant_options: what the permission editor shows. */
import { useQuery } from '@tanstack/react-query';
import { grantOptions, plantOptions, userPermissions } from '../../../contract/users';
import { toSearchParams, userApi } from '../../../lib/api-client';
import { userQueries } from './get-users';

export function useUserPermissions(uid: string) {
  return useQuery({
    queryKey: userQueries.permissions(uid),
    queryFn: async () => userPermissions.parse(await userApi.get(`users/${uid}/permissions`).json()),
  });
}

export function useGrantOptions() {
  return useQuery({
    queryKey: userQueries.grantOptions(),
    queryFn: async () => grantOptions.parse(await userApi.get('users/grant_options').json()),
    staleTime: 10 * 60_000,
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
