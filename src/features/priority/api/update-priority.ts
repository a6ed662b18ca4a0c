import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uapInfo, type UpdatePriorityBody } from '../../../contract/priority';
import { userApi } from '../../../lib/api-client';
import { priorityQueries } from './get-priorities';

/** PUT /user_api/v1/uap_priority: one access point's priority for one ship-to-party number. */
export const updatePriority = async (body: UpdatePriorityBody) =>
  uapInfo.parse(await userApi.put('uap_priority', { json: body, headers: { 'Idempotency-Key': crypto.randomUUID() } }).json());

export function useUpdatePriority() {
  const queryClient = useQueryClient();
  return useMutation({
    // Never paused for a connection: a paused save was sent later, unseen, after the editor had
    // closed. Offline Save is off; a connection lost meanwhile fails at once (the alert says so).
    networkMode: 'always',
    mutationFn: updatePriority,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: priorityQueries.all() }),
  });
}
