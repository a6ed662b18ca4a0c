/**
 * WAI-ARIA tabs, keyboard part (one home for the status monitor's, stock's, users' and
 * notifications' tabs): one tab in the Tab order, Left and Right go round, Home and End go to the
 * first and the last; the key moves the focus and selects the tab.
 */
import { useRef, type KeyboardEvent } from 'react';

/** The tab an arrow key moves to; null for any other key. */
export function tabAfterKey(key: string, index: number, count: number): number | null {
  if (count <= 0) return null;
  if (key === 'ArrowRight') return (index + 1) % count;
  if (key === 'ArrowLeft') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * How a tab was selected: with a key, going through the tabs on the way to one (each key selects
 * the tab it moves to). A screen that keeps its tab in the address may make one history entry of
 * a run of keys rather than one per key (the status monitor); a click is a choice of its own.
 */
export interface KeyboardSelection {
  viaKeyboard: true;
}

/** Refs and the key handler for a row of tabs; `select` is called with the tab moved to. */
export function useRovingTabs<T>(tabs: readonly T[], select: (tab: T, how: KeyboardSelection) => void) {
  const refs = useRef<Array<HTMLElement | null>>([]);
  return {
    ref: (index: number) => (element: HTMLElement | null) => {
      refs.current[index] = element;
    },
    onKeyDown: (event: KeyboardEvent, index: number) => {
      const next = tabAfterKey(event.key, index, tabs.length);
      if (next === null) return;
      event.preventDefault();
      refs.current[next]?.focus();
      select(tabs[next]!, { viaKeyboard: true });
    },
  };
}
