/** GET /user_api/v1/users | users/approved | users/my_plant: one page of a users-management tab. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usersPage, type UserList, type UsersPage } from '../../../contract/users';
import { PAGE_SIZE } from '../../../domain/constants';
import { toSearchParams, userApi } from '../../../lib/api-client';

const PATHS: Record<UserList, string> = { all: 'users', approved: 'users/approved', my_plant: 'users/my_plant' };

export const getUsers = async (list: UserList, query: string, page: number): Promise<UsersPage> =>
  usersPage.parse(
    await userApi.get(PATHS[list], { searchParams: toSearchParams({ query: query || undefined, page, maxResults: PAGE_SIZE }) }).json(),
  );

/** One key factory for everything user administration reads; mutations invalidate `all()`. */
export const userQueries = {
  all: () => ['users-admin'] as const,
  list: (list: UserList, query: string, page: number) => [...userQueries.all(), 'list', list, query.toLowerCase(), page] as const,
  permissions: (uid: string) => [...userQueries.all(), 'permissions', uid] as const,
  grantOptions: () => [...userQueries.all(), 'grant-options'] as const,
  plantOptions: (plant: string) => [...userQueries.all(), 'plant-options', plant] as const,
  history: (uid: string, page: number) => [...userQueries.all(), 'history', uid, page] as const,
  pending: () => [...userQueries.all(), 'pending'] as const,
};

export function useUsers(list: UserList, query: string, page: number, enabled = true) {
  return useQuery({
    queryKey: userQueries.list(list, query, page),
    queryFn: () => getUsers(list, query, page),
    placeholderData: keepPreviousData,
    enabled,
    meta: { mainList: true },
  });
}
