/**
 * Mirrored reads at the first sign of no network (#22): the saved copy at once while the call is
 * retried, the late answer after it; no saved copy, the call is waited for as before.
 */
import 'fake-indexeddb/auto';
import { QueryCache, QueryClient, QueryObserver } from '@tanstack/react-query';
import { HTTPError, type NormalizedOptions } from 'ky';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isFirstScreenDrawn, openAfterFirstScreen } from '../lib/after-first-screen';
import { createServiceClient } from '../lib/api-client';
import { nextNoAnswer, reportNoAnswer } from '../lib/no-answer';
import { offlineDb } from './db';
import { GoneError } from './errors';
import { NO_ANSWER_YET_MS, answerOrSavedCopy, networkFirst, readMirror, type Mirrored } from './mirror';
import { enqueue } from './outbox';
import { lateOutcome, mirroredQueryOptions } from './use-mirrored-query';

/** What ky throws for an answer with `status`. */
const httpError = (status: number) =>
  new HTTPError(new Response('{"message":"not now"}', { status }), new Request('http://api.test/x'), {} as NormalizedOptions);

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(async () => {
  vi.useRealTimers();
  await offlineDb.pages.clear();
  vi.unstubAllGlobals();
});

// Runs first: the gate of lib/after-first-screen.ts opens once per page and stays open.
describe('before the first screen is drawn (#22)', () => {
  it('a queued change writes the waiting copy before it patches it, so the patch is never overwritten', async () => {
    expect(isFirstScreenDrawn()).toBe(false);
    await networkFirst({ key: 'u|p', scope: 's', fetcher: async () => ({ n: 1, read: false }) });
    await enqueue({
      userEmail: 'u',
      kind: 'test-mark',
      scope: 's',
      target: 'p',
      request: { service: 'user', method: 'PUT', path: 'p', json: {} },
      apply: async () => {
        const saved = await offlineDb.pages.get('u|p');
        if (saved) await offlineDb.pages.put({ ...saved, data: { n: 1, read: true } });
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await offlineDb.pages.get('u|p'))?.data).toEqual({ n: 1, read: true });
    await offlineDb.outbox.clear();
  });

  it('keeps the copy in memory, answers reads of the key from it, and writes it when the screen is drawn', async () => {
    expect(isFirstScreenDrawn()).toBe(false);
    await networkFirst({ key: 'u|w', scope: 's', fetcher: async () => ({ n: 1 }) });
    await networkFirst({ key: 'u|w', scope: 's', fetcher: async () => ({ n: 2 }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await offlineDb.pages.get('u|w')).toBeUndefined();
    await expect(readMirror('u|w')).resolves.toMatchObject({ data: { n: 2 } });
    openAfterFirstScreen();
    await vi.waitFor(async () => expect((await offlineDb.pages.get('u|w'))?.data).toEqual({ n: 2 }));
  });
});

describe('networkFirst', () => {
  beforeEach(() => openAfterFirstScreen());

  it('answers with the server and saves the answer', async () => {
    const result = await networkFirst({ key: 'u|a', scope: 's', fetcher: async () => ({ n: 1 }) });
    expect(result).toMatchObject({ data: { n: 1 }, source: 'network' });
    // Saved behind the answer (#22): the device's next read of the key finds it.
    await expect(readMirror('u|a')).resolves.toMatchObject({ data: { n: 1 } });
  });

  it('answers before the copy is on disk, and a copy that cannot be saved does not cost the answer (#22)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const put = vi.spyOn(offlineDb.pages, 'bulkPut').mockImplementation(() => {
      throw Object.assign(new Error('full'), { name: 'QuotaExceededError' });
    });
    try {
      await expect(networkFirst({ key: 'u|full', scope: 's', fetcher: async () => ({ n: 2 }) })).resolves.toMatchObject({ data: { n: 2 }, source: 'network' });
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('u|full'), expect.objectContaining({ name: 'StorageFullError' })));
    } finally {
      put.mockRestore();
      warn.mockRestore();
    }
    expect(await offlineDb.pages.get('u|full')).toBeUndefined();
  });

  it('shows the saved copy as soon as the network gives no answer, then hands over the late answer', async () => {
    await offlineDb.pages.put({ key: 'u|b', scope: 's', savedAt: 42, data: { n: 'saved' } });
    const call = deferred<{ n: string }>();
    const late = deferred<Mirrored<{ n: string }>>();
    const reading = networkFirst({ key: 'u|b', scope: 's', fetcher: () => call.promise, onLateAnswer: late.resolve });
    // The call's first attempt got no answer; ky waits and tries again (the call is still open).
    await Promise.resolve();
    reportNoAnswer();
    await expect(reading).resolves.toEqual({ data: { n: 'saved' }, savedAt: 42, source: 'mirror' });

    call.resolve({ n: 'fresh' });
    await expect(late.promise).resolves.toMatchObject({ data: { n: 'fresh' }, source: 'network' });
    await vi.waitFor(async () => expect((await offlineDb.pages.get('u|b'))?.data).toEqual({ n: 'fresh' }));
  });

  it('waits for the call when nothing is saved on the device', async () => {
    const call = deferred<{ n: number }>();
    const reading = networkFirst({ key: 'u|c', scope: 's', fetcher: () => call.promise });
    await Promise.resolve();
    reportNoAnswer();
    let settled = false;
    void reading.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    call.resolve({ n: 3 });
    await expect(reading).resolves.toMatchObject({ data: { n: 3 }, source: 'network' });
  });

  it('does not take a report from before the call for its own', async () => {
    await offlineDb.pages.put({ key: 'u|d', scope: 's', savedAt: 1, data: { n: 'saved' } });
    reportNoAnswer();
    const result = await networkFirst({ key: 'u|d', scope: 's', fetcher: async () => ({ n: 'fresh' }) });
    expect(result).toMatchObject({ data: { n: 'fresh' }, source: 'network' });
  });

  it('falls back to the saved copy when the call fails for want of network', async () => {
    await offlineDb.pages.put({ key: 'u|e', scope: 's', savedAt: 7, data: { n: 'saved' } });
    const result = await networkFirst({ key: 'u|e', scope: 's', fetcher: async () => Promise.reject(new TypeError('Failed to fetch')) });
    expect(result).toEqual({ data: { n: 'saved' }, savedAt: 7, source: 'mirror' });
  });
});

describe('networkFirst when the server says "not now" (decision 0064)', () => {
  beforeEach(() => openAfterFirstScreen());

  it.each([408, 429, 502, 503, 504])('answers a %i with the saved copy', async (status) => {
    await offlineDb.pages.put({ key: `u|busy-${status}`, scope: 's', savedAt: 9, data: { n: 'saved' } });
    const result = await networkFirst({ key: `u|busy-${status}`, scope: 's', fetcher: () => Promise.reject(httpError(status)) });
    expect(result).toEqual({ data: { n: 'saved' }, savedAt: 9, source: 'mirror' });
  });

  it('throws the server\'s error as it came when nothing is saved', async () => {
    const error = httpError(503);
    const reading = networkFirst({ key: 'u|busy-none', scope: 's', fetcher: () => Promise.reject(error) });
    await expect(reading).rejects.toBe(error);
  });

  it('still shows a refusal or a failure of the server itself, saved copy or not', async () => {
    await offlineDb.pages.put({ key: 'u|refused', scope: 's', savedAt: 9, data: { n: 'saved' } });
    for (const status of [400, 404, 500]) {
      const error = httpError(status);
      await expect(networkFirst({ key: 'u|refused', scope: 's', fetcher: () => Promise.reject(error) })).rejects.toBe(error);
    }
  });
});

describe('networkFirst on a stalled connection (no answer, no failure)', () => {
  beforeEach(() => {
    openAfterFirstScreen();
    // Only the timers: fake-indexeddb schedules its work with setImmediate.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  it('shows the saved copy after a short wait, then the answer when it comes', async () => {
    await offlineDb.pages.put({ key: 'u|slow', scope: 's', savedAt: 5, data: { n: 'saved' } });
    const call = deferred<{ n: string }>();
    const late = deferred<Mirrored<{ n: string }>>();
    let result: Mirrored<{ n: string }> | undefined;
    void networkFirst({ key: 'u|slow', scope: 's', fetcher: () => call.promise, onLateAnswer: late.resolve }).then((value) => (result = value));

    await vi.advanceTimersByTimeAsync(NO_ANSWER_YET_MS - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(result).toEqual({ data: { n: 'saved' }, savedAt: 5, source: 'mirror' }));

    call.resolve({ n: 'fresh' });
    await expect(late.promise).resolves.toMatchObject({ data: { n: 'fresh' }, source: 'network' });
    await vi.waitFor(async () => expect((await offlineDb.pages.get('u|slow'))?.data).toEqual({ n: 'fresh' }));
  });

  it('waits for the network as before when nothing is saved', async () => {
    const call = deferred<{ n: string }>();
    let result: Mirrored<{ n: string }> | undefined;
    void networkFirst({ key: 'u|slow-none', scope: 's', fetcher: () => call.promise }).then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(NO_ANSWER_YET_MS * 5);
    expect(result).toBeUndefined();
    call.resolve({ n: 'fresh' });
    await vi.waitFor(() => expect(result).toMatchObject({ data: { n: 'fresh' }, source: 'network' }));
  });

  it('a mirrored query shows the saved copy, marked as such, and then the late answer', async () => {
    await offlineDb.pages.put({ key: 'u|["slow-list"]', scope: 's', savedAt: 3, data: { n: 'saved' } });
    const call = deferred<{ n: string }>();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const options = mirroredQueryOptions({ queryKey: ['slow-list'], userEmail: 'u', scope: 's', fetcher: () => call.promise });
    let first: Mirrored<{ n: string }> | undefined;
    void client.fetchQuery(options).then((value) => (first = value));
    await vi.advanceTimersByTimeAsync(NO_ANSWER_YET_MS);
    await vi.waitFor(() => expect(first).toEqual({ data: { n: 'saved' }, savedAt: 3, source: 'mirror' }));

    call.resolve({ n: 'fresh' });
    await vi.waitFor(() => expect(client.getQueryData(options.queryKey)).toMatchObject({ data: { n: 'fresh' }, source: 'network' }));
    client.clear();
  });
});

describe('what comes after the saved copy was shown (#22, decisions 0026 and 0065)', () => {
  beforeEach(() => {
    openAfterFirstScreen();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  /** A mirrored list whose calls answer when the test says (they ignore the abort signal unless `signals` is read). */
  async function stalledList(name: string, cache?: QueryCache) {
    await offlineDb.pages.put({ key: `u|["${name}"]`, scope: 's', savedAt: 3, data: { n: 'saved' } });
    const calls: ReturnType<typeof deferred<{ n: string }>>[] = [];
    const signals: (AbortSignal | undefined)[] = [];
    const client = new QueryClient({ queryCache: cache, defaultOptions: { queries: { retry: false } } });
    const options = mirroredQueryOptions({
      queryKey: [name],
      userEmail: 'u',
      scope: 's',
      fetcher: (signal) => {
        signals.push(signal);
        calls.push(deferred());
        return calls[calls.length - 1]!.promise;
      },
    });
    const shown = client.fetchQuery(options);
    await vi.advanceTimersByTimeAsync(NO_ANSWER_YET_MS);
    await expect(shown).resolves.toMatchObject({ data: { n: 'saved' }, source: 'mirror' });
    return { client, options, calls, signals, query: client.getQueryCache().find({ queryKey: options.queryKey, exact: true })! };
  }

  it('an older call answering after a newer read does not overwrite it, on the screen or on the device', async () => {
    const { client, options, calls } = await stalledList('late-a');
    const newer = client.fetchQuery(options);
    calls[1]!.resolve({ n: 'B' });
    await expect(newer).resolves.toMatchObject({ data: { n: 'B' }, source: 'network' });

    calls[0]!.resolve({ n: 'A' });
    await vi.advanceTimersByTimeAsync(50);
    expect(client.getQueryData(options.queryKey)).toMatchObject({ data: { n: 'B' } });
    await expect(readMirror('u|["late-a"]')).resolves.toMatchObject({ data: { n: 'B' } });
    client.clear();
  });

  it('a late answer does not overwrite a change written into the cache meanwhile', async () => {
    const { client, options, calls } = await stalledList('late-edited');
    client.setQueryData(options.queryKey, { data: { n: 'edited' }, savedAt: 4, source: 'mirror' as const });
    calls[0]!.resolve({ n: 'late' });
    await vi.advanceTimersByTimeAsync(50);
    expect(client.getQueryData(options.queryKey)).toMatchObject({ data: { n: 'edited' } });
    await expect(readMirror('u|["late-edited"]')).resolves.toMatchObject({ data: { n: 'saved' } });
    client.clear();
  });

  it('a late refusal becomes the query’s error and is reported; the saved copy stays shown', async () => {
    const onError = vi.fn();
    const { client, options, calls, query } = await stalledList('late-refused', new QueryCache({ onError }));
    const refusal = httpError(404);
    calls[0]!.reject(refusal);
    await vi.waitFor(() => expect(query.state).toMatchObject({ status: 'error', error: refusal }));
    expect(client.getQueryData(options.queryKey)).toMatchObject({ data: { n: 'saved' }, source: 'mirror' });
    expect(onError).toHaveBeenCalledWith(refusal, query);
    client.clear();
  });

  it('a late failure for want of a network, or a "not now", leaves the saved copy as it was', async () => {
    const onError = vi.fn();
    for (const failure of [new TypeError('Failed to fetch'), httpError(503)]) {
      const { client, calls, query } = await stalledList(`late-weak-${failure.name}`, new QueryCache({ onError }));
      calls[0]!.reject(failure);
      await vi.advanceTimersByTimeAsync(50);
      expect(query.state).toMatchObject({ status: 'success', error: null });
      client.clear();
    }
    expect(onError).not.toHaveBeenCalled();
  });

  it('a newer read aborts the call still going on (decision 0026)', async () => {
    const { client, options, signals } = await stalledList('late-superseded');
    expect(signals[0]!.aborted).toBe(false);
    void client.fetchQuery(options).catch(() => undefined);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
    client.clear();
  });

  it('the screen leaving aborts the call still going on', async () => {
    await offlineDb.pages.put({ key: 'u|["late-left"]', scope: 's', savedAt: 3, data: { n: 'saved' } });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let seen: AbortSignal | undefined;
    const options = mirroredQueryOptions({ queryKey: ['late-left'], userEmail: 'u', scope: 's', fetcher: (signal) => ((seen = signal), new Promise<never>(() => undefined)) });
    const observer = new QueryObserver(client, options);
    const leave = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(NO_ANSWER_YET_MS);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toMatchObject({ source: 'mirror' }));
    expect(seen!.aborted).toBe(false);
    leave();
    expect(seen!.aborted).toBe(true);
    // The saved copy is not the server's answer: the next visit reads again, whatever the stale time.
    expect(client.getQueryCache().find({ queryKey: options.queryKey, exact: true })!.state.isInvalidated).toBe(true);
    client.clear();
  });

  it('only the query’s latest call counts late: an older one answering meanwhile does not make the newer one’s outcome stale', () => {
    const client = new QueryClient();
    const key = ['latest-call'];
    client.setQueryData(key, { n: 'first' });
    const older = lateOutcome<{ n: string }>(client, key);
    client.setQueryData(key, { n: 'older copy' }); // the older call showed its saved copy
    const newer = lateOutcome<{ n: string }>(client, key);
    older.answer({ n: 'older' }); // its answer comes while the newer call waits: dropped
    expect(client.getQueryData(key)).toEqual({ n: 'older copy' });
    client.setQueryData(key, { n: 'newer copy' }); // the newer call shows its saved copy
    newer.answer({ n: 'newer' });
    expect(client.getQueryData(key)).toEqual({ n: 'newer' });
    client.clear();
  });

  it('offline, where the network is not asked, the call leaves no listener behind', async () => {
    await offlineDb.pages.put({ key: 'u|["offline-listeners"]', scope: 's', savedAt: 3, data: { n: 'saved' } });
    vi.stubGlobal('navigator', { onLine: false });
    try {
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const cache = client.getQueryCache();
      const options = mirroredQueryOptions({ queryKey: ['offline-listeners'], userEmail: 'u', scope: 's', fetcher: () => Promise.reject(new Error('not asked offline')) });
      const subscribe = vi.spyOn(cache, 'subscribe');
      const stops: Array<ReturnType<typeof vi.fn>> = [];
      subscribe.mockImplementation(function (this: QueryCache, listener) {
        const stop = vi.fn(QueryCache.prototype.subscribe.call(this, listener));
        stops.push(stop);
        return stop;
      });
      for (let i = 0; i < 3; i += 1) await expect(client.fetchQuery({ ...options, staleTime: 0 })).resolves.toMatchObject({ source: 'mirror' });
      expect(stops.length).toBe(3);
      for (const stop of stops) expect(stop).toHaveBeenCalled();
      client.clear();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a newer search (another key) aborts the older one still going on', async () => {
    await offlineDb.pages.put({ key: 'u|["search","a"]', scope: 's', savedAt: 3, data: { n: 'saved' } });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const signals: (AbortSignal | undefined)[] = [];
    const search = (text: string) =>
      mirroredQueryOptions({ queryKey: ['search', text], userEmail: 'u', scope: 's', fetcher: (signal) => (signals.push(signal), new Promise<never>(() => undefined)) });
    const observer = new QueryObserver(client, search('a'));
    const leave = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(NO_ANSWER_YET_MS);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toMatchObject({ source: 'mirror' }));
    observer.setOptions(search('ab'));
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
    leave();
    client.clear();
  });
});

describe('answerOrSavedCopy (the count sheet calls it itself)', () => {
  it('hands a late refusal to the caller that asks for it, and not a failure for want of a network', async () => {
    for (const [failure, told] of [[new GoneError('Stock count 5 not found'), true], [new TypeError('Failed to fetch'), false]] as const) {
      const call = deferred<string>();
      const refused = vi.fn();
      const reading = answerOrSavedCopy(call.promise, async () => 'saved', () => undefined, refused);
      await Promise.resolve();
      reportNoAnswer();
      await expect(reading).resolves.toEqual({ saved: 'saved' });
      call.reject(failure);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(refused).toHaveBeenCalledTimes(told ? 1 : 0);
      if (told) expect(refused).toHaveBeenCalledWith(failure);
    }
  });

  it('answers with the call when it answered while the device was being read', async () => {
    const call = deferred<string>();
    const device = deferred<string | undefined>();
    const late = vi.fn();
    const reading = answerOrSavedCopy(call.promise, () => device.promise, late);
    await Promise.resolve();
    reportNoAnswer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    call.resolve('fresh');
    await new Promise((resolve) => setTimeout(resolve, 0));
    device.resolve('saved');
    await expect(reading).resolves.toEqual({ fresh: 'fresh' });
    expect(late).not.toHaveBeenCalled();
  });
});

describe('the API client', () => {
  it('reports an attempt without an answer before it retries, and not an HTTP error or an abort', async () => {
    const client = createServiceClient({ prefixUrl: 'http://api.test/', getToken: () => 'token', refreshToken: async () => null });
    const fetches = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetches);

    let reports = 0;
    const listen = (): void => void nextNoAnswer().reported.then(() => {
      reports += 1;
      listen();
    });
    listen();

    fetches.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(new Response('{"ok":true}'));
    await expect(client.get('x').json()).resolves.toEqual({ ok: true });
    expect(reports).toBe(1);

    fetches.mockResolvedValueOnce(new Response('no', { status: 404 }));
    await expect(client.get('y').json()).rejects.toThrow();
    fetches.mockRejectedValueOnce(new DOMException('superseded', 'AbortError'));
    await expect(client.get('z', { retry: 0 }).json()).rejects.toThrow();
    expect(reports).toBe(1);
  });
});
