/** A tab follows another tab's sign-out: what it held of the user who left is not the next user's. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../../../tests/setup/memory-storage';
import type { StoredSession } from './session';

const alice: StoredSession = { provider: 'local', email: 'alice@example.com', idToken: 'a', expiresAt: 0 };
const bob: StoredSession = { provider: 'local', email: 'bob@example.com', idToken: 'b', expiresAt: 0 };

/** The page's window as far as the session module uses it (the unit tests run in Node). */
let page: EventTarget;
/** Another tab writes the shared localStorage; this tab hears a `storage` event. */
function otherTab(session: StoredSession | null) {
  if (session) localStorage.setItem('session', JSON.stringify(session));
  else localStorage.removeItem('session');
  page.dispatchEvent(Object.assign(new Event('storage'), { key: 'session' }));
}

describe('a tab whose user signed out in another tab', () => {
  beforeEach(() => {
    page = new EventTarget();
    Object.defineProperty(globalThis, 'addEventListener', { value: page.addEventListener.bind(page), configurable: true });
    Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
    Object.defineProperty(globalThis, 'sessionStorage', { value: new MemoryStorage(), configurable: true });
  });
  afterEach(() => {
    vi.resetModules();
    Reflect.deleteProperty(globalThis, 'addEventListener');
  });

  it('forgets its screen state and cached answers, and sends nobody back to the screen it showed', async () => {
    const session = await import('./session');
    session.setSession(alice);
    sessionStorage.setItem('monitor.search', '4500111273');
    const cleared = vi.fn();
    session.onUserChangedElsewhere(cleared);

    otherTab(null);
    expect(session.getSession()).toBeNull();
    expect(sessionStorage.getItem('monitor.search')).toBeNull();
    expect(cleared).toHaveBeenCalledOnce();
    expect(session.endedElsewhere()).toBe(true);

    // Signing in here is this tab's own: a later loss of the session comes back as before.
    session.setSession(bob);
    expect(session.endedElsewhere()).toBe(false);
  });

  it('does the same when another tab signs in as someone else, and nothing when the same user renews', async () => {
    const session = await import('./session');
    session.setSession(alice);
    const cleared = vi.fn();
    session.onUserChangedElsewhere(cleared);
    sessionStorage.setItem('monitor.search', 'x');
    otherTab({ ...alice, idToken: 'renewed' });
    expect(cleared).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('monitor.search')).toBe('x');
    expect(session.getSession()?.idToken).toBe('renewed');

    otherTab(bob);
    expect(cleared).toHaveBeenCalledOnce();
    expect(sessionStorage.getItem('monitor.search')).toBeNull();
    expect(session.getSession()?.email).toBe('bob@example.com');
  });
});
