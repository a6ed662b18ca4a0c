/** POST /user_api/v1/feedback (one of the six forms) and GET /feedback/plants (§6: the plants a form may name). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { feedbackPlants, type FeedbackBody } from '../../../contract/feedback';
import type { Profile } from '../../../contract/user-api';
import { isSuperManager } from '../../../domain/permissions';
import { postFeedback } from './feedback-drafts';
import { userApi } from '../../../lib/api-client';
import { useProfile } from '../../../lib/profile';

export const feedbackQueries = {
  all: () => ['feedback'] as const,
  plants: () => [...feedbackQueries.all(), 'plants'] as const,
};

/** A plant a form may name; its name where the server's list is at hand. */
export interface FeedbackPlant {
  code: string;
  name?: string;
}

/**
 * The plants a form offers: the server's list (with names); until it is at hand (offline, where it
 * is not kept on the device, or a failed read) the profile's own plants, which the profile, kept
 * on the device for the start, holds. The server's list is those same plants (§6) for everyone
 * but super managers, whose list is every plant and comes from the server only. undefined: no
 * list at hand.
 */
export function feedbackPlantChoices(fetched: readonly FeedbackPlant[] | undefined, profile: Pick<Profile, 'permissions' | 'plants'>): readonly FeedbackPlant[] | undefined {
  if (fetched) return fetched;
  if (isSuperManager(profile.permissions)) return undefined;
  return profile.plants.map((code) => ({ code }));
}

/**
 * The plants a form may name (`feedbackPlantChoices`), and whether there is no list to offer now
 * (`isUnavailable`: no list and none being read; the form says so next to its plant field).
 */
export function useFeedbackPlants(): { plants: readonly FeedbackPlant[] | undefined; isUnavailable: boolean } {
  const profile = useProfile();
  const query = useQuery({
    queryKey: feedbackQueries.plants(),
    queryFn: async () => feedbackPlants.parse(await userApi.get('feedback/plants').json()).plants,
    staleTime: 10 * 60_000,
    // Said next to the plant field where it matters (no list to offer), not in an alert: most
    // users choose from their profile's plants meanwhile.
    meta: { silent: true },
  });
  const plants = feedbackPlantChoices(query.data, profile);
  return { plants, isUnavailable: plants === undefined && query.fetchStatus !== 'fetching' };
}

/**
 * Sends one form. The Idempotency-Key is the draft's (feedback-form.tsx): sending the same text again
 * after an answer was lost is applied once. The Sent feedback list is read again after it.
 */
export function useSendFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ body, key }: { body: FeedbackBody; key: string }) => postFeedback(body, key),
    // The status monitor's Sent feedback sub-tab (notifications/api/related-lists.ts).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications', 'sent-feedback'] }),
  });
}
