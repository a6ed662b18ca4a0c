/** GET /users/by_email: the colleague a PM-rights granter names (they list no users, §6). */
import { userRow, type UserRow } from '../../../contract/users';
import { toSearchParams, userApi } from '../../../lib/api-client';

export async function findUserByEmail(email: string, signal?: AbortSignal): Promise<UserRow> {
  return userRow.parse(await userApi.get('users/by_email', { searchParams: toSearchParams({ email }), ...(signal ? { signal } : {}) }).json());
}
