/**
 * §2 navigation guard and §4 login flow. Signed-in users get their profile, the permission
 * constants and the allowed plants loaded before any app screen; then, in order of precedence:
 * expired → /user-expired; pending approval (403 or approvalRequestId) → /welcome;
 * firstLogin → /first-login; a screen the roles do not allow → the "not allowed" notice.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorMessage, statusOf } from '../lib/api-client';
import { signOut } from '../lib/auth/use-session';
import { sessionQueries } from '../lib/profile';
import { changeLanguage } from '../lib/i18n';
import { UserInfoLoading } from '../components/ui/user-info-loading';
import { ProfileRefused, routeForProfileError, type GuardOutcome } from './profile-error-route';

function useProfileError(error: unknown, hasProfile: boolean): GuardOutcome | null {
  const [outcome, setOutcome] = useState<GuardOutcome | null>(null);
  useEffect(() => {
    if (!error) {
      setOutcome(null);
      return;
    }
    let active = true;
    void errorMessage(error).then((message) => {
      if (active) setOutcome(routeForProfileError(statusOf(error), message, hasProfile));
    });
    return () => {
      active = false;
    };
  }, [error, hasProfile]);
  return outcome;
}

export function RequireProfile({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [profile, permissions, allowedPlants] = useQueries({
    queries: [sessionQueries.profile(), sessionQueries.permissions(), sessionQueries.allowedPlants()],
  });
  const profileError = useProfileError(profile.error, profile.data !== undefined);
  // A new account's profile holds the server's default language until the first-login screen
  // stores the one the app was shown in: the app is not switched to it meanwhile (unless locked).
  const locale = profile.data && (!profile.data.firstLogin || profile.data.isLocaleLocked) ? profile.data.locale : undefined;

  useEffect(() => {
    if (locale) void changeLanguage(locale);
  }, [locale]);
  useEffect(() => {
    if (profileError?.kind === 'redirect' && profileError.to === '/') void signOut(queryClient);
  }, [profileError, queryClient]);

  // A redirect (expired, pending approval) applies even over a profile at hand; a refused sign-in
  // (401) redirects only a start without one (profile-error-route.ts).
  if (profile.error && profileError?.kind === 'redirect') return <Navigate to={profileError.to} replace />;
  // A failed re-read (the profile is read again after 5 minutes) keeps the shell and what is
  // typed in it: the error page is only for a start without a profile.
  if (profile.error && !profile.data) {
    if (!profileError) return <UserInfoLoading />;
    return (
      <main className="center-screen">
        <h1 className="page-title">{t('guard.unreachableTitle')}</h1>
        <p className="muted">{profileError.kind === 'offline' ? profileError.message : ''}</p>
        <button type="button" className="button primary" onClick={() => void profile.refetch()}>
          {t('common.tryAgain')}
        </button>
      </main>
    );
  }
  if (!profile.data || permissions.isPending || allowedPlants.isPending) return <UserInfoLoading />;
  if (profile.data.approvalRequestId) return <Navigate to="/welcome" replace />;
  if (profile.data.firstLogin && location.pathname !== '/first-login') return <Navigate to="/first-login" replace />;
  // A refused re-read does not sign out mid-work: queued counts would stay behind a landing page
  // that cannot sign in offline. The user signs in again from the notice when ready.
  const refused = Boolean(profile.error) && profileError?.kind === 'signInAgain';
  return <ProfileRefused.Provider value={refused}>{children}</ProfileRefused.Provider>;
}
