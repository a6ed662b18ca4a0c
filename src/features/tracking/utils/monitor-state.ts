/**
 * §2: the status monitor's state (tab, search, page, loaded pages, my-orders toggle) as plain
 * functions over the address's parameters, without React: the hook (use-monitor-state.ts), the
 * route table's prefetch and the entry's early calls (#22, src/app/first-screen.ts) read it the
 * same way, so the first page asked for early is the page the screen shows.
 */
import { PAGE_SIZE } from '../../../domain/constants';
import type { TrackingStatusParams } from '../../../contract/parts';
import { MAX_MORE_PAGES, wholeParam } from '../../../lib/search-params';

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

export const STORAGE_KEY = 'statusMonitor.state';
export const PARAM_NAMES = ['tab', 'q', 'page', 'more', 'mine'];

export function readMonitorState(params: URLSearchParams, canSeeMine: boolean): MonitorState {
  const tab = MONITOR_TABS.find((name) => name === params.get('tab')) ?? 'all';
  return {
    tab: tab === 'mine' && !canSeeMine ? 'all' : tab,
    query: params.get('q') ?? '',
    page: wholeParam(params.get('page'), 1, 1),
    more: Math.min(wholeParam(params.get('more'), 0, 0), MAX_MORE_PAGES),
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

/** The monitor's address for a state, clean in the default state (the key its scroll position is kept under). */
export function monitorAddress(state: MonitorState): string {
  const search = writeMonitorState(state).toString();
  return search ? `/status-monitor?${search}` : '/status-monitor';
}

/**
 * Whether a change replaces the address's history entry instead of adding one: "Load more" only
 * lengthens the list shown, and five of them took six presses of the phone's Back to leave the
 * screen. A tab, a search, the toggle or the pager stay entries of their own. A tab chosen with
 * the arrow keys (`viaKeyboard`): each key selects the tab it moves to on the way to one, so the
 * first key of a run adds an entry, as a click does (Back comes back to the tab left), and the
 * keys after it replace that entry (`fromEntryByKeys`) instead of adding one per key.
 */
export function replacesEntry(change: Partial<MonitorState>, how: { viaKeyboard?: boolean; fromEntryByKeys?: boolean } = {}): boolean {
  if (how.viaKeyboard === true) return how.fromEntryByKeys === true;
  const names = Object.keys(change);
  return names.length > 0 && names.every((name) => name === 'more');
}

/** The history state of an entry a tab chosen with the arrow keys made (replacesEntry). */
export const ENTRY_BY_KEYS = { monitorTabByKeys: true } as const;
export const isEntryByKeys = (state: unknown): boolean => typeof state === 'object' && state !== null && 'monitorTabByKeys' in state;

/**
 * A search sent from /search: the state the monitor was left in with that query, from its first
 * page. The My orders toggle and the tab stay as they were, as they do for the monitor's own
 * filter-by (the search narrows the list the user chose; the tabs still count the others). The
 * Notifications tab has no list to filter: there the search shows on All.
 */
export function searchedState(saved: MonitorState, query: string): MonitorState {
  return { ...saved, tab: saved.tab === 'notifications' ? 'all' : saved.tab, query, page: 1, more: 0 };
}

/** The address's own state, else the one remembered for the side-bar link (what the screen will show). */
export function rememberedMonitorParams(params: URLSearchParams): URLSearchParams {
  if (PARAM_NAMES.some((name) => params.has(name))) return params;
  const saved = sessionStorage.getItem(STORAGE_KEY);
  return saved ? new URLSearchParams(saved) : params;
}

/**
 * The first page's call of a start on the status monitor, or null on its Notifications tab. The
 * permission to see "my orders" is not known yet: a wrong guess costs one call, not a wrong list.
 */
export function firstPageParams(search: URLSearchParams): TrackingStatusParams | null {
  const state = readMonitorState(rememberedMonitorParams(search), true);
  if (state.tab === 'notifications') return null;
  return {
    query: state.query,
    status: state.tab === 'mine' ? 'all' : state.tab,
    myOrders: state.tab === 'mine' || state.mine,
    maxResults: PAGE_SIZE,
    page: state.page,
  };
}
