import type { FileRow } from '../../contract/dashboard';

/** While a stored file of the day waits or is processed: its outcome comes within seconds. */
export const BUSY_FOLLOW_MS = 5_000;
/** The business day otherwise: expected slots turn missing and new files arrive on the server's own clock. */
export const TODAY_FOLLOW_MS = 60_000;

/** A stored file waits or is processed; an expected slot (no id) is not being worked on. */
export const hasFileAtWork = (files: readonly FileRow[] | undefined): boolean =>
  (files ?? []).some((f) => f.id !== null && (f.status === 'in_progress' || f.status === 'not_processed'));

/**
 * How often a day's file list is read again (§2), undefined when it is not. Only the business
 * day changes by itself; a past day stays as it is. Offline a read only returns the device's copy:
 * the timer waits for the browser to be back.
 */
export function followInterval(date: string, businessToday: string, isAtWork: boolean, isOnline: boolean): number | undefined {
  if (!isOnline || date !== businessToday) return undefined;
  return isAtWork ? BUSY_FOLLOW_MS : TODAY_FOLLOW_MS;
}
