import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredSession } from './session';
import { MemoryStorage } from '../../../tests/setup/memory-storage';

/** The provider's renewal, answered when the test says. */
let answer: (session: StoredSession | null) => void = () => {};
let fail: (error: unknown) => void = () => {};
vi.mock('./providers', () => ({
  loadProvider: async () => ({
    refresh: () =>
      new Promise<StoredSession | null>((resolve, reject) => {
        answer = resolve;
        fail = reject;
      }),
  }),
}));

const alice: StoredSession = { provider: 'microsoft', email: 'alice@example.com', idToken: 'old', expiresAt: 0, accountId: 'a' };

describe('a token renewal', () => {
  beforeEach(() => {
    Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
  });
  afterEach(() => vi.resetModules());

  it('renews the session it started from', async () => {
    const { getSession, setSession } = await import('./session');
    const { refreshIdToken } = await import('./refresh');
    setSession(alice);
    const renewed = refreshIdToken();
    await new Promise((resolve) => setTimeout(resolve, 0));
    answer({ ...alice, idToken: 'new' });
    expect(await renewed).toBe('new');
    expect(getSession()?.idToken).toBe('new');
  });

  it('that answers after a sign-out does not sign the user back in', async () => {
    const { getSession, setSession } = await import('./session');
    const { refreshIdToken } = await import('./refresh');
    setSession(alice);
    const renewed = refreshIdToken();
    await new Promise((resolve) => setTimeout(resolve, 0));
    setSession(null);
    answer({ ...alice, idToken: 'new' });
    expect(await renewed).toBeNull();
    expect(getSession()).toBeNull();
  });

  it('that answers after another user signed in leaves that user signed in', async () => {
    const { getSession, setSession } = await import('./session');
    const { refreshIdToken } = await import('./refresh');
    setSession(alice);
    const renewed = refreshIdToken();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const bob: StoredSession = { ...alice, email: 'bob@example.com', idToken: 'bob', accountId: 'b' };
    setSession(bob);
    answer({ ...alice, idToken: 'new' });
    expect(await renewed).toBeNull();
    expect(getSession()).toEqual(bob);
  });

  it('that gets no answer (no signal) keeps the session and fails as a network failure, not as "sign in again"', async () => {
    const { getSession, setSession } = await import('./session');
    const { refreshIdToken } = await import('./refresh');
    const { isNetworkFailure } = await import('../../offline/errors');
    setSession(alice);
    const renewed = refreshIdToken();
    await new Promise((resolve) => setTimeout(resolve, 0));
    fail(Object.assign(new Error('network request failed'), { errorCode: 'no_network_connectivity' }));
    const error = await renewed.then(() => null, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(TypeError);
    expect(isNetworkFailure(error)).toBe(true);
    expect(getSession()).toEqual(alice);
  });

  it('that the provider refuses answers null: the user signs in again', async () => {
    const { setSession } = await import('./session');
    const { refreshIdToken } = await import('./refresh');
    setSession(alice);
    const renewed = refreshIdToken();
    await new Promise((resolve) => setTimeout(resolve, 0));
    fail(Object.assign(new Error('interaction required'), { errorCode: 'interaction_required' }));
    expect(await renewed).toBeNull();
  });
});

