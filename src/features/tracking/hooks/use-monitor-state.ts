/**
 * §2: the status monitor keeps its state (tab, search, page, loaded pages, my-orders toggle) when
 * the user navigates away and back. The state lives in the address (shareable, survives reload)
 * and a copy in sessionStorage restores it when the user comes back through the side bar, whose
 * link carries no parameters.
 */
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

/** 'notifications' shows the notification lists (#6), given to the screen by the route table. */
export const MONITOR_TABS = ['all', 'arrived', 'incoming', 'mine', 'notifications'] as const;
export type MonitorTab = (typeof MONITOR_TABS)[number];

export interface MonitorState {
  tab: MonitorTab;
  query: string;
  /** First page shown (next / previous move it). */
  page: number;
  /** Further pages loaded below it with "load more". */
  more: number;
  /** The My orders toggle: All, Arrived and Incoming show only the caller's orders. */
  mine: boolean;
}

const STORAGE_KEY = 'statusMonitor.state';
const PARAM_NAMES = ['tab', 'q', 'page', 'more', 'mine'];

const positive = (value: string | null, fallback: number, min: number) => {
  const number = Number(value);
  return Number.isInteger(number) && number >= min ? number : fallback;
};

export function readMonitorState(params: URLSearchParams, canSeeMine: boolean): MonitorState {
  const tab = MONITOR_TABS.find((name) => name === params.get('tab')) ?? 'all';
  return {
    tab: tab === 'mine' && !canSeeMine ? 'all' : tab,
    query: params.get('q') ?? '',
    page: positive(params.get('page'), 1, 1),
    more: Math.min(positive(params.get('more'), 0, 0), 20),
    mine: canSeeMine && params.get('mine') === '1',
  };
}

export function writeMonitorState(state: MonitorState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.tab !== 'all') params.set('tab', state.tab);
  if (state.query) params.set('q', state.query);
  if (state.page !== 1) params.set('page', String(state.page));
  if (state.more > 0) params.set('more', String(state.more));
  if (state.mine) params.set('mine', '1');
  return params;
}

/** The address's own state, else the one remembered for the side-bar link (what the screen will show). */
export function rememberedMonitorParams(params: URLSearchParams): URLSearchParams {
  if (PARAM_NAMES.some((name) => params.has(name))) return params;
  const saved = sessionStorage.getItem(STORAGE_KEY);
  return saved ? new URLSearchParams(saved) : params;
}

export function useMonitorState(canSeeMine: boolean) {
  const [params, setParams] = useSearchParams();
  const hasOwnState = PARAM_NAMES.some((name) => params.has(name));

  // Back through the side bar: put the remembered state into the address.
  useEffect(() => {
    if (hasOwnState) return;
    const saved = sessionStorage.getItem(STORAGE_KEY);
    if (saved) setParams(new URLSearchParams(saved), { replace: true });
  }, [hasOwnState, setParams]);

  const state = readMonitorState(params, canSeeMine);
  const update = useCallback(
    (change: Partial<MonitorState>) => {
      setParams(
        (current) => {
          const next = writeMonitorState({ ...readMonitorState(current, canSeeMine), ...change });
          sessionStorage.setItem(STORAGE_KEY, next.toString());
          return next;
        },
        { replace: false },
      );
    },
    [setParams, canSeeMine],
  );
  return [state, update] as const;
}

/** Where the search screen sends a search: the monitor's All tab with that query. */
export function monitorSearchUrl(query: string): string {
  const params = writeMonitorState({ tab: 'all', query, page: 1, more: 0, mine: false });
  sessionStorage.setItem(STORAGE_KEY, params.toString());
  return `/status-monitor?${params}`;
}
