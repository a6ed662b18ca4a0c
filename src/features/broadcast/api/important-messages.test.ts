/** A broadcast save names the list its edit started from, so the server refuses one that would undo another super manager's save unseen. */
import { HTTPError, type NormalizedOptions } from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importantMessagesBody } from '../../../contract/parts';
import { partsApi } from '../../../lib/api-client';
import { isImportantMessagesChangedMeanwhile, setImportantMessages } from './important-messages';

const refusal = (status: number, body: unknown) => new HTTPError(new Response(JSON.stringify(body), { status }), new Request('http://api.test/x'), {} as NormalizedOptions);

describe('saving the broadcast messages', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('sends the messages with the list the edit started from, in a body the server accepts', async () => {
    const put = vi.spyOn(partsApi, 'put').mockReturnValue({ json: async () => ({ important_messages: ['New'] }) } as never);
    expect(await setImportantMessages({ messages: ['New'], expected: ['Old one', 'Old two'] })).toEqual({ important_messages: ['New'] });
    const [path, options] = put.mock.calls[0]!;
    expect(path).toBe('users/important-message');
    const json = (options as { json: unknown }).json;
    expect(json).toEqual({ important_messages: ['New'], expected: ['Old one', 'Old two'] });
    expect(importantMessagesBody.safeParse(json).success).toBe(true);
    // Started from no message at all: an empty list is named too (someone else's first message is a change).
    expect(importantMessagesBody.safeParse({ important_messages: ['New'], expected: [] }).success).toBe(true);
  });

  it('tells a list changed meanwhile from other refusals', async () => {
    expect(await isImportantMessagesChangedMeanwhile(refusal(409, { message: 'changed', code: 'importantMessagesChangedMeanwhile' }))).toBe(true);
    expect(await isImportantMessagesChangedMeanwhile(refusal(409, { message: 'Another conflict' }))).toBe(false);
    expect(await isImportantMessagesChangedMeanwhile(refusal(403, { message: 'Not allowed', code: 'importantMessagesChangedMeanwhile' }))).toBe(false);
    expect(await isImportantMessagesChangedMeanwhile(new TypeError('Failed to fetch'))).toBe(false);
  });
});
