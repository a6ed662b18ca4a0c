/** §2: the monitor's remembered state, read in the first render, and where /search sends a search. */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { monitorSearchUrl, useMonitorState } from './use-monitor-state';
import { STORAGE_KEY } from '../utils/monitor-state';

let stored: Map<string, string>;
beforeEach(() => {
  stored = new Map();
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  });
});
afterEach(() => vi.unstubAllGlobals());

function Shown() {
  const [state] = useMonitorState(true);
  return <output>{JSON.stringify(state)}</output>;
}
const firstRender = (address: string) =>
  JSON.parse(
    renderToStaticMarkup(
      <MemoryRouter initialEntries={[address]}>
        <Shown />
      </MemoryRouter>,
    ).replace(/^<output>|<\/output>$/g, '').replace(/&quot;/g, '"'),
  ) as unknown;

describe('the status monitor state', () => {
  it('comes back through the side bar as it was left in the first render (no default All list drawn and asked for first)', () => {
    stored.set(STORAGE_KEY, 'tab=arrived&q=door&page=2&more=1&mine=1');
    expect(firstRender('/status-monitor')).toEqual({ tab: 'arrived', query: 'door', page: 2, more: 1, mine: true });
  });

  it('is the address’s own when it has one', () => {
    stored.set(STORAGE_KEY, 'tab=arrived');
    expect(firstRender('/status-monitor?tab=incoming')).toMatchObject({ tab: 'incoming', mine: false });
  });
});

describe('a search sent from /search', () => {
  it('keeps My orders and the tab the monitor was left on, from page 1', () => {
    stored.set(STORAGE_KEY, 'tab=incoming&q=old&page=4&more=2&mine=1');
    expect(monitorSearchUrl('door')).toBe('/status-monitor?tab=incoming&q=door&mine=1');
    expect(stored.get(STORAGE_KEY)).toBe('tab=incoming&q=door&mine=1');
  });

  it('shows on All from the Notifications tab, which has no list to search', () => {
    stored.set(STORAGE_KEY, 'tab=notifications&mine=1');
    expect(monitorSearchUrl('po=4500100000')).toBe('/status-monitor?q=po%3D4500100000&mine=1');
  });

  it('starts on All without My orders when nothing was remembered', () => {
    expect(monitorSearchUrl('door')).toBe('/status-monitor?q=door');
  });
});
