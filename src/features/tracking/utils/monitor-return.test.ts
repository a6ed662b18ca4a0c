/** §2: back from an order to the monitor's entry and its position. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cameFromMonitor, forgetMonitorScroll, FROM_MONITOR, saveMonitorScroll, savedMonitorScroll, SCROLL_KEY } from './monitor-return';

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

describe('an order opened from the monitor', () => {
  it('is told by its entry’s state, and nothing else is', () => {
    expect(cameFromMonitor(FROM_MONITOR)).toBe(true);
    expect(cameFromMonitor(structuredClone(FROM_MONITOR))).toBe(true); // as history.state gives it back after a reload
    expect(cameFromMonitor(null)).toBe(false);
    expect(cameFromMonitor(undefined)).toBe(false);
    expect(cameFromMonitor({ from: 'search' })).toBe(false);
    expect(cameFromMonitor('status-monitor')).toBe(false);
  });
});

describe('the monitor’s position per address', () => {
  it('is kept per pathname + search and put back once', () => {
    saveMonitorScroll('/status-monitor?tab=arrived&more=2', 1834.5);
    saveMonitorScroll('/status-monitor', 300);
    expect(savedMonitorScroll('/status-monitor?tab=arrived&more=2')).toBe(1835);
    expect(savedMonitorScroll('/status-monitor')).toBe(300);
    expect(savedMonitorScroll('/status-monitor?tab=incoming')).toBeNull();
    forgetMonitorScroll('/status-monitor?tab=arrived&more=2');
    expect(savedMonitorScroll('/status-monitor?tab=arrived&more=2')).toBeNull();
    expect(savedMonitorScroll('/status-monitor')).toBe(300);
    forgetMonitorScroll('/status-monitor');
    expect(stored.has(SCROLL_KEY)).toBe(false);
  });

  it('keeps the latest position of an address, and a few addresses only', () => {
    saveMonitorScroll('/status-monitor', 100);
    saveMonitorScroll('/status-monitor', 900);
    expect(savedMonitorScroll('/status-monitor')).toBe(900);
    for (let page = 2; page <= 30; page++) saveMonitorScroll(`/status-monitor?page=${page}`, page);
    expect(savedMonitorScroll('/status-monitor')).toBeNull();
    expect(savedMonitorScroll('/status-monitor?page=30')).toBe(30);
  });

  it('reads junk and a missing storage as nothing kept', () => {
    stored.set(SCROLL_KEY, '{not json');
    expect(savedMonitorScroll('/status-monitor')).toBeNull();
    stored.set(SCROLL_KEY, JSON.stringify([['/status-monitor', 'x'], 7]));
    expect(savedMonitorScroll('/status-monitor')).toBeNull();
    vi.stubGlobal('sessionStorage', undefined);
    expect(savedMonitorScroll('/status-monitor')).toBeNull();
    expect(() => saveMonitorScroll('/status-monitor', 5)).not.toThrow();
  });
});
