/** How offline code tells a lost connection from an answer, and a full disk from a bug. */
import { HTTPError, TimeoutError } from 'ky';
import { setStorageFull } from './storage-state';

/** No answer at all: offline, DNS, refused connection, time-out. Such failures keep data queued. */
export function isNetworkFailure(error: unknown): boolean {
  if (error instanceof HTTPError) return false;
  if (error instanceof TimeoutError) return true;
  return error instanceof TypeError || (error instanceof Error && /network|fetch|offline/i.test(error.message));
}

/** A gateway's answer in place of the server's (502, 503, 504): the request may have been applied behind it. */
export const GATEWAY_STATUSES: readonly number[] = [502, 503, 504];
export const isGatewayAnswer = (error: unknown): boolean => error instanceof HTTPError && GATEWAY_STATUSES.includes(error.response.status);

export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Dexie wraps the browser's quota error; either name means the device's storage is full. */
export function isQuotaError(error: unknown): boolean {
  const names = [(error as { name?: string })?.name, (error as { inner?: { name?: string } })?.inner?.name];
  return names.includes('QuotaExceededError');
}

/**
 * The server no longer shows this to the user (a count handed to someone else, cancelled out of
 * their scope, deleted): nothing of it is left to read, or to check against a fresh read.
 */
export class GoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoneError';
  }
}

/** A read that failed because the server no longer shows the thing (404, 403 or GoneError), not for want of a connection. */
export function isGone(error: unknown): boolean {
  if (error instanceof GoneError) return true;
  return error instanceof HTTPError && (error.response.status === 404 || error.response.status === 403);
}

/**
 * English for the console and the logs only: a screen says `offline.quotaFull` in the user's
 * language (the count sheet's `run`, lib/query-client.ts's report).
 */
export class StorageFullError extends Error {
  constructor() {
    super('This device has no storage space left for offline data. Free some space, then try again.');
    this.name = 'StorageFullError';
  }
}

/**
 * Runs a storage write; a full disk becomes a clear error instead of a crash. It also keeps the
 * shell's "storage full" state (storage-state.ts): set by a write refused for want of space,
 * cleared by the next one that goes through (space was freed). Other failures leave it as it is.
 */
export async function guardQuota<T>(write: () => Promise<T>): Promise<T> {
  let written: T;
  try {
    written = await write();
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    setStorageFull(true);
    throw new StorageFullError();
  }
  setStorageFull(false);
  return written;
}
