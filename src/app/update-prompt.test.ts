/**
 * An installed app left open looks for a new version (one check at a time, none offline), and
 * says "Ready to use without signal" once per device, in the shell that shows toasts.
 */
import { describe, expect, it, vi } from 'vitest';
import { markOfflineReadyTold, noteOfflineReady, offlineReadyPending, subscribeOfflineReady, updateChecker } from './update-prompt';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

describe('updateChecker', () => {
  it('runs one check at a time', async () => {
    let finish = () => {};
    const update = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const check = updateChecker(update, () => true);
    expect(check()).toBe(true);
    expect(check()).toBe(false);
    await vi.waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    finish();
    await vi.waitFor(() => expect(check()).toBe(true));
    await vi.waitFor(() => expect(update).toHaveBeenCalledTimes(2));
  });

  it('does not check offline, and a failed check does not stop the next', async () => {
    let online = false;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const update = vi.fn<() => Promise<void>>().mockRejectedValueOnce(new Error('no network')).mockResolvedValue(undefined);
    const check = updateChecker(update, () => online);
    try {
      expect(check()).toBe(false);
      online = true;
      expect(check()).toBe(true);
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('Looking for a new version failed', expect.any(Error)));
      await vi.waitFor(() => expect(check()).toBe(true));
      await vi.waitFor(() => expect(update).toHaveBeenCalledTimes(2));
    } finally {
      warn.mockRestore();
    }
  });
});

describe('"Ready to use without signal"', () => {
  it('is due after the first precache until the shell told it, then never again on this device', () => {
    const store = memoryStorage();
    const heard = vi.fn();
    const stop = subscribeOfflineReady(heard);
    try {
      expect(offlineReadyPending(store)).toBe(false);
      noteOfflineReady(store);
      expect(heard).toHaveBeenCalled();
      expect(offlineReadyPending(store)).toBe(true);
      markOfflineReadyTold(store);
      expect(offlineReadyPending(store)).toBe(false);
      noteOfflineReady(store);
      expect(offlineReadyPending(store)).toBe(false);
    } finally {
      stop();
    }
  });

  it('is not told at every start where storage cannot be written', () => {
    const blocked = { getItem: () => null, setItem: () => { throw new Error('blocked'); } };
    expect(() => noteOfflineReady(blocked)).not.toThrow();
    expect(offlineReadyPending(blocked)).toBe(false);
  });
});
