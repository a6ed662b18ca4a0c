import { describe, expect, it } from 'vitest';
import { readMonitorState, writeMonitorState } from './use-monitor-state';

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
