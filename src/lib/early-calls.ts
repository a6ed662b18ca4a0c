/**
 * Calls a signed-in start makes from the entry, before any chunk has loaded (#22). Without them
 * the profile, permission and first-page calls wait for the app's JavaScript to arrive and run
 * (on slow 4G and a mid-range phone, seconds); with them the answers are on their way while the
 * chunks load. Each answer is handed once to the API client's matching GET (same URL, same token:
 * api-client.ts), which treats it as its own response: retries, 401 refresh and §8 errors apply
 * as usual. An answer nobody asked for within a few seconds is dropped, never served late; a
 * failed early call makes the client call again itself.
 */
import type { StoredSession } from './auth/session';

/** How long an early answer waits for its caller; after that the caller makes its own call. */
const KEEP_MS = 15_000;

const early = new Map<string, Promise<Response>>();

/** The same URL whatever the order of its query parameters. */
function keyOf(url: string, authorization: string | null): string {
  const parsed = new URL(url, globalThis.location?.href);
  parsed.searchParams.sort();
  return `${authorization ?? ''} ${parsed.href}`;
}

/** Starts the GETs with the session's token, online only (offline the screens read the device's copy). */
export function startEarlyCalls(session: StoredSession | null, urls: string[]): void {
  if (!session || typeof fetch !== 'function' || globalThis.navigator?.onLine === false) return;
  // A token about to expire is refreshed by the app first: an early call would only earn a 401.
  if (session.expiresAt - Date.now() < 60_000) return;
  const authorization = `Bearer ${session.idToken}`;
  for (const url of urls) {
    const key = keyOf(url, authorization);
    const response = fetch(url, { headers: { Authorization: authorization, Accept: 'application/json' } });
    response.catch(() => undefined);
    early.set(key, response);
    setTimeout(() => {
      if (early.get(key) === response) early.delete(key);
    }, KEEP_MS);
  }
}

/** The early answer to this GET, once; undefined when there is none. A failed early call is called again. */
export function takeEarlyResponse(request: Request): Promise<Response> | undefined {
  if (early.size === 0 || request.method !== 'GET') return undefined;
  const key = keyOf(request.url, request.headers.get('Authorization'));
  const response = early.get(key);
  if (!response) return undefined;
  early.delete(key);
  return response.catch(() => fetch(request));
}
