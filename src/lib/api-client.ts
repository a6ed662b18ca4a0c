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

/** Whether a failed call was refused with `status` and the refusal `code` (decision 0055), e.g. 409 "changed meanwhile". */
export async function isCodedRefusal(error: unknown, status: number, code: string): Promise<boolean> {
  if (!(error instanceof HTTPError) || error.response.status !== status) return false;
  const body: unknown = await error.response
    .clone()
    .json()
    .catch(() => null);
  return typeof body === 'object' && body !== null && 'code' in body && body.code === code;
}

/**
 * The `message` of an answer's body, or null without one. A refusal with a code the app knows is
 * worded in the user's language (decision 0055); the outbox keeps refusals worded this way too.
 */
export function bodyMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object' || !('message' in body) || typeof body.message !== 'string') return null;
  return codedMessage(body) ?? body.message;
}

/**
 * A coded text (a refusal, an ERP file's error) in the user's language, or its English `message`
 * when the app has no words for its code (decision 0074).
 */
export function wordedError(error: { message: string; code?: string; params?: Record<string, string | number> }): string {
  return codedMessage(error) ?? error.message;
}

/** A body's `code` worded in the user's language (serverErrors.<code>, with its parameters); null when the app has no text for it. */
function codedMessage(body: object): string | null {
  const { code, params } = body as { code?: unknown; params?: unknown };
  const values = params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  // With the parameters: a text with plural forms exists only as serverErrors.<code>_one, _other…
  if (typeof code !== 'string' || !i18next.exists(`serverErrors.${code}`, values)) return null;
  return i18next.t(`serverErrors.${code}`, values);
}

/**
 * The words for an answer whose status says all a user can act on, when its body has no code the
 * app knows: too many calls (429), a fault of the server (500), a server or a system behind it not
 * answering (502, 503, 504: the database away or busy, the ERP silent, a gateway). Their bodies are
 * English the user cannot act on ("Internal server error", "Rate limit exceeded, retry in 1
 * minute", "The database cannot be reached…"). `retryAfter`: the Retry-After header, in seconds.
 * Null for other statuses, or while the language has no text for it.
 */
function statusMessage(status: number, retryAfter: string | null | undefined): string | null {
  const worded = (key: string, values: Record<string, unknown> = {}) => (i18next.exists(key, values) ? i18next.t(key, values) : null);
  if (status === 429) {
    const seconds = Number(retryAfter);
    const wait = retryAfter && Number.isInteger(seconds) && seconds > 0 ? worded('serverErrors.tooManyRequests', { count: seconds }) : null;
    return wait ?? worded('serverErrors.tooManyRequests');
  }
  if (status === 500) return worded('serverErrors.internal');
  if (status === 502 || status === 503 || status === 504) return worded('serverErrors.unavailable');
  return null;
}

/**
 * What an answer says to the user: a refusal with a code the app knows in the user's language
 * (bodyMessage); else, for the statuses statusMessage words, those words; else the body's `message`.
 * Null when none applies (the caller shows the body or the status). For calls read without ky's
 * errors (throwHttpErrors: false) as errorMessage does for the others.
 */
export function answerMessage(status: number, body: unknown, retryAfter?: string | null): string | null {
  return (body && typeof body === 'object' ? codedMessage(body) : null) ?? statusMessage(status, retryAfter) ?? bodyMessage(body);
}

/**
 * §8: the server's `message`; with no response the error's own message. §8 says stock calls
 * show "the whole data", but a JSON body on screen (`Stock Count Creation Failed!
 * {"message":…}`) tells the user nothing more (#19 item 15): any call whose body carries a
 * `message` shows that message; a stock body without one is still shown whole. A refusal with a
 * code the app knows, and the statuses answerMessage words (429, 500, 502–504), are said in the
 * user's language. Reads the body once and remembers it on the error.
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
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: show the text as it came (unless its status is worded)
    }
    const { status, statusText, headers } = error.response;
    const message = answerMessage(status, body, headers.get('retry-after')) ?? (text || `${status} ${statusText}`);
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
