import ky from 'ky';
import { appConfig } from '../config';
import type { AuthProvider, ProviderId, StoredSession } from './session';

/** Local demo issuer of the reference back end (embedded default only). */
const localProvider: AuthProvider = {
  id: 'local',
  async signIn(email) {
    if (!email) throw new Error('Field email is required');
    const url = `${appConfig.hosts.user}/auth/local/token`;
    const { idToken, expiresIn } = await ky
      .post(url, { json: { email }, retry: 0 })
      .json<{ idToken: string; expiresIn: number }>();
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
