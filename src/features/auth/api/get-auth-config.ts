import { queryOptions, useQuery } from '@tanstack/react-query';
import ky from 'ky';
import type { AuthConfig, DemoAccount } from '../../../contract/auth';
import { appConfig } from '../../../lib/config';

const NO_LOCAL: AuthConfig = { localSignIn: false, demoAccounts: [], allowedDomains: [] };

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isDemoAccount(value: unknown): value is DemoAccount {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.email === 'string' && typeof v.displayName === 'string' && typeof v.note === 'string' && isStringArray(v.grants);
}

/**
 * Checked by hand, not with the zod contract: the landing page is the first screen and
 * must stay light (zod loads with the app shell, after sign-in).
 */
export function parseAuthConfig(body: unknown): AuthConfig {
  if (!body || typeof body !== 'object') return NO_LOCAL;
  const v = body as Record<string, unknown>;
  if (typeof v.localSignIn !== 'boolean' || !Array.isArray(v.demoAccounts) || !isStringArray(v.allowedDomains)) return NO_LOCAL;
  return { localSignIn: v.localSignIn, demoAccounts: v.demoAccounts.filter(isDemoAccount), allowedDomains: v.allowedDomains };
}

/**
 * Sign-in options of the user service host. Company services do not have this call: then only
 * the configured Microsoft / Google providers are offered.
 */
export async function getAuthConfig(): Promise<AuthConfig> {
  try {
    return parseAuthConfig(await ky.get(`${appConfig.hosts.user || location.origin}/auth/config`, { retry: 0, timeout: 10_000 }).json());
  } catch {
    return NO_LOCAL;
  }
}

export const authConfigQuery = () =>
  queryOptions({ queryKey: ['auth', 'config'] as const, queryFn: getAuthConfig, staleTime: Infinity, meta: { silent: true } });

export const useAuthConfig = () => useQuery(authConfigQuery());
