/** §9: the last 10 searches per area (tracking, stock, material count), kept on the device. */
import { useCallback, useState } from 'react';
import { SEARCH_HISTORY_SIZE } from '../domain/constants';

export type SearchArea = 'tracking' | 'stock' | 'materialCount';

const storageKey = (area: SearchArea) => `searchHistory.${area}`;

/** At sign-out: one user's searches are not the next user's on a shared device. */
export function forgetSearchHistory(): void {
  try {
    for (const area of ['tracking', 'stock', 'materialCount'] as const) localStorage.removeItem(storageKey(area));
  } catch {
    // storage blocked: nothing was kept
  }
}

export function readSearchHistory(area: SearchArea): string[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey(area)) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string').slice(0, SEARCH_HISTORY_SIZE) : [];
  } catch {
    return [];
  }
}

/** Most recent first, no duplicates (case-insensitive), at most 10. */
export function rememberSearch(history: string[], term: string): string[] {
  const trimmed = term.trim();
  if (!trimmed) return history;
  return [trimmed, ...history.filter((item) => item.toLowerCase() !== trimmed.toLowerCase())].slice(0, SEARCH_HISTORY_SIZE);
}

export function useSearchHistory(area: SearchArea) {
  const [history, setHistory] = useState(() => readSearchHistory(area));
  const remember = useCallback(
    (term: string) => {
      setHistory((current) => {
        const next = rememberSearch(current, term);
        localStorage.setItem(storageKey(area), JSON.stringify(next));
        return next;
      });
    },
    [area],
  );
  return { history, remember };
}
