/**
 * Whether the device's storage is full: the last storage write refused for want of space (a
 * QuotaExceededError, errors.ts's `guardQuota`: the mirror's copies, the outbox, the count sheet)
 * sets it, and the next write that succeeds clears it. The shell says so for as long as it holds
 * (app/shell/storage-banner.tsx): a copy that could not be saved was only said in the console, and
 * the mechanic first heard of it in the basement. Small on purpose and without React: the offline
 * code writes it, the shell reads it with useSyncExternalStore.
 */
let full = false;
const listeners = new Set<() => void>();

export function setStorageFull(next: boolean): void {
  if (next === full) return;
  full = next;
  listeners.forEach((listener) => listener());
}

/** The snapshot for useSyncExternalStore (server included: the same module state). */
export function isStorageFull(): boolean {
  return full;
}

/** Calls `listener` whenever the state changes; returns the unsubscribe. */
export function subscribeStorageFull(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
