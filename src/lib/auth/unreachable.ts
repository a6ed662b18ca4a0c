/**
 * Whether a failed renewal of the sign-in got no answer (no signal, the sign-in service or its
 * code out of reach) rather than a refusal. Only a refusal means the user must sign in again: a
 * mechanic walking out of a basement with one bar of signal must not be signed out (offline, the
 * sign-in page is a dead end), and what they typed stays queued for the renewal that works.
 */

/** MSAL's (browser, common) and Firebase Auth's codes for a request that got no answer. */
const NO_ANSWER_CODES = new Set([
  'no_network_connectivity',
  'network_error',
  'post_request_failed',
  'get_request_failed',
  'endpoints_resolution_error',
  'timed_out',
  'auth/network-request-failed',
  'auth/timeout',
]);

export function isUnreachable(error: unknown): boolean {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return true;
  // A failed fetch, or a chunk of the sign-in SDK that could not be loaded.
  if (error instanceof TypeError) return true;
  const { errorCode, code } = (error ?? {}) as { errorCode?: unknown; code?: unknown };
  return [errorCode, code].some((value) => typeof value === 'string' && NO_ANSWER_CODES.has(value));
}

/**
 * The renewal got no answer. A TypeError, as a failed fetch is: reads answer from what the device
 * saved and queued changes wait (offline/errors.ts `isNetworkFailure`), nothing signs the user out.
 */
export class RenewalUnreachableError extends TypeError {
  constructor() {
    super('The sign-in service could not be reached to renew the session: no network connection.');
    this.name = 'RenewalUnreachableError';
  }
}
