import { HTTPError, TimeoutError, type NormalizedOptions } from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendOnce, UNSURE_KEY_MS } from './send-once';

const answer = (status: number) => new HTTPError(new Response('{}', { status }), new Request('http://api.test/x'), {} as NormalizedOptions);

/** Sends through sendOnce, failing with `failure` (or answering), and gives back the key it was sent under. */
async function keyOf(scope: string, content: unknown, failure?: unknown, group = 'g'): Promise<string> {
  let used = '';
  await sendOnce(group, scope, content, async (key) => {
    used = key;
    if (failure) throw failure;
    return 'ok';
  }).catch((error: unknown) => {
    if (error !== failure) throw error;
  });
  return used;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sendOnce', () => {
  it.each([
    ['no connection', new TypeError('Failed to fetch')],
    ['a time-out', new TimeoutError(new Request('http://api.test/x'))],
    ['a gateway 502', answer(502)],
    ['a gateway 503', answer(503)],
    ['a gateway 504', answer(504)],
    // Answers that say nothing of an earlier try under the key (ky retries under it): it may have been applied.
    ['a server error 500', answer(500)],
    ['too many requests 429', answer(429)],
    ['a request time-out 408', answer(408)],
    ['a sign-in run out 401', answer(401)],
  ])('keeps the key of a send left unsure by %s: the same content again is the same request', async (name, failure) => {
    const scope = `unsure-${name}`;
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
    ['a refusal (404)', answer(404)],
    ['a refusal (422)', answer(422)],
    ['an answer that does not parse', new Error('Expected string, received number')],
  ])('forgets the key after %s: the same content sent again is a new request', async (name, failure) => {
    const scope = `answered-${name}`;
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

  it('forgets every unsure key of a group once one of its writes is answered: the state may have moved on since', async () => {
    const offline = new TypeError('Failed to fetch');
    // A number removed without an answer, then uploaded again (answered), then removed again: a new removal, not a replay.
    const removal = await keyOf('ship_to_party_codes:1', null, offline, 'priority');
    await keyOf('uploads', 'file-digest', undefined, 'priority');
    expect(await keyOf('ship_to_party_codes:1', null, offline, 'priority')).not.toBe(removal);
    // Another group's answer forgets nothing of this one.
    const kept = await keyOf('users/a/permissions', { v: 1 }, offline, 'users');
    await keyOf('anything', null, undefined, 'priority');
    expect(await keyOf('users/a/permissions', { v: 1 }, undefined, 'users')).toBe(kept);
  });

  it('keeps an unsure key ten minutes after its last unsure try', async () => {
    vi.useFakeTimers();
    const offline = new TypeError('Failed to fetch');
    const first = await keyOf('late', null, offline);
    vi.advanceTimersByTime(UNSURE_KEY_MS - 1000);
    expect(await keyOf('late', null, offline)).toBe(first);
    vi.advanceTimersByTime(UNSURE_KEY_MS - 1000);
    expect(await keyOf('late', null, offline)).toBe(first);
    vi.advanceTimersByTime(UNSURE_KEY_MS + 1000);
    expect(await keyOf('late', null, offline)).not.toBe(first);
  });

  it('keeps the key of a send that ends unsure after another write of its group was answered meanwhile', async () => {
    let fail!: (error: unknown) => void;
    let used = '';
    const slow = sendOnce('rows', 'row-1', { priority: 1 }, (key) => {
      used = key;
      return new Promise((_, reject) => (fail = reject));
    });
    await keyOf('row-2', { priority: 2 }, undefined, 'rows');
    fail(new TypeError('Failed to fetch'));
    await expect(slow).rejects.toThrow('Failed to fetch');
    expect(await keyOf('row-1', { priority: 1 }, undefined, 'rows')).toBe(used);
  });

  it('sends two presses at once under one key (the server applies it once and replays it to the other)', async () => {
    const keys: string[] = [];
    const send = (key: string) => {
      keys.push(key);
      return Promise.reject(new TypeError('Failed to fetch'));
    };
    await Promise.allSettled([sendOnce('g', 'twice', 1, send), sendOnce('g', 'twice', 1, send)]);
    expect(keys[1]).toBe(keys[0]);
  });

  it('passes the answer and the failure through unchanged', async () => {
    await expect(sendOnce('g', 'through', 1, async () => 42)).resolves.toBe(42);
    const refusal = answer(409);
    await expect(sendOnce('g', 'through', 1, () => Promise.reject(refusal))).rejects.toBe(refusal);
  });
});
