/** Offline the approval screen's reads fail at once (its LoadError says "no connection"), never wait for ever. */
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalRequestQuery, pendingApprovalsQuery } from './approval-requests';

afterEach(() => onlineManager.setOnline(true));

/** The query as the screen runs it, its call failing the way fetch does offline. */
async function offlineFailure(options: ReturnType<typeof approvalRequestQuery> | ReturnType<typeof pendingApprovalsQuery>): Promise<unknown> {
  onlineManager.setOnline(false);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const failed = client
    .fetchQuery({
      ...options,
      queryFn: () => Promise.reject(new TypeError('Failed to fetch')),
    } as Parameters<typeof client.fetchQuery>[0])
    .catch((error: unknown) => error);
  // Paused (networkMode 'online') the promise never settles: the screen showed its spinner for ever.
  const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200));
  return Promise.race([failed, waiting]);
}

describe('approval reads offline', () => {
  it('fail at once instead of pausing until a connection comes', async () => {
    expect(await offlineFailure(approvalRequestQuery('r1'))).toBeInstanceOf(TypeError);
    expect(await offlineFailure(pendingApprovalsQuery())).toBeInstanceOf(TypeError);
    // The check itself: TanStack's default would still be waiting.
    expect(await offlineFailure({ ...pendingApprovalsQuery(), networkMode: 'online' })).toBe('still waiting');
  });
});
