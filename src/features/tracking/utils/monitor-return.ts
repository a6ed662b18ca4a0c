/**
 * §2: an order opened from the status monitor and closed again finds the list where it was left.
 * The order's link says it was opened from the monitor (the history entry's state), so "Back to
 * the status monitor" goes back to that entry instead of adding one; the window's position is
 * kept per monitor address until the list is drawn there again.
 */

/** The state of an order link on the monitor: the entry before the order's is the monitor's. */
export const FROM_MONITOR = { from: 'status-monitor' } as const;

/** Whether the shown entry was opened from the monitor (its state survives a reload; a new tab has none). */
export function cameFromMonitor(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { from?: unknown }).from === FROM_MONITOR.from;
}

export const SCROLL_KEY = 'statusMonitor.scroll';
/** Addresses kept: a few monitor entries left to an order and not come back to yet. */
const MAX_KEPT = 10;

function readAll(): Array<[string, number]> {
  try {
    const saved = JSON.parse(globalThis.sessionStorage?.getItem(SCROLL_KEY) ?? '[]') as unknown;
    return Array.isArray(saved) ? saved.filter((entry): entry is [string, number] => Array.isArray(entry) && typeof entry[0] === 'string' && Number.isFinite(entry[1])) : [];
  } catch {
    return [];
  }
}

function writeAll(entries: Array<[string, number]>): void {
  try {
    if (entries.length) globalThis.sessionStorage?.setItem(SCROLL_KEY, JSON.stringify(entries));
    else globalThis.sessionStorage?.removeItem(SCROLL_KEY);
  } catch {
    // Storage full or refused: the list opens at the top, as it did.
  }
}

/** Keeps the window's position on a monitor address (pathname + search) when an order is opened from it. */
export function saveMonitorScroll(address: string, y: number): void {
  writeAll([...readAll().filter(([kept]) => kept !== address), [address, Math.max(0, Math.round(y))] as [string, number]].slice(-MAX_KEPT));
}

/** The position kept for an address, or null. */
export function savedMonitorScroll(address: string): number | null {
  return readAll().find(([kept]) => kept === address)?.[1] ?? null;
}

/** Put back once: it is the position of that visit, not of the address for good. */
export function forgetMonitorScroll(address: string): void {
  const entries = readAll();
  if (entries.some(([kept]) => kept === address)) writeAll(entries.filter(([kept]) => kept !== address));
}
