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

export function googleProvider(): AuthProvider {
  return {
    id: 'google',
    async signIn() {
      const credential = await signInWithPopup(auth(), new GoogleAuthProvider());
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
