import { describe, expect, it, vi } from 'vitest';
import { renewSubscription, type Subscriber } from './push-subscription';

const key = new Uint8Array([4, 1, 2, 3]).buffer;

function pushManager(fails = false) {
  const calls: PushSubscriptionOptionsInit[] = [];
  const manager: Subscriber = {
    subscribe: async (options) => {
      calls.push(options);
      if (fails) throw new DOMException('Permission denied', 'NotAllowedError');
      return {};
    },
  };
  return { manager, calls };
}

describe('a subscription the browser renewed or dropped', () => {
  it('subscribes again with the old subscription’s options', async () => {
    const { manager, calls } = pushManager();
    const old = { options: { applicationServerKey: key, userVisibleOnly: true } };
    expect(await renewSubscription({ oldSubscription: old, newSubscription: null }, manager)).toBe('renewed');
    expect(calls).toEqual([{ userVisibleOnly: true, applicationServerKey: key }]);
  });

  it('keeps the one the browser made, and does nothing without a key to go by', async () => {
    const { manager, calls } = pushManager();
    const old = { options: { applicationServerKey: key, userVisibleOnly: true } };
    expect(await renewSubscription({ oldSubscription: old, newSubscription: {} }, manager)).toBe('kept');
    expect(await renewSubscription({ oldSubscription: null, newSubscription: null }, manager)).toBe('none');
    expect(await renewSubscription({ oldSubscription: { options: { applicationServerKey: null, userVisibleOnly: true } }, newSubscription: null }, manager)).toBe('none');
    expect(calls).toEqual([]);
  });

  it('gives up quietly when the browser refuses (permission withdrawn)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { manager } = pushManager(true);
    const old = { options: { applicationServerKey: key, userVisibleOnly: true } };
    expect(await renewSubscription({ oldSubscription: old, newSubscription: null }, manager)).toBe('failed');
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
