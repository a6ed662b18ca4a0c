import { useMutation, useQueryClient } from '@tanstack/react-query';
import { importantMessagesResponse } from '../../../contract/parts';
import { partsApi, isCodedRefusal } from '../../../lib/api-client';
import { sessionQueries } from '../../../lib/profile';
import { sendOnce } from '../../../lib/send-once';

/** A save of the list: the messages to send and the list the edit started from (as the server gave it). */
export interface ImportantMessagesSave {
  messages: string[];
  expected: string[];
}

/**
 * PUT /parts/v1/users/important-message: replaces the messages every user sees, only if the list
 * stored is still `expected` (else 409 importantMessagesChangedMeanwhile, nothing saved). Saved
 * again after no answer, under the first try's key (sendOnce): not refused because of that try.
 */
export const setImportantMessages = ({ messages, expected }: ImportantMessagesSave) =>
  sendOnce('important-message', 'list', { messages, expected }, async (key) =>
    importantMessagesResponse.parse(
      await partsApi.put('users/important-message', { json: { important_messages: messages, expected }, headers: { 'Idempotency-Key': key } }).json(),
    ),
  );

/** DELETE /parts/v1/users/important-message: no message any more; the alert disappears. */
export const clearImportantMessages = () =>
  sendOnce('important-message', 'list', null, async (key) =>
    importantMessagesResponse.parse(await partsApi.delete('users/important-message', { headers: { 'Idempotency-Key': key } }).json()),
  );

/** Another super manager saved the messages since this edit started (409 importantMessagesChangedMeanwhile): nothing was saved. */
export const isImportantMessagesChangedMeanwhile = (error: unknown): Promise<boolean> => isCodedRefusal(error, 409, 'importantMessagesChangedMeanwhile');

/** Either change refreshes the caller's profile, whose importantMessages feed the top-bar alert. */
export function useImportantMessagesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: ImportantMessagesSave | null) => (save === null ? clearImportantMessages() : setImportantMessages(save)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueries.all() }),
  });
}
