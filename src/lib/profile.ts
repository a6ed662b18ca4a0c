/**
 * What every screen needs to start: the profile, the permission constants and the allowed
 * plants (§2 navigation guard). One query-key factory; parsed with the shared contract.
 */
import { queryOptions, useQuery, type QueryClient, type QueryFunctionContext } from '@tanstack/react-query';
import { allowedPlants, permissionConstants, profile, type Profile, type UpdateProfileBody } from '../contract/user-api';
import { inAllowedPlants, type AllowedPlants } from '../domain/permissions';
import { networkFirst, mirrorKey, writeMirror } from '../offline/mirror';
import { lateOutcome } from '../offline/use-mirrored-query';
import { userApi } from './api-client';
import { getSession } from './auth/session';

/** Where the signed-in user's copy of one start read (`name`) is kept on the device. */
const sessionCopy = (name: string) => ({ key: mirrorKey(getSession()?.email ?? 'anonymous', ['session', name]), scope: 'session' });

/**
 * What the app needs to start is mirrored, so it starts in a basement too (ARCHITECTURE §3); a
 * late answer after the saved copy was shown (offline/mirror.ts) replaces it in the cache.
 */
async function mirrored<T>(name: string, fetcher: () => Promise<T>, { client, queryKey }: QueryFunctionContext): Promise<T> {
  // A late answer only over the copy it follows; a late refusal (401, 403) reaches the guard as the query's error.
  const late = lateOutcome<T>(client, queryKey);
  return (
    await networkFirst({
      ...sessionCopy(name),
      fetcher,
      stillShown: late.stillShown,
      onLateAnswer: (fresh) => late.answer(fresh.data),
      onLateFailure: late.failure,
    })
  ).data;
}

export const sessionQueries = {
  all: () => ['session'] as const,
  profile: () => queryOptions({
    queryKey: [...sessionQueries.all(), 'profile', getSession()?.email ?? null] as const,
    queryFn: (context) => mirrored('profile', async () => profile.parse(await userApi.get('user/profile').json()), context),
    staleTime: 5 * 60_000,
    // The guard routes 403s (expired, pending) itself: they are not errors to show.
    meta: { silent: true },
  }),
  permissions: () => queryOptions({
    queryKey: [...sessionQueries.all(), 'permissions'] as const,
    queryFn: (context) => mirrored('permissions', async () => permissionConstants.parse(await userApi.get('constants/permissions').json()), context),
    staleTime: 60 * 60_000,
    meta: { silent: true },
  }),
  allowedPlants: () => queryOptions({
    queryKey: [...sessionQueries.all(), 'allowed-plants'] as const,
    queryFn: (context): Promise<AllowedPlants> =>
      mirrored('allowed-plants', async () => allowedPlants.parse(await userApi.get('system_parameters/allowed_plants').json()), context),
    staleTime: 60 * 60_000,
    meta: { silent: true },
  }),
};

export async function updateProfile(body: UpdateProfileBody): Promise<Profile> {
  return profile.parse(await userApi.put('user/profile', { json: body }).json());
}

/**
 * Changes the profile and keeps the server's answer where the app reads it: the screens at once,
 * and the device's copy, which an offline start reads (the guard). Only the screens' copy let a
 * changed language come back as the old one when the app was next opened offline: the guard
 * switched to the profile of the last read. A device copy that cannot be written (a full disk,
 * which sets the storage banner) costs only that offline start: the change is the server's.
 */
export async function saveProfile(client: QueryClient, body: UpdateProfileBody): Promise<Profile> {
  const saved = await updateProfile(body);
  client.setQueryData(sessionQueries.profile().queryKey, saved);
  try {
    await writeMirror(sessionCopy('profile'), saved);
  } catch (error) {
    console.warn('The changed profile was saved, but not its copy on this device:', error);
  }
  return saved;
}

/** The loaded profile; only for screens behind the guard, which guarantees it is there. */
export function useProfile(): Profile {
  const { data } = useQuery(sessionQueries.profile());
  if (!data) throw new Error('useProfile is used outside the navigation guard');
  return data;
}

const NO_PLANTS: AllowedPlants = {
  notifications_allowed_plants: [],
  stock_count_allowed_plants: [],
  count_deadline_allowed_plants: [],
  show_zero_stock_material_plants: [],
};

export function useAllowedPlants(): AllowedPlants {
  return useQuery(sessionQueries.allowedPlants()).data ?? NO_PLANTS;
}

/** §6: whether notifications are used in one of the user's plants (notification screens and entries show only then). */
export function useInNotificationPlants(profile: Pick<Profile, 'permissions' | 'plants'>): boolean {
  const allowedPlants = useAllowedPlants();
  return inAllowedPlants(profile.permissions, profile.plants, allowedPlants.notifications_allowed_plants);
}
