/**
 * Forms that hold typed text not saved yet say so here, so that what would throw it away (leaving
 * the screen, applying an update, reloading for a newer version, signing out) asks first. Nothing
 * a user typed may be lost without their word. Counted quantities are not here: they are written
 * on the device as they are typed (decision 0058), and feedback keeps its own drafts (0062).
 */
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

const holders = new Set<object>();
/** Holders whose form is the address's query too (another `?uid=` is another form): a change of the query leaves them. */
const tiedToQuery = new WeakSet<object>();
const listeners = new Set<() => void>();

function changed(): void {
  listeners.forEach((listener) => listener());
}

export function holdUnsavedText(holder: object): void {
  if (holders.has(holder)) return;
  holders.add(holder);
  changed();
}

export function releaseUnsavedText(holder: object): void {
  if (holders.delete(holder)) changed();
}

/** The user has agreed to lose what is typed (signing out after the question): nothing holds any more. */
export function forgetUnsavedText(): void {
  if (holders.size === 0) return;
  holders.clear();
  changed();
}

/** Whether a form on the page holds text not saved yet. */
export function unsavedTextHeld(): boolean {
  return holders.size > 0;
}

/** Whether such a form belongs to the address's query (useUnsavedText's `tiedToQuery`). */
export function unsavedTextTiedToQuery(): boolean {
  for (const holder of holders) if (tiedToQuery.has(holder)) return true;
  return false;
}

export function subscribeUnsavedText(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders when a form starts or stops holding unsaved text. */
export function useUnsavedTextHeld(): boolean {
  return useSyncExternalStore(subscribeUnsavedText, unsavedTextHeld, () => false);
}

/**
 * Holds while `unsaved` is true and the form is on the page. Returns a release for the moment the
 * text is saved and the form moves on in the same step (a save that closes its dialog and opens
 * another screen must not be asked about the text it has just saved).
 */
export function useUnsavedText(unsaved: boolean, { tiedToQuery: tied = false }: { tiedToQuery?: boolean } = {}): () => void {
  const holder = useRef<object>({});
  useEffect(() => {
    const current = holder.current;
    if (tied) tiedToQuery.add(current);
    else tiedToQuery.delete(current);
    if (unsaved) holdUnsavedText(current);
    else releaseUnsavedText(current);
    return () => releaseUnsavedText(current);
  }, [unsaved, tied]);
  return useCallback(() => releaseUnsavedText(holder.current), []);
}
