import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { uapInfo, type UapInfo, type UpdatePriorityBody } from '../../../contract/priority';
import { userApi, isCodedRefusal } from '../../../lib/api-client';
import { sendOnce } from '../../../lib/send-once';
import { priorityQueries } from './get-priorities';

/**
 * PUT /user_api/v1/uap_priority: one access point's priority for one ship-to-party number. Saved
 * again after no answer, under the first try's key (sendOnce): answered as saved, not refused as
 * changed meanwhile by its own first try.
 */
export const updatePriority = (body: UpdatePriorityBody) =>
  sendOnce('priority', `uap_priority:${body.shipToPartyCode}:${body.accessPointId}`, body, async (key) =>
    uapInfo.parse(await userApi.put('uap_priority', { json: body, headers: { 'Idempotency-Key': key } }).json()),
  );

type PriorityState = Pick<UapInfo, 'priority' | 'isEnabled'>;

/**
 * The save of an editor: what the user chose, and what the editor was opened with (decision 0065),
 * so the server refuses a row someone else changed since instead of writing over it unseen.
 */
export const priorityEditBody = (shipToPartyCode: string, accessPointId: string, chosen: PriorityState, opened: PriorityState): UpdatePriorityBody => ({
  shipToPartyCode,
  accessPointId,
  priority: chosen.priority,
  isEnabled: chosen.isEnabled,
  expectedPriority: opened.priority,
  expectedIsEnabled: opened.isEnabled,
});

/** Someone else changed the row since the editor opened (409 priorityChangedMeanwhile): nothing was saved. */
export const isPriorityChangedMeanwhile = (error: unknown): Promise<boolean> => isCodedRefusal(error, 409, 'priorityChangedMeanwhile');

/** The mutation's options, with the client whose priority lists it reads again. */
export const updatePriorityMutation = (queryClient: QueryClient) =>
  mutationOptions({
    // Never paused for a connection: a paused save was sent later, unseen, after the editor had
    // closed. Offline Save is off; a connection lost meanwhile fails at once (the alert says so).
    networkMode: 'always',
    mutationFn: updatePriority,
    // A refused save too: the list shows the rows as they are now (someone else's change, an
    // access point gone), not as they were when the editor opened.
    onSettled: () => queryClient.invalidateQueries({ queryKey: priorityQueries.all() }),
  });

export function useUpdatePriority() {
  return useMutation(updatePriorityMutation(useQueryClient()));
}
