import { describe, expect, it } from 'vitest';
import { readMonitorState, writeMonitorState } from './use-monitor-state';
import { ENTRY_BY_KEYS, isEntryByKeys, monitorAddress, replacesEntry, searchedState } from '../utils/monitor-state';

describe('status monitor state in the address', () => {
  it('round-trips tab, query, page, loaded pages and the my-orders toggle', () => {
    const state = { tab: 'arrived', query: 'po>=4500100000 door', page: 3, more: 2, mine: true } as const;
    expect(readMonitorState(writeMonitorState(state), true)).toEqual(state);
  });
  it('falls back to safe values for junk and hides my orders from roles without it', () => {
    expect(readMonitorState(new URLSearchParams('tab=evil&page=-4&more=x'), true)).toEqual({ tab: 'all', query: '', page: 1, more: 0, mine: false });
    expect(readMonitorState(new URLSearchParams('tab=mine&mine=1'), false)).toMatchObject({ tab: 'all', mine: false });
    expect(readMonitorState(new URLSearchParams('more=500'), true).more).toBe(20);
  });
  it('leaves the address clean in the default state', () => {
    expect(writeMonitorState({ tab: 'all', query: '', page: 1, more: 0, mine: false }).toString()).toBe('');
  });
});

describe('the monitor address and its history entries', () => {
  it('names the state as pathname + search, clean in the default state', () => {
    expect(monitorAddress({ tab: 'all', query: '', page: 1, more: 0, mine: false })).toBe('/status-monitor');
    expect(monitorAddress({ tab: 'arrived', query: 'door', page: 2, more: 3, mine: true })).toBe('/status-monitor?tab=arrived&q=door&page=2&more=3&mine=1');
  });
  it('replaces the entry for "Load more" only: a tab, a search, the toggle and the pager add one', () => {
    expect(replacesEntry({ more: 3 })).toBe(true);
    expect(replacesEntry({ tab: 'arrived', page: 1, more: 0 })).toBe(false);
    expect(replacesEntry({ query: 'door', page: 1, more: 0 })).toBe(false);
    expect(replacesEntry({ mine: true, page: 1, more: 0 })).toBe(false);
    expect(replacesEntry({ page: 3, more: 0 })).toBe(false);
    expect(replacesEntry({})).toBe(false);
  });
  it('makes one entry of a run of arrow keys through the tabs: the first key adds it, the keys after it replace it', () => {
    const tab = { tab: 'arrived', page: 1, more: 0 } as const;
    expect(replacesEntry(tab, { viaKeyboard: true })).toBe(false);
    expect(replacesEntry(tab, { viaKeyboard: true, fromEntryByKeys: true })).toBe(true);
    // A click on a tab after the keys is a choice of its own.
    expect(replacesEntry(tab, { fromEntryByKeys: true })).toBe(false);
    expect(isEntryByKeys(ENTRY_BY_KEYS)).toBe(true);
    expect(isEntryByKeys(null)).toBe(false);
    expect(isEntryByKeys({ from: '/status-monitor' })).toBe(false);
  });
  it('a search from /search keeps the tab and My orders and starts again from page 1', () => {
    const left = { tab: 'mine', query: 'old', page: 5, more: 4, mine: true } as const;
    expect(searchedState(left, 'door')).toEqual({ tab: 'mine', query: 'door', page: 1, more: 0, mine: true });
    expect(searchedState({ ...left, tab: 'notifications' }, 'door').tab).toBe('all');
  });
});
