import { useMutation, useQueryClient } from '@tanstack/react-query';
import { importantMessagesResponse } from '../../../contract/parts';
import { partsApi } from '../../../lib/api-client';
import { sessionQueries } from '../../../lib/profile';

/** PUT /parts/v1/users/important-message: replaces the messages every user sees. */
export const setImportantMessages = async (messages: string[]) =>
  importantMessagesResponse.parse(
    await partsApi
      .put('users/important-message', { json: { important_messages: messages }, headers: { 'Idempotency-Key': crypto.randomUUID() } })
      .json(),
  );

/** DELETE /parts/v1/users/important-message: no message any more; the alert disappears. */
export const clearImportantMessages = async () =>
  importantMessagesResponse.parse(await partsApi.delete('users/important-message', { headers: { 'Idempotency-Key': crypto.randomUUID() } }).json());

/** Either change refreshes the caller's profile, whose importantMessages feed the top-bar alert. */
export function useImportantMessagesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (messages: string[] | null) => (messages === null ? clearImportantMessages() : setImportantMessages(messages)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueries.all() }),
  });
}
