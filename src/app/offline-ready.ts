/**
 * "Ready to use without signal": said once per device, when the service worker has precached the
 * app for the first time. Its own module: the landing page (first screen, without workbox-window)
 * notes it too, since the first install mostly happens there.
 */
type OfflineReadyStorage = Pick<Storage, 'getItem' | 'setItem'>;
const OFFLINE_READY_KEY = 'offlineReady';
const offlineReadyListeners = new Set<() => void>();
const storage = (): OfflineReadyStorage | null => (typeof localStorage === 'undefined' ? null : localStorage);

/**
 * The service worker has precached the app for the first time: "Ready to use without signal" is
 * due, once per device. Kept until the shell has told it (toasts live there; the first precache
 * mostly ends on the landing page).
 */
export function noteOfflineReady(store: OfflineReadyStorage | null = storage()): void {
  try {
    if (store && store.getItem(OFFLINE_READY_KEY) !== 'told') store.setItem(OFFLINE_READY_KEY, 'pending');
  } catch {
    // No storage (private mode): not told rather than told at every start.
  }
  offlineReadyListeners.forEach((listener) => listener());
}

/** Whether "Ready to use without signal" is due. */
export function offlineReadyPending(store: OfflineReadyStorage | null = storage()): boolean {
  try {
    return store?.getItem(OFFLINE_READY_KEY) === 'pending';
  } catch {
    return false;
  }
}

export function markOfflineReadyTold(store: OfflineReadyStorage | null = storage()): void {
  try {
    store?.setItem(OFFLINE_READY_KEY, 'told');
  } catch {
    // No storage: nothing was kept either.
  }
  offlineReadyListeners.forEach((listener) => listener());
}

export function subscribeOfflineReady(listener: () => void): () => void {
  offlineReadyListeners.add(listener);
  return () => offlineReadyListeners.delete(listener);
}
