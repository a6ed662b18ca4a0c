/**
 * §2: the status monitor keeps its state (tab, search, page, loaded pages, my-orders toggle) when
 * the user navigates away and back. The state lives in the address (shareable, survives reload)
 * and a copy in sessionStorage restores it when the user comes back through the side bar, whose
 * link carries no parameters.
 */
import { useCallback, useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import {
  ENTRY_BY_KEYS,
  isEntryByKeys,
  monitorAddress,
  PARAM_NAMES,
  readMonitorState,
  rememberedMonitorParams,
  replacesEntry,
  searchedState,
  STORAGE_KEY,
  writeMonitorState,
  type MonitorState,
} from '../utils/monitor-state';

export { MONITOR_TABS, readMonitorState, rememberedMonitorParams, writeMonitorState, type MonitorState, type MonitorTab } from '../utils/monitor-state';

export function useMonitorState(canSeeMine: boolean) {
  const [params, setParams] = useSearchParams();
  const hasOwnState = PARAM_NAMES.some((name) => params.has(name));

  // Back through the side bar: the remembered state is read in this render, not put back after
  // it (the default All list was drawn and asked for first, then the remembered one); the effect
  // only writes it into the address, which then names what is shown.
  useEffect(() => {
    if (hasOwnState) return;
    const saved = sessionStorage.getItem(STORAGE_KEY);
    if (saved) setParams(new URLSearchParams(saved), { replace: true });
  }, [hasOwnState, setParams]);

  const state = readMonitorState(hasOwnState ? params : rememberedMonitorParams(params), canSeeMine);
  const fromEntryByKeys = isEntryByKeys(useLocation().state);
  // `viaKeyboard`: a tab chosen with the arrow keys, whose run of keys makes one entry (replacesEntry).
  const update = useCallback(
    (change: Partial<MonitorState>, options: { replace?: boolean; viaKeyboard?: boolean } = {}) => {
      setParams(
        (current) => {
          const next = writeMonitorState({ ...readMonitorState(rememberedMonitorParams(current), canSeeMine), ...change });
          sessionStorage.setItem(STORAGE_KEY, next.toString());
          return next;
        },
        {
          replace: options.replace ?? replacesEntry(change, { viaKeyboard: options.viaKeyboard, fromEntryByKeys }),
          // The entry a key made says so, for the next key of the run to replace it.
          state: options.viaKeyboard === true ? ENTRY_BY_KEYS : undefined,
        },
      );
    },
    [setParams, canSeeMine, fromEntryByKeys],
  );
  return [state, update] as const;
}

/**
 * Where the search screen sends a search: the monitor as it was left (tab, My orders) with that
 * query, from page 1. It wrote the All tab without My orders, turning the toggle off unseen.
 */
export function monitorSearchUrl(query: string): string {
  // The permission to see "my orders" is not known here: the monitor reads the address with it.
  const saved = readMonitorState(rememberedMonitorParams(new URLSearchParams()), true);
  const next = searchedState(saved, query);
  sessionStorage.setItem(STORAGE_KEY, writeMonitorState(next).toString());
  return monitorAddress(next);
}
