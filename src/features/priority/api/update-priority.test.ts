/**
 * A priority save acts on what its editor was shown (decision 0065): it sends the state the editor
 * was opened with, tells a change by someone else apart from other refusals, and reads the list
 * again after a refused save as after a saved one (a failed save left the list as it was).
 */
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { HTTPError, type NormalizedOptions } from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { updatePriorityBody } from '../../../contract/priority';
import { userApi } from '../../../lib/api-client';
import { priorityQueries } from './get-priorities';
import { isPriorityChangedMeanwhile, priorityEditBody, updatePriorityMutation } from './update-priority';

const refusal = (status: number, body: unknown) => new HTTPError(new Response(JSON.stringify(body), { status }), new Request('http://api.test/uap_priority'), {} as NormalizedOptions);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a priority save', () => {
  it('sends what the user chose and what the editor was opened with, in a body the server accepts', () => {
    const body = priorityEditBody('0050010001', 'FI-AP-1', { priority: 4, isEnabled: true }, { priority: 3, isEnabled: true });
    expect(body).toEqual({ shipToPartyCode: '0050010001', accessPointId: 'FI-AP-1', priority: 4, isEnabled: true, expectedPriority: 3, expectedIsEnabled: true });
    expect(updatePriorityBody.safeParse(body).success).toBe(true);
    // Older clients send no expectation: still a valid body.
    expect(updatePriorityBody.safeParse({ shipToPartyCode: '0050010001', accessPointId: 'FI-AP-1', priority: 4 }).success).toBe(true);
  });

  it('tells a row changed by someone else apart from other refusals', async () => {
    expect(await isPriorityChangedMeanwhile(refusal(409, { message: 'changed', code: 'priorityChangedMeanwhile' }))).toBe(true);
    expect(await isPriorityChangedMeanwhile(refusal(409, { message: 'taken', code: 'priorityTakenByOther' }))).toBe(false);
    expect(await isPriorityChangedMeanwhile(refusal(404, { message: 'none', code: 'priorityNotFound' }))).toBe(false);
    expect(await isPriorityChangedMeanwhile(new TypeError('Failed to fetch'))).toBe(false);
  });

  it('reads the priority list again after a refused save, as after a saved one', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const key = priorityQueries.list({ query: '', countries: [] });
    client.setQueryData(key, { items: [] });
    const put = vi.spyOn(userApi, 'put').mockImplementation(() => {
      throw refusal(409, { message: 'changed', code: 'priorityChangedMeanwhile' });
    });
    const observer = new MutationObserver(client, { ...updatePriorityMutation(client), meta: { silent: true } });
    await expect(observer.mutate(priorityEditBody('0050010001', 'FI-AP-1', { priority: 4, isEnabled: true }, { priority: 3, isEnabled: true }))).rejects.toBeInstanceOf(HTTPError);
    expect(put).toHaveBeenCalledOnce();
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });
});
