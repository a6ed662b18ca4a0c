import { appConfig } from '../config';
import type { AuthProvider, ProviderId, StoredSession } from './session';

/**
 * Local demo issuer of the reference back end (embedded default only). Plain fetch: the landing
 * page signs in with it and does not load ky (#22). A refusal throws the server's message.
 */
const localProvider: AuthProvider = {
  id: 'local',
  async signIn(email) {
    if (!email) throw new Error('Field email is required');
    const response = await fetch(`${appConfig.hosts.user}/auth/local/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const body = (await response.json().catch(() => null)) as { idToken?: unknown; expiresIn?: unknown; message?: unknown } | null;
    if (!response.ok || typeof body?.idToken !== 'string' || typeof body.expiresIn !== 'number') {
      throw new Error(typeof body?.message === 'string' ? body.message : `${response.status} ${response.statusText}`);
    }
    const { idToken, expiresIn } = body;
    return { provider: 'local', email: email.trim().toLowerCase(), idToken, expiresAt: Date.now() + expiresIn * 1000 };
  },
  async refresh(session) {
    return this.signIn(session.email);
  },
  async signOut() {},
};

const loaders: Record<ProviderId, () => Promise<AuthProvider>> = {
  local: async () => localProvider,
  microsoft: async () => (await import('./microsoft')).microsoftProvider(),
  google: async () => (await import('./google')).googleProvider(),
};

export function loadProvider(id: ProviderId): Promise<AuthProvider> {
  return loaders[id]();
}

/**
 * The signed-in provider's SDK, read into the page once its first screen is drawn. Sign-in SDKs
 * are not precached (vite.config.ts), so a page of the version before a deploy found its chunk gone
 * from the server at its first token renewal, and read that as "no network" until reloaded. Once
 * imported, the module stays in the page's memory. Offline, it is tried again when the network is back.
 */
export function warmProvider(id: ProviderId): void {
  if (id === 'local') return;
  const load = () => (id === 'microsoft' ? import('./microsoft') : import('./google'));
  load().catch(() => window.addEventListener('online', () => void load().catch(() => undefined), { once: true }));
}

export function configuredProviders(): ProviderId[] {
  const ids: ProviderId[] = [];
  if (appConfig.microsoft) ids.push('microsoft');
  if (appConfig.firebase) ids.push('google');
  return ids;
}

export type { StoredSession };
