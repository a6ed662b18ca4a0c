/**
 * Work the first screen does not need waits until that screen is drawn (#22): the offline copies
 * of its answers (the device database, 30 KB), the sync engine and its kinds of change (25 KB),
 * the scanner's button. On a phone over weak mobile data every byte fetched and every task run
 * before the first list is drawn delays it; after it, they cost the mechanic nothing.
 *
 * The gate opens at the first of:
 * - a paint after the first screen has mounted (`useMarkFirstScreen`, in the shell around the
 *   routes) and none of the app's queries is fetching any more: the screen has its data and has
 *   drawn it (`watchFirstScreen`);
 * - the user's first touch, click or key (they may want what waits, e.g. the scanner);
 * - the page being hidden (the phone locked, another app, the tab closed): the waiting copies
 *   are written while the page can still write;
 * - `FIRST_SCREEN_MAX_WAIT_MS` after the watch started (a screen that never settles).
 * Once open it stays open: later screens get everything at once.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';

/** The longest the first screen holds the rest back. */
export const FIRST_SCREEN_MAX_WAIT_MS = 4000;

let open = false;
let screenMounted = false;
let settleCheck: (() => void) | undefined;
let release!: () => void;
const opened = new Promise<void>((resolve) => {
  release = resolve;
});
const listeners = new Set<() => void>();

/** Opens the gate (idempotent). */
export function openAfterFirstScreen(): void {
  if (open) return;
  open = true;
  release();
  listeners.forEach((listener) => listener());
  listeners.clear();
}

export const isFirstScreenDrawn = (): boolean => open;

/** Resolves once the first screen is drawn (at once after that). */
export const afterFirstScreen = (): Promise<void> => opened;

/** Calls `listener` when the gate opens (not if it is open already); returns the unsubscribe. */
export function onFirstScreenDrawn(listener: () => void): () => void {
  if (!open) listeners.add(listener);
  return () => listeners.delete(listener);
}

/** After the browser has painted what is on screen now: the frame after the next one begins. */
function afterPaint(task: () => void): void {
  requestAnimationFrame(() => setTimeout(task, 0));
}

/**
 * Opens the gate when the app's queries settle after the first screen's data arrived (see the
 * module comment), or at the user's first input, or after `maxWaitMs`. Returns the stop function.
 */
export function watchFirstScreen(client: QueryClient, maxWaitMs = FIRST_SCREEN_MAX_WAIT_MS): () => void {
  if (open) return () => undefined;
  const settled = () => screenMounted && client.isFetching() === 0;
  settleCheck = () => {
    if (settled()) afterPaint(() => settled() && openAfterFirstScreen());
  };
  // An answer (or a failure) may be the last the screen waited for.
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && (event.action.type === 'success' || event.action.type === 'error')) settleCheck?.();
  });
  const timer = setTimeout(openAfterFirstScreen, maxWaitMs);
  const input = () => openAfterFirstScreen();
  const inputs = ['pointerdown', 'keydown', 'pagehide'] as const;
  inputs.forEach((type) => window.addEventListener(type, input, { capture: true, passive: true }));
  const hidden = () => {
    if (document.visibilityState === 'hidden') openAfterFirstScreen();
  };
  document.addEventListener('visibilitychange', hidden);
  const stop = () => {
    settleCheck = undefined;
    unsubscribe();
    clearTimeout(timer);
    inputs.forEach((type) => window.removeEventListener(type, input, { capture: true }));
    document.removeEventListener('visibilitychange', hidden);
  };
  onFirstScreenDrawn(stop);
  return stop;
}

/**
 * In the component that holds the screens (the shell, inside the routes' Suspense): the first
 * screen has mounted with its first render, data and all where its data was there.
 */
export function useMarkFirstScreen(): void {
  useEffect(firstScreenMounted, []);
}

/** What `useMarkFirstScreen` says, once. */
export function firstScreenMounted(): void {
  if (screenMounted) return;
  screenMounted = true;
  settleCheck?.();
}

/** For a component: whether the first screen is drawn (re-renders when it becomes so). */
export function useFirstScreenDrawn(): boolean {
  return useSyncExternalStore(onFirstScreenDrawn, isFirstScreenDrawn, () => true);
}
