import { Suspense, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can } from '../../domain/permissions';
import { useAllowedPlants, useInNotificationPlants, useProfile } from '../../lib/profile';
import { signOut } from '../../lib/auth/use-session';
import { useIsNarrow } from '../../lib/use-media-query';
import { forgetUnsavedText } from '../../lib/unsaved-text';
import { afterFirstScreen, useFirstScreenDrawn, useMarkFirstScreen } from '../../lib/after-first-screen';
import { getSession } from '../../lib/auth/session';
import { warmProvider } from '../../lib/auth/providers';
import { RouteTitleContext } from '../../components/route-meta';
import { ListLoadingOverlay } from '../../components/ui/list-loading-overlay';
import { Spinner } from '../../components/ui/spinner';
import type { AppRoute } from '../routes';
import { navItems } from './nav-items';
import { SideBar } from './side-bar';
import { BottomBar } from './bottom-bar';
import { TopBar } from './top-bar';
import { useOfflineSync } from '../use-offline-sync';
import { useWaitingFeedback } from '../../features/feedback/api/feedback-drafts';
import { ImportantMessagesBanner, useImportantMessages } from './important-messages';
import { showToast, Toaster } from '../../components/ui/toast';
import { SignInAgain } from './sign-in-again';
import { StorageBanner } from './storage-banner';
import { EvictionNotice } from './eviction-notice';
import { LeaveGuard } from './leave-guard';
import { SignOutConfirm } from './sign-out-confirm';
import { useProfileRefused } from '../profile-error-route';
import { markOfflineReadyTold, offlineReadyPending, subscribeOfflineReady } from '../update-prompt';
import { PushPermission } from '../../features/profile/push/push-prompt';
import { usePushToasts } from '../../features/notifications/hooks/use-push-toasts';

function NotAllowed() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1 className="page-title">{t('guard.notAllowedTitle')}</h1>
      <p className="muted">{t('guard.notAllowedText')}</p>
    </section>
  );
}

/** §2 shell: side bar (desktop) or bottom bar (≤ 991 px), top bar, and the current screen. */
/** Mounts with the first screen (after its chunk, in the same commit): lib/after-first-screen.ts. */
function FirstScreenMark(): null {
  useMarkFirstScreen();
  return null;
}

/**
 * A new screen takes the focus (only the window's title changed before: keyboard and screen-reader
 * users stayed on the menu link, told nothing): its h1, which names it, else the <main> it is
 * in, never scrolling. Focus the new screen put on a field of its own, or a control of <main> that
 * stayed, is left where it is.
 */
export function focusNewScreen(main: HTMLElement | null, active: Element | null): void {
  if (!main || (active && active !== main && main.contains(active))) return;
  const heading = main.querySelector<HTMLElement>('h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  (heading ?? main).focus({ preventScroll: true });
}

/** On another screen (its path): not on the first one, nor when only the address's search changes (a filter, a page). */
function useFocusOnScreenChange(): void {
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    focusNewScreen(document.getElementById('main'), document.activeElement);
  }, [pathname]);
}

/**
 * "Ready to use without signal", once per device, told where the toasts are: the service worker's
 * first precache mostly ends on the landing page, which has none (update-prompt.tsx keeps it).
 */
function useOfflineReadyToast(): void {
  const { t } = useTranslation();
  const pending = useSyncExternalStore(subscribeOfflineReady, offlineReadyPending, () => false);
  useEffect(() => {
    if (!pending) return;
    markOfflineReadyTold();
    showToast(t('update.offlineReady'), 'info');
  }, [pending, t]);
}

export function Shell() {
  const { t } = useTranslation();
  const profile = useProfile();
  const allowedPlants = useAllowedPlants();
  const isNarrow = useIsNarrow();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const matches = useMatches();
  const route = matches.map((match) => match.handle as AppRoute | undefined).findLast(Boolean);
  const items = useMemo(() => navItems(profile, allowedPlants), [profile, allowedPlants]);
  useOfflineSync(profile.email);
  // The sign-in SDK the session renews with, in memory before a deploy can take its chunk away.
  useEffect(() => {
    void afterFirstScreen().then(() => {
      const session = getSession();
      if (session) warmProvider(session.provider);
    });
  }, []);
  useWaitingFeedback(profile.email);
  usePushToasts();
  const importantMessages = useImportantMessages(profile.importantMessages, profile.email);
  const inNotificationPlants = useInNotificationPlants(profile);
  const firstScreenDrawn = useFirstScreenDrawn();
  const titleKey = route?.titleKey ?? 'routes.notFound';
  const allowed = !route?.capability || can(profile.permissions, route.capability);
  // The window's title names the screen (screen readers and the task switcher read it).
  const title = t(titleKey);
  useEffect(() => {
    document.title = `${title} – ${t('app.name')}`;
  }, [title, t]);
  useFocusOnScreenChange();
  useOfflineReadyToast();
  const profileRefused = useProfileRefused();
  // The menu's Logout asks first when changes are only on this phone or there is no connection (sign-out-confirm.tsx).
  const [signingOut, setSigningOut] = useState(false);
  const onSignOut = () => setSigningOut(true);
  const signOutNow = () => {
    // The question was asked and answered (typed text included): leaving does not ask again.
    forgetUnsavedText();
    void signOut(queryClient).then(() => navigate('/', { replace: true }));
  };

  return (
    <div className={`shell ${isNarrow ? 'narrow' : 'wide'}`}>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      {!isNarrow && <SideBar items={items} active={route?.nav} onSignOut={onSignOut} />}
      <div className="shell-body">
        <TopBar title={t(titleKey)} profile={profile} isNarrow={isNarrow} importantMessages={importantMessages} />
        <ImportantMessagesBanner state={importantMessages} />
        <SignInAgain userEmail={profile.email} refused={profileRefused} />
        <StorageBanner />
        <EvictionNotice />
        {/* In the page's flow, above the screen: it never covers a screen's controls (a save bar at the bottom).
            Its settings call waits until the first screen is drawn (#22). */}
        {inNotificationPlants && firstScreenDrawn && <PushPermission uid={profile.uid} userEmail={profile.email} />}
        <main id="main" className="shell-main" tabIndex={-1}>
          <RouteTitleContext.Provider value={titleKey}>
            <Suspense fallback={<Spinner label={t('loading.screen')} />}>
              <FirstScreenMark />
              {allowed ? <Outlet /> : <NotAllowed />}
            </Suspense>
          </RouteTitleContext.Provider>
          <ListLoadingOverlay />
        </main>
      </div>
      <Toaster />
      <LeaveGuard />
      {signingOut && <SignOutConfirm userEmail={profile.email} onStay={() => setSigningOut(false)} onSignOut={signOutNow} />}
      {isNarrow && <BottomBar items={items} active={route?.nav} onSignOut={onSignOut} />}
    </div>
  );
}
