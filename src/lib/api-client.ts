/**
 * One HTTP client per service host (§7: user, parts, stock), all built the same way:
 * bearer id token, query arrays as repeated keys, §5 retries (3 tries, waits of
 * 20^(4 − remaining) ms) for idempotent calls on network errors and 5xx, and on 401 one
 * token refresh and one retry. Errors become messages the global alert can show (§8).
 */
import ky, { HTTPError, TimeoutError, type KyInstance, type Options } from 'ky';
import i18next from 'i18next';
import { RETRY_LIMIT, retryDelayMs } from '../domain/constants';
import { serviceUrl } from './config';
import { takeEarlyResponse } from './early-calls';
import { getSession } from './auth/session';
import { refreshIdToken } from './auth/refresh';
import { isUserExpiredResponse, reportUserExpired } from './user-expired';
import { reportNoAnswer } from './no-answer';

export { toSearchParams, type QueryValue } from './search-params';

/** §5: idempotent calls retry on network errors and 5xx, 3 times, waiting 20^(4 − remaining) ms. */
export const RETRY_POLICY = {
  limit: RETRY_LIMIT,
  methods: ['get', 'put', 'head', 'delete', 'options'],
  statusCodes: [408, 429, 500, 502, 503, 504],
  // attempt 1 is made with 3 tries remaining → 20 ms, then 400 ms, then 8 s.
  delay: (attemptCount: number) => retryDelayMs(RETRY_LIMIT + 1 - attemptCount),
};

export interface ServiceClientOptions {
  prefixUrl: string;
  /** The current id token (the session's, by default). */
  getToken?: () => string | undefined;
  /** A fresh id token after a 401, or null when the user must sign in again. */
  refreshToken?: () => Promise<string | null>;
}

export function createServiceClient({
  prefixUrl,
  getToken = () => getSession()?.idToken,
  refreshToken = refreshIdToken,
}: ServiceClientOptions): KyInstance {
  return ky.create({
    prefixUrl,
    timeout: 30_000,
    // A GET the entry already made for this start (#22, early-calls.ts) is answered by it, once.
    // An attempt that got no answer at all tells the mirrored reads at once (#22, no-answer.ts);
    // an abort (a superseded query, ky's time-out) is not a sign of the network.
    fetch: (input, init) =>
      ((input instanceof Request && takeEarlyResponse(input)) || globalThis.fetch(input, init)).catch((error: unknown) => {
        if (!(error instanceof DOMException && error.name === 'AbortError')) reportNoAnswer();
        throw error;
      }),
    retry: RETRY_POLICY,
    hooks: {
      beforeRequest: [
        (request) => {
          const token = getToken();
          if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        async (request, options, response) => {
          if (response.status !== 401) return response;
          const token = await refreshToken();
          if (!token) return response;
          const retry = new Request(request, { headers: new Headers(request.headers) });
          retry.headers.set('Authorization', `Bearer ${token}`);
          // Once: the retry runs without these hooks. No marker header goes to the server (a
          // header of ours fails the CORS preflight of services on another origin).
          return ky(retry, { ...options, retry: 0, hooks: {} } as Options);
        },
        async (_request, _options, response) => {
          if (await isUserExpiredResponse(response)) reportUserExpired();
          return response;
        },
      ],
    },
  });
}

export const userApi = createServiceClient({ prefixUrl: serviceUrl('user') });
export const partsApi = createServiceClient({ prefixUrl: serviceUrl('parts') });
export const stockApi = createServiceClient({ prefixUrl: serviceUrl('stock') });

/** A failed call's HTTP status, or null for network failures and everything else. */
export function statusOf(error: unknown): number | null {
  return error instanceof HTTPError ? error.response.status : null;
}

/**
 * The `message` of an answer's body, or null without one. A refusal with a code the app knows is
 * worded in the user's language (decision 0055); the outbox keeps refusals worded this way too.
 */
export function bodyMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object' || !('message' in body) || typeof body.message !== 'string') return null;
  const { code, params } = body as { code?: unknown; params?: unknown };
  const values = params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  // With the parameters: a text with plural forms exists only as serverErrors.<code>_one, _other…
  if (typeof code === 'string' && i18next.exists(`serverErrors.${code}`, values)) {
    return i18next.t(`serverErrors.${code}`, { ...values, defaultValue: body.message });
  }
  return body.message;
}

/**
 * §8: the server's `message`; with no response the error's own message. §8 says stock calls
 * show "the whole data", but a JSON body on screen (`Stock Count Creation Failed!
 * {"message":…}`) tells the user nothing more (#19 item 15): any call whose body carries a
 * `message` shows that message; a stock body without one is still shown whole.
 * Reads the body once and remembers it on the error.
 */
export async function errorMessage(error: unknown): Promise<string> {
  if (error instanceof HTTPError) {
    const cached = (error as HTTPError & { displayMessage?: string }).displayMessage;
    if (cached) return cached;
    let text = '';
    try {
      text = await error.response.clone().text();
    } catch {
      text = '';
    }
    let message = text || `${error.response.status} ${error.response.statusText}`;
    try {
      message = bodyMessage(JSON.parse(text)) ?? message;
    } catch {
      // not JSON: show the text as it came
    }
    (error as HTTPError & { displayMessage?: string }).displayMessage = message;
    return message;
  }
  // No answer at all (offline, a dropped connection, a time-out): the browser's own words ("Failed
  // to fetch", "Load failed", "NetworkError when …") are English and say nothing to a mechanic.
  if (error instanceof TimeoutError || (error instanceof TypeError && /fetch|network|load failed/i.test(error.message))) {
    return i18next.t('sync.noConnection', { defaultValue: 'No connection.' });
  }
  // The device's storage is full (src/offline/errors.ts StorageFullError, matched by name: lib does
  // not import offline): said in the user's language in every dialog, not only on the count sheet.
  if (error instanceof Error && error.name === 'StorageFullError') return i18next.t('offline.quotaFull', { defaultValue: error.message });
  return error instanceof Error ? error.message : String(error);
}
