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
  if (session) localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else localStorage.removeItem(STORAGE_KEY);
  listeners.forEach((listener) => listener());
}

// Another tab signed in or out: this tab follows (its copy would otherwise keep the old user's
// token, and write it back at its next renewal, undoing the sign-out for the whole browser).
globalThis.addEventListener?.('storage', (event: StorageEvent) => {
  if (event.key !== STORAGE_KEY && event.key !== null) return;
  current = readStored();
  listeners.forEach((listener) => listener());
});

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
