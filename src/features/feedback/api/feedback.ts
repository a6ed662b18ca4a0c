/** POST /user_api/v1/feedback (one of the six forms) and GET /feedback/plants (§6: the plants a form may name). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { feedbackPlants, type FeedbackBody } from '../../../contract/feedback';
import { postFeedback } from './feedback-drafts';
import { userApi } from '../../../lib/api-client';

export const feedbackQueries = {
  all: () => ['feedback'] as const,
  plants: () => [...feedbackQueries.all(), 'plants'] as const,
};

export function useFeedbackPlants() {
  return useQuery({
    queryKey: feedbackQueries.plants(),
    queryFn: async () => feedbackPlants.parse(await userApi.get('feedback/plants').json()).plants,
    staleTime: 10 * 60_000,
  });
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
