import { useQuery } from '@tanstack/react-query';
import { shipToPartyCodesResponse } from '../../../contract/priority';
import { userApi } from '../../../lib/api-client';
import { priorityQueries } from './get-priorities';

/** GET /user_api/v1/ship_to_party_codes: the numbers the user holds (super managers: all). */
export const getShipToPartyCodes = async (): Promise<string[]> =>
  shipToPartyCodesResponse.parse(await userApi.get('ship_to_party_codes').json()).ship_to_party_codes;

export function useShipToPartyCodes() {
  return useQuery({ queryKey: priorityQueries.shipToPartyCodes(), queryFn: getShipToPartyCodes, meta: { silent: true } });
}
