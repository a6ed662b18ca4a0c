import { HTTPError, TimeoutError, type NormalizedOptions } from 'ky';
import { describe, expect, it } from 'vitest';
import { sendOnce } from './send-once';

const answer = (status: number) => new HTTPError(new Response('{}', { status }), new Request('http://api.test/x'), {} as NormalizedOptions);

/** Sends through sendOnce, failing with `failure` (or answering), and gives back the key it was sent under. */
async function keyOf(scope: string, content: unknown, failure?: unknown): Promise<string> {
  let used = '';
  await sendOnce(scope, content, async (key) => {
    used = key;
    if (failure) throw failure;
    return 'ok';
  }).catch((error: unknown) => {
    if (error !== failure) throw error;
  });
  return used;
}

describe('sendOnce', () => {
  it.each([
    ['no connection', new TypeError('Failed to fetch')],
    ['a time-out', new TimeoutError(new Request('http://api.test/x'))],
    ['a gateway 502', answer(502)],
    ['a gateway 503', answer(503)],
    ['a gateway 504', answer(504)],
  ])('keeps the key of a send left unsure by %s: the same content again is the same request', async (_, failure) => {
    const scope = `unsure-${String(_)}`;
    const first = await keyOf(scope, { priority: 2 }, failure);
    const again = await keyOf(scope, { priority: 2 });
    expect(again).toBe(first);
    // Answered: forgotten, the same content once more is a new request.
    expect(await keyOf(scope, { priority: 2 })).not.toBe(first);
  });

  it.each([
    ['a success', undefined],
    ['a refusal (409)', answer(409)],
    ['a refusal (412)', answer(412)],
    ['a server error (500)', answer(500)],
    ['an answer that does not parse', new Error('Expected string, received number')],
  ])('forgets the key after %s: the same content sent again is a new request', async (_, failure) => {
    const scope = `answered-${String(_)}`;
    const first = await keyOf(scope, { priority: 2 }, failure);
    expect(await keyOf(scope, { priority: 2 })).not.toBe(first);
  });

  it('gives another content its own key, and remembers only the last unsure one of a scope', async () => {
    const offline = new TypeError('Failed to fetch');
    const a = await keyOf('slot', { priority: 1 }, offline);
    const b = await keyOf('slot', { priority: 2 }, offline);
    expect(b).not.toBe(a);
    expect(await keyOf('slot', { priority: 1 }, offline)).not.toBe(a);
  });

  it('keeps scopes apart: an answer in one forgets nothing of another', async () => {
    const offline = new TypeError('Failed to fetch');
    const kept = await keyOf('user-a', null, offline);
    await keyOf('user-b', null);
    expect(await keyOf('user-a', null)).toBe(kept);
  });

  it('passes the answer and the failure through unchanged', async () => {
    await expect(sendOnce('through', 1, async () => 42)).resolves.toBe(42);
    const refusal = answer(409);
    await expect(sendOnce('through', 1, () => Promise.reject(refusal))).rejects.toBe(refusal);
  });
});
