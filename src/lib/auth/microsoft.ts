/** Microsoft Entra sign-in through MSAL (loaded on demand: it is not part of the first screen). */
import { createStandardPublicClientApplication, type AuthenticationResult, type IPublicClientApplication } from '@azure/msal-browser';
import { appConfig } from '../config';
import type { AuthProvider, StoredSession } from './session';

let instance: Promise<IPublicClientApplication> | null = null;

function client(): Promise<IPublicClientApplication> {
  const config = appConfig.microsoft;
  if (!config) throw new Error('Microsoft sign-in is not configured');
  instance ??= createStandardPublicClientApplication({
    auth: {
      clientId: config.clientId,
      authority: `https://login.microsoftonline.com/${config.tenantId}`,
      redirectUri: `${location.origin}/`,
    },
    cache: { cacheLocation: 'localStorage' },
  });
  return instance as Promise<IPublicClientApplication>;
}

function toSession(result: AuthenticationResult): StoredSession {
  const claims = result.idTokenClaims as { exp?: number; preferred_username?: string; email?: string };
  return {
    provider: 'microsoft',
    email: (claims.email ?? claims.preferred_username ?? result.account.username).toLowerCase(),
    idToken: result.idToken,
    expiresAt: (claims.exp ?? 0) * 1000,
  };
}

export function microsoftProvider(): AuthProvider {
  const scopes = ['openid', 'profile', 'email'];
  return {
    id: 'microsoft',
    async signIn() {
      const msal = await client();
      return toSession(await msal.loginPopup({ scopes, prompt: 'select_account' }));
    },
    async refresh(session) {
      const msal = await client();
      const account = msal.getAllAccounts().find((a) => a.username.toLowerCase() === session.email) ?? msal.getAllAccounts()[0];
      if (!account) return null;
      try {
        return toSession(await msal.acquireTokenSilent({ scopes, account, forceRefresh: true }));
      } catch {
        return null;
      }
    },
    async signOut(session) {
      const msal = await client();
      const account = msal.getAllAccounts().find((a) => a.username.toLowerCase() === session.email);
      if (account) await msal.clearCache({ account });
    },
  };
}
