import { useMutation, useQueryClient } from '@tanstack/react-query';
import { shipToPartyCodesResponse } from '../../../contract/priority';
import { userApi } from '../../../lib/api-client';
import { sessionQueries } from '../../../lib/profile';
import { sendOnce } from '../../../lib/send-once';
import { priorityQueries } from './get-priorities';

/**
 * DELETE /user_api/v1/ship_to_party_codes/{code}: a number the user added by upload, given back;
 * the numbers held then. Pressed again after no answer, the same request (sendOnce): not a 404.
 */
export const removeShipToParty = (code: string): Promise<string[]> =>
  sendOnce('priority', `ship_to_party_codes:${code}`, null, async (key) =>
    shipToPartyCodesResponse.parse(await userApi.delete(`ship_to_party_codes/${encodeURIComponent(code)}`, { headers: { 'Idempotency-Key': key } }).json())
      .ship_to_party_codes,
  );

export function useRemoveShipToParty() {
  const queryClient = useQueryClient();
  return useMutation({
    // Never paused for a connection: offline the button is off, a connection lost meanwhile fails at once.
    networkMode: 'always',
    mutationFn: removeShipToParty,
    onSuccess: (codes) => {
      queryClient.setQueryData(priorityQueries.shipToPartyCodes(), codes);
      // The profile's numbers decide what the user may write, the list what they read.
      void queryClient.invalidateQueries({ queryKey: priorityQueries.all() });
      void queryClient.invalidateQueries({ queryKey: sessionQueries.profile().queryKey });
    },
  });
}
