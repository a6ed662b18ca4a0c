/** POST /user_api/v1/feedback (one of the six forms) and GET /feedback/plants (§6: the plants a form may name). */
import { useMutation, useQuery } from '@tanstack/react-query';
import { feedbackItem, feedbackPlants, type FeedbackBody } from '../../../contract/feedback';
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

export function useSendFeedback() {
  return useMutation({
    meta: { silent: true },
    mutationFn: async (body: FeedbackBody) =>
      feedbackItem.parse(await userApi.post('feedback', { json: body, headers: { 'Idempotency-Key': crypto.randomUUID() } }).json()),
  });
}
