import { useEffect, useState } from 'react';
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
 * the configured Microsoft / Google providers are offered. Plain fetch, neither ky nor TanStack
 * Query: the landing page loads neither (#22, first screen ≤ 100 KB).
 */
export async function getAuthConfig(): Promise<AuthConfig> {
  try {
    const response = await fetch(`${appConfig.hosts.user || location.origin}/auth/config`, { signal: AbortSignal.timeout(10_000) });
    return response.ok ? parseAuthConfig(await response.json()) : NO_LOCAL;
  } catch {
    return NO_LOCAL;
  }
}

let pending: Promise<AuthConfig> | null = null;
let answered: AuthConfig | null = null;

/** Asked once per page load; the start code calls it before the landing chunk arrives. */
export function loadAuthConfig(): Promise<AuthConfig> {
  pending ??= getAuthConfig().then((config) => (answered = config));
  return pending;
}

export function useAuthConfig(): { data: AuthConfig | undefined; isPending: boolean } {
  const [data, setData] = useState<AuthConfig | null>(answered);
  useEffect(() => {
    let active = true;
    void loadAuthConfig().then((config) => {
      if (active) setData(config);
    });
    return () => {
      active = false;
    };
  }, []);
  return { data: data ?? undefined, isPending: data === null };
}
