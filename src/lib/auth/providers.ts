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

export function configuredProviders(): ProviderId[] {
  const ids: ProviderId[] = [];
  if (appConfig.microsoft) ids.push('microsoft');
  if (appConfig.firebase) ids.push('google');
  return ids;
}

export type { StoredSession };
