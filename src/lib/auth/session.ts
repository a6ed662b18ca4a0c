/**
 * The signed-in session: which provider, and the current id token. Kept in localStorage so a
 * mechanic who reopens the app in a basement is still signed in (the mirror serves the data).
 * Providers live behind one interface; MSAL and Firebase are loaded only when used.
 */
export type ProviderId = 'local' | 'microsoft' | 'google';

export interface StoredSession {
  provider: ProviderId;
  email: string;
  idToken: string;
  /** Epoch ms when the token expires. */
  expiresAt: number;
  /** The provider's own account id (MSAL's homeAccountId), where the provider has one. */
  accountId?: string;
}

export interface AuthProvider {
  id: ProviderId;
  /** Interactive sign-in. `email` is used by the local demo provider only. */
  signIn(email?: string): Promise<StoredSession>;
  /** A fresh token for the signed-in account, or null when the account must sign in again. */
  refresh(session: StoredSession): Promise<StoredSession | null>;
  signOut(session: StoredSession): Promise<void>;
}

const STORAGE_KEY = 'session';
type Listener = () => void;
const listeners = new Set<Listener>();
let current: StoredSession | null = readStored();

function readStored(): StoredSession | null {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof parsed.idToken !== 'string' || typeof parsed.provider !== 'string' || typeof parsed.email !== 'string') {
      return null;
    }
    return parsed as StoredSession;
  } catch {
    return null;
  }
}

export function getSession(): StoredSession | null {
  return current;
}

export function setSession(session: StoredSession | null): void {
  current = session;
  leftElsewhere = false;
  if (session) localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else localStorage.removeItem(STORAGE_KEY);
  listeners.forEach((listener) => listener());
}

const userChangedElsewhere = new Set<Listener>();
/** This tab's session ended because another tab signed out (or in as someone else): see `endedElsewhere`. */
let leftElsewhere = false;

/**
 * Work for this tab when another tab signed out or in as someone else: what this tab holds of the
 * user who left (its query cache) must not be the next user's. The app registers it (lib holds no
 * query client).
 */
export function onUserChangedElsewhere(listener: Listener): () => void {
  userChangedElsewhere.add(listener);
  return () => userChangedElsewhere.delete(listener);
}

/** True when the session ended in another tab: the screen this tab showed is not the next user's to come back to. */
export function endedElsewhere(): boolean {
  return leftElsewhere && current === null;
}

// Another tab signed in or out: this tab follows (its copy would otherwise keep the old user's
// token, and write it back at its next renewal, undoing the sign-out for the whole browser).
globalThis.addEventListener?.('storage', (event: StorageEvent) => {
  if (event.key !== STORAGE_KEY && event.key !== null) return;
  const before = current;
  current = readStored();
  if (before && before.email !== current?.email) {
    leftElsewhere = true;
    // The tab's screen state (search, tab, scroll) and cached answers were the user's who left.
    try {
      sessionStorage.clear();
    } catch {
      // storage blocked: nothing was kept
    }
    userChangedElsewhere.forEach((listener) => listener());
  }
  listeners.forEach((listener) => listener());
});

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
