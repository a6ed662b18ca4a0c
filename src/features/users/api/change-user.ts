/**
 * The writes of user administration: PUT /users/{uid}/permissions, PUT /users/{uid}/expiration_date,
 * DELETE /users/{uid}. Each sends an Idempotency-Key, one per content while its outcome is unsure
 * (sendOnce): pressed again after no answer, it is answered from its first time, not refused as
 * changed meanwhile (412) or gone (404) because of it. Each
 * refreshes every user list afterwards. Errors stay in the dialog (silent for the global alert).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { expirationTag, removedUser, userPermissions, userRow, type UpdatePermissionsBody } from '../../../contract/users';
import { statusOf, userApi } from '../../../lib/api-client';
import { sendOnce } from '../../../lib/send-once';
import { userQueries } from './get-users';
import { isOffline } from '../../../offline/errors';

function useUserMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    // Offline, refused before ky's retries of a failed connection (seconds of spinning, after
    // which a connection come back meanwhile would still send what the manager cancelled).
    mutationFn: (variables: TVariables) => (isOffline() ? Promise.reject(new TypeError('Failed to fetch: this device is offline')) : mutationFn(variables)),
    // Sent now or refused now: offline, TanStack's default paused the call, the dialog spun, and
    // the change went out once the connection came back, even after the manager pressed Cancel
    // (a user removed, permissions changed, unseen). Offline it fails at once, and the dialog says so.
    networkMode: 'always',
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueries.all() }),
  });
}

/** `version`: the ETag the form was opened from (If-Match): a change made meanwhile by someone else is not undone (412). */
export function useUpdatePermissions(uid: string) {
  const queryClient = useQueryClient();
  return useUserMutation(async ({ body, version }: { body: UpdatePermissionsBody; version: string | null }) => {
    try {
      return await sendOnce('users', `users/${uid}/permissions`, { body, version }, async (key) =>
        userPermissions.parse(
          await userApi.put(`users/${uid}/permissions`, { json: body, headers: { 'Idempotency-Key': key, ...(version ? { 'If-Match': version } : {}) } }).json(),
        ),
      );
    } catch (error) {
      // Changed meanwhile: opened again, the form reads them afresh (not the copy it was opened
      // from). Marked only: read now, the open form would start over and lose its message.
      if (statusOf(error) === 412) void queryClient.invalidateQueries({ queryKey: userQueries.permissions(uid), refetchType: 'none' });
      throw error;
    }
  });
}

/**
 * `openedWith`: the date the dialog was opened with (If-Match): a date set meanwhile by someone
 * else is not overwritten (412), as with the permissions.
 */
export function useUpdateExpiration(uid: string) {
  const queryClient = useQueryClient();
  return useUserMutation(async ({ expirationDate, openedWith }: { expirationDate: string | null; openedWith: string | null }) => {
    try {
      return await sendOnce('users', `users/${uid}/expiration_date`, { expirationDate, openedWith }, async (key) =>
        userRow.parse(
          await userApi
            .put(`users/${uid}/expiration_date`, { json: { expirationDate }, headers: { 'Idempotency-Key': key, 'If-Match': expirationTag(openedWith) } })
            .json(),
        ),
      );
    } catch (error) {
      // Changed meanwhile: the lists are read again, so the dialog opened again starts from the
      // current date. The open dialog keeps its own copy of the row, so its message stays.
      if (statusOf(error) === 412) void queryClient.invalidateQueries({ queryKey: [...userQueries.all(), 'list'] });
      throw error;
    }
  });
}

export const useRemoveUser = (uid: string) =>
  useUserMutation(() =>
    sendOnce('users', `users/${uid}:remove`, null, async (key) => removedUser.parse(await userApi.delete(`users/${uid}`, { headers: { 'Idempotency-Key': key } }).json())),
  );
