/** Microsoft Entra sign-in through MSAL (loaded on demand: it is not part of the first screen). */
import { createStandardPublicClientApplication, type AuthenticationResult, type IPublicClientApplication } from '@azure/msal-browser';
import { appConfig } from '../config';
import type { AuthProvider, StoredSession } from './session';
import { isUnreachable } from './unreachable';

let instance: Promise<IPublicClientApplication> | null = null;

function client(): Promise<IPublicClientApplication> {
  const config = appConfig.microsoft;
  if (!config) throw new Error('Microsoft sign-in is not configured');
  instance ??= createStandardPublicClientApplication({
    auth: {
      clientId: config.clientId,
      authority: `https://login.microsoftonline.com/${config.tenantId}`,
      // A passive same-origin page (server/routes/auth.ts): MSAL 5 reads the pop-up's and the
      // renewal frame's answer from its address. The app's own page navigated away first, and
      // MSAL's default (a redirect-bridge page broadcasting the answer) is not built here.
      redirectUri: `${location.origin}/auth/msal-callback`,
    },
    cache: { cacheLocation: 'localStorage' },
    system: { enableLegacyPolling: true },
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
    // The MSAL account of this session: where the mail address is not the sign-in name (UPN), a
    // lookup by address found none, and another user's cached account took over on renewal.
    accountId: result.account.homeAccountId,
  };
}

export function microsoftProvider(): AuthProvider {
  const scopes = ['openid', 'profile', 'email'];
  return {
    id: 'microsoft',
    async signIn() {
      const msal = await client();
      // 'login', not 'select_account': on a shared phone the previous user's tile signed the next
      // person in as them with one tap while their Microsoft session lived (our sign-out clears
      // the app's cache, not Microsoft's session). Sign-in is rare: tokens renew silently.
      return toSession(await msal.loginPopup({ scopes, prompt: 'login' }));
    },
    async refresh(session) {
      const msal = await client();
      // This session's account only: never another one cached on a shared device.
      const account = session.accountId ? msal.getAccount({ homeAccountId: session.accountId }) : null;
      if (!account) return null;
      try {
        return toSession(await msal.acquireTokenSilent({ scopes, account, forceRefresh: true }));
      } catch (error) {
        // No answer is not a refusal: the caller keeps the session (refresh.ts).
        if (isUnreachable(error)) throw error;
        return null;
      }
    },
    async signOut() {
      const msal = await client();
      // Every cached account and token goes: the next person on this device starts from nothing.
      await msal.clearCache();
    },
  };
}
