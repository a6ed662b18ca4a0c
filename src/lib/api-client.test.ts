/** The API client against a real HTTP server on loopback: retries, 401 refresh, messages. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { HTTPError } from 'ky';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerMessage, createServiceClient, errorMessage, RETRY_POLICY, toSearchParams } from './api-client';
import { onUserExpired } from './user-expired';
import { startEarlyCalls } from './early-calls';
import { RenewalUnreachableError } from './auth/unreachable';

type Handler = (req: IncomingMessage) => { status: number; body?: unknown; headers?: Record<string, string>; raw?: string };
let handler: Handler = () => ({ status: 200, body: {} });
const seen: { method: string; url: string; auth: string | undefined }[] = [];
let server: Server;
let origin = '';
/** The next request's connection is cut before any answer (a network error). */
let dropNext = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization });
    if (dropNext) {
      dropNext = false;
      req.socket.destroy();
      return;
    }
    const { status, body, headers = {}, raw } = handler(req);
    res.writeHead(status, { 'content-type': raw === undefined ? 'application/json' : 'text/html', ...headers });
    res.end(raw ?? (body === undefined ? '' : JSON.stringify(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());
beforeEach(() => {
  seen.length = 0;
});

const client = (refreshToken: () => Promise<string | null> = async () => null, token = 'old-token') =>
  createServiceClient({ prefixUrl: `${origin}/api/v2`, getToken: () => token, refreshToken });

describe('api client', () => {
  it('sends the bearer token and query arrays as repeated keys', async () => {
    handler = () => ({ status: 200, body: { ok: true } });
    await client().get('my_stock', { searchParams: toSearchParams({ countries: ['FI', 'DE'], page: 1, skip: undefined }) }).json();
    expect(seen).toEqual([expect.objectContaining({ url: '/api/v2/my_stock?countries=FI&countries=DE&page=1', auth: 'Bearer old-token' })]);
  });

  it('retries an idempotent call on 5xx until it succeeds', async () => {
    let calls = 0;
    handler = () => (++calls < 3 ? { status: 503, body: { message: 'busy' } } : { status: 200, body: { ok: true } });
    expect(await client().get('my_stock').json()).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
  });

  it('waits 20, 400 and 8000 ms before the three retries (§5)', () => {
    expect([1, 2, 3].map(RETRY_POLICY.delay)).toEqual([20, 400, 8000]);
    expect(RETRY_POLICY.limit).toBe(3);
    expect(RETRY_POLICY.methods).not.toContain('post');
  });

  it('does not retry a POST', async () => {
    handler = () => ({ status: 503, body: { message: 'busy' } });
    await expect(client().post('my_stock_count', { json: {} })).rejects.toThrow();
    expect(seen).toHaveLength(1);
  });

  it('refreshes the token once on 401 and retries with the new one', async () => {
    handler = (req) => (req.headers.authorization === 'Bearer new-token' ? { status: 200, body: { ok: 1 } } : { status: 401, body: { message: 'Id token expired' } });
    let refreshes = 0;
    const result = await client(async () => {
      refreshes += 1;
      return 'new-token';
    }).get('my_stock').json();
    expect(result).toEqual({ ok: 1 });
    expect(refreshes).toBe(1);
    expect(seen.map((s) => s.auth)).toEqual(['Bearer old-token', 'Bearer new-token']);
  });

  it('gives up after one refresh when the new token is refused too', async () => {
    handler = () => ({ status: 401, body: { message: 'Id token is not valid' } });
    const error = await client(async () => 'new-token').get('my_stock').json().catch((e: unknown) => e);
    expect(seen).toHaveLength(2);
    expect(await errorMessage(error)).toContain('Id token is not valid');
  });

  it('fails a 401 whose renewal got no answer as a network failure, not as the 401 (the user is not signed out)', async () => {
    handler = () => ({ status: 401, body: { message: 'Id token expired' } });
    const error = await client(async () => {
      throw new RenewalUnreachableError();
    })
      .get('my_stock', { retry: 0 })
      .json()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenewalUnreachableError);
    expect(error).not.toBeInstanceOf(HTTPError);
  });

  it('shows the server message, for stock calls too, not the raw JSON (#19 item 15)', async () => {
    handler = () => ({ status: 409, body: { message: 'Stock count is completed', stockCountId: 7 } });
    const stockError = await client().put('my_material_count', { json: {} }).catch((e: unknown) => e);
    expect(await errorMessage(stockError)).toBe('Stock count is completed');
    const userError = await createServiceClient({ prefixUrl: `${origin}/user_api/v1`, getToken: () => 't' })
      .get('user/profile')
      .catch((e: unknown) => e);
    expect(await errorMessage(userError)).toBe('Stock count is completed');
  });

  it('words a refusal with a code the app knows in the user’s language, any other as the server words it (decision 0055)', async () => {
    const german = JSON.parse(readFileSync(new URL('../../locales/de-DE.json', import.meta.url), 'utf8')) as { serverErrors: Record<string, string> };
    await i18next.init({ lng: 'de-DE', resources: { 'de-DE': { translation: german } }, showSupportNotice: false } as Parameters<typeof i18next.init>[0]);
    handler = () => ({ status: 400, body: { message: 'Every line needs a part: KM1 is in no part (give one part rest: true to take the rest)', code: 'splitUnplaced', params: { codes: 'KM1', count: 1 } } });
    const coded = await client().put('my_stock_count/parts', { json: {} }).catch((e: unknown) => e);
    expect(await errorMessage(coded)).toBe(german.serverErrors.splitUnplaced_one!.replace('{{codes}}', 'KM1'));
    handler = () => ({ status: 400, body: { message: 'Something else', code: 'notAKnownCode' } });
    const unknown = await client().put('my_stock_count/parts', { json: {} }).catch((e: unknown) => e);
    expect(await errorMessage(unknown)).toBe('Something else');
  });

  it('words a 429, a 500 and a 502–504 without a known code in the user’s language, keeping a coded 503’s own words', async () => {
    await i18next.init({
      lng: 'de-DE',
      resources: {
        'de-DE': {
          translation: {
            serverErrors: {
              tooManyRequests: 'Zu viele Anfragen. Warten Sie eine Minute.',
              tooManyRequests_one: 'Zu viele Anfragen. Warten Sie {{count}} Sekunde.',
              tooManyRequests_other: 'Zu viele Anfragen. Warten Sie {{count}} Sekunden.',
              internal: 'Auf dem Server ist ein Fehler aufgetreten.',
              unavailable: 'Der Dienst ist gerade nicht erreichbar.',
              stockCountIsCompleted: 'Die Inventur {{id}} ist abgeschlossen.',
            },
          },
        },
      },
      showSupportNotice: false,
    } as Parameters<typeof i18next.init>[0]);
    // POSTs: not retried, so each answer is the one shown.
    const said = async (answer: ReturnType<Handler>) => {
      handler = () => answer;
      return errorMessage(await client().post('my_stock_count', { json: {} }).catch((e: unknown) => e));
    };
    // This server's 429 carries its code and the seconds to wait; another's only Retry-After, or nothing.
    expect(await said({ status: 429, body: { message: 'Rate limit exceeded, retry in 1 minute', code: 'tooManyRequests', params: { count: 42 } } })).toBe('Zu viele Anfragen. Warten Sie 42 Sekunden.');
    expect(await said({ status: 429, body: { message: 'Rate limit exceeded, retry in 1 minute' }, headers: { 'retry-after': '1' } })).toBe('Zu viele Anfragen. Warten Sie 1 Sekunde.');
    expect(await said({ status: 429, body: { message: 'Rate limit exceeded, retry in 1 minute' }, headers: { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' } })).toBe(
      'Zu viele Anfragen. Warten Sie eine Minute.',
    );
    expect(await said({ status: 500, body: { message: 'Internal server error' } })).toBe('Auf dem Server ist ein Fehler aufgetreten.');
    expect(await said({ status: 503, body: { message: 'The database cannot be reached at the moment; nothing was written. Send it again in a moment.' } })).toBe('Der Dienst ist gerade nicht erreichbar.');
    expect(await said({ status: 503, body: { message: 'Another change to the same data was being saved at the same moment; nothing was written. Send it again.' } })).toBe(
      'Der Dienst ist gerade nicht erreichbar.',
    );
    // A gateway's HTML page is no message either.
    expect(await said({ status: 502, raw: '<html><body><h1>502 Bad Gateway</h1></body></html>' })).toBe('Der Dienst ist gerade nicht erreichbar.');
    // A 5xx whose code the app knows keeps its own words; a code it does not know is worded by the status.
    expect(await said({ status: 503, body: { message: 'Stock count 7 is completed', code: 'stockCountIsCompleted', params: { id: 7 } } })).toBe('Die Inventur 7 ist abgeschlossen.');
    expect(await said({ status: 503, body: { message: 'Something new', code: 'somethingNew' } })).toBe('Der Dienst ist gerade nicht erreichbar.');
    // Other statuses as before: the server's message.
    expect(await said({ status: 409, body: { message: 'Stock count is completed' } })).toBe('Stock count is completed');
    expect(answerMessage(404, { message: 'Not found' })).toBe('Not found');
    expect(answerMessage(404, null)).toBeNull();
  });

  it('keeps the server’s words for these statuses while the language has none for them', async () => {
    await i18next.init({ lng: 'de-DE', resources: { 'de-DE': { translation: {} } }, showSupportNotice: false } as Parameters<typeof i18next.init>[0]);
    expect(answerMessage(500, { message: 'Internal server error' })).toBe('Internal server error');
    expect(answerMessage(429, { message: 'Rate limit exceeded, retry in 1 minute' }, '30')).toBe('Rate limit exceeded, retry in 1 minute');
    expect(answerMessage(503, null)).toBeNull();
  });

  it('words a call that got no answer (offline, dropped, timed out) in the user’s language, not the browser’s', async () => {
    const german = JSON.parse(readFileSync(new URL('../../locales/de-DE.json', import.meta.url), 'utf8')) as { sync: { noConnection: string } };
    await i18next.init({ lng: 'de-DE', resources: { 'de-DE': { translation: german } }, showSupportNotice: false } as Parameters<typeof i18next.init>[0]);
    const refused = await createServiceClient({ prefixUrl: 'http://127.0.0.1:9/api/v2', getToken: () => 't' })
      .get('my_stock', { retry: 0 })
      .catch((e: unknown) => e);
    expect(await errorMessage(refused)).toBe(german.sync.noConnection);
    for (const text of ['Failed to fetch', 'Load failed', 'NetworkError when attempting to fetch resource.']) {
      expect(await errorMessage(new TypeError(text))).toBe(german.sync.noConnection);
    }
    // A bug is not a lost connection: its own text stays.
    expect(await errorMessage(new TypeError('x is undefined'))).toBe('x is undefined');
  });

  it('shows a stock body without a message whole (§8)', async () => {
    handler = () => ({ status: 422, body: { errors: ['line 2'] } });
    const error = await client().post('my_stock_count', { json: {} }).catch((e: unknown) => e);
    expect(await errorMessage(error)).toBe('{"errors":["line 2"]}');
  });

  it('reports a 403 "User expired" on any call, and only that 403 (§8)', async () => {
    let reports = 0;
    const stop = onUserExpired(() => (reports += 1));
    try {
      handler = () => ({ status: 403, body: { message: 'User expired' } });
      await client().get('my_stock').catch(() => undefined);
      await createServiceClient({ prefixUrl: `${origin}/parts/v1`, getToken: () => 't' }).get('tracking_status').catch(() => undefined);
      expect(reports).toBe(2);
      handler = () => ({ status: 403, body: { message: 'Permission denied' } });
      await client().get('my_stock').catch(() => undefined);
      expect(reports).toBe(2);
    } finally {
      stop();
    }
  });

  it('uses the error’s own message when there is no response', async () => {
    const unreachable = createServiceClient({ prefixUrl: 'http://127.0.0.1:1/api/v2', getToken: () => 't' });
    const error = await unreachable.post('x', { json: {} }).catch((e: unknown) => e);
    expect(await errorMessage(error)).not.toBe('');
  });
});

describe('early calls of a signed-in start (#22)', () => {
  const session = (idToken: string) => ({ provider: 'local' as const, email: 'm@example.com', idToken, expiresAt: Date.now() + 3_600_000 });

  it('answers the matching GET once with the early response, whatever the order of the query', async () => {
    handler = (req) => ({ status: 200, body: { url: req.url } });
    startEarlyCalls(session('old-token'), [`${origin}/api/v2/things?b=2&a=1`]);
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    expect(await client().get('things', { searchParams: { a: '1', b: '2' } }).json()).toEqual({ url: '/api/v2/things?b=2&a=1' });
    expect(seen).toHaveLength(1);
    // Once: the next call is the client's own.
    await client().get('things', { searchParams: { a: '1', b: '2' } }).json();
    expect(seen).toHaveLength(2);
  });

  it('is not used for another token, another URL or another method', async () => {
    handler = () => ({ status: 200, body: {} });
    startEarlyCalls(session('someone-else'), [`${origin}/api/v2/mine`]);
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    await client().get('mine').json();
    await client().post('mine', { json: {} }).json();
    expect(seen.map((call) => `${call.method} ${call.auth}`)).toEqual(['GET Bearer someone-else', 'GET Bearer old-token', 'POST Bearer old-token']);
  });

  it('an early 401 goes through the token refresh like the client\'s own', async () => {
    handler = (req) => (req.headers.authorization === 'Bearer new-token' ? { status: 200, body: { ok: true } } : { status: 401, body: { message: 'expired' } });
    startEarlyCalls(session('old-token'), [`${origin}/api/v2/profile`]);
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    expect(await client(async () => 'new-token').get('profile').json()).toEqual({ ok: true });
    expect(seen.map((call) => call.auth)).toEqual(['Bearer old-token', 'Bearer new-token']);
  });

  it('a failed early call is made again by the client', async () => {
    handler = () => ({ status: 200, body: { again: true } });
    dropNext = true;
    startEarlyCalls(session('old-token'), [`${origin}/api/v2/flaky`]);
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    expect(await client().get('flaky', { retry: 0 }).json()).toEqual({ again: true });
    expect(seen.map((call) => call.url)).toEqual(['/api/v2/flaky', '/api/v2/flaky']);
  });

  it('makes no call without a session or with a token about to expire', async () => {
    startEarlyCalls(null, [`${origin}/api/v2/none`]);
    startEarlyCalls({ ...session('old-token'), expiresAt: Date.now() + 1_000 }, [`${origin}/api/v2/none`]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(0);
  });
});
