/**
 * §2: the status monitor keeps its state (tab, search, page, loaded pages, my-orders toggle) when
 * the user navigates away and back. The state lives in the address (shareable, survives reload)
 * and a copy in sessionStorage restores it when the user comes back through the side bar, whose
 * link carries no parameters.
 */
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PARAM_NAMES, readMonitorState, STORAGE_KEY, writeMonitorState, type MonitorState } from '../utils/monitor-state';

export { MONITOR_TABS, readMonitorState, rememberedMonitorParams, writeMonitorState, type MonitorState, type MonitorTab } from '../utils/monitor-state';

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
