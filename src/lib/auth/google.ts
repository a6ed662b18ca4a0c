/** Google sign-in through Firebase Auth (loaded on demand). */
import { initializeApp, getApps } from 'firebase/app';
import { getAuth, GoogleAuthProvider, signInWithPopup, signOut, type User } from 'firebase/auth';
import { appConfig } from '../config';
import type { AuthProvider, StoredSession } from './session';

function auth() {
  const config = appConfig.firebase;
  if (!config) throw new Error('Google sign-in is not configured');
  const app = getApps()[0] ?? initializeApp(config);
  return getAuth(app);
}

async function toSession(user: User, forceRefresh: boolean): Promise<StoredSession> {
  const result = await user.getIdTokenResult(forceRefresh);
  return {
    provider: 'google',
    email: (user.email ?? '').toLowerCase(),
    idToken: result.token,
    expiresAt: Date.parse(result.expirationTime),
  };
}

/**
 * Google's popup, asking which account every time: on a phone shared by a crew, the account of
 * whoever signed in last would otherwise be taken without a question (Microsoft asks for the
 * password, `prompt: 'login'`). Google offers no forced password for a popup; the chooser makes
 * the next mechanic pick, or add, their own account.
 */
export function googleSignInProvider(): GoogleAuthProvider {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  return provider;
}

export function googleProvider(): AuthProvider {
  return {
    id: 'google',
    async signIn() {
      const credential = await signInWithPopup(auth(), googleSignInProvider());
      return toSession(credential.user, false);
    },
    async refresh() {
      const firebaseAuth = auth();
      await firebaseAuth.authStateReady();
      return firebaseAuth.currentUser ? toSession(firebaseAuth.currentUser, true) : null;
    },
    async signOut() {
      await signOut(auth());
    },
  };
}
