/**
 * The router over the route table (#22: no chunk chains). Navigating to an app route starts, in
 * one go and before anything renders: the guard + shell chunk, the screen's chunk, the profile,
 * permission constants and allowed plants (in parallel, each from the mirror when offline) and
 * the screen's first data query. A chunk that does not load is reported as a timeout or missing,
 * with a reload button (route-error.tsx).
 */
import { Suspense } from 'react';
import { createBrowserRouter, Outlet, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/ui/error-alert';
import { UserInfoLoading } from '../components/ui/user-info-loading';
import { getSession } from '../lib/auth/session';
import { lazyScreen } from '../lib/chunk-load';
import { loadLocale } from '../lib/i18n';
import { sessionQueries } from '../lib/profile';
import { RequireSession } from './require-session';
import { RouteError } from './route-error';
import { ROUTES, type AppRoute } from './routes';
import { UpdatePrompt } from './update-prompt';

// App screens need every English text (the fallback of every locale), not only the first screen's,
// and the date plugins their screens format with.
const GuardedShell = lazyScreen(() =>
  Promise.all([import('./guarded-shell'), loadLocale('en-US'), import('../lib/dates')]).then(([module]) => module),
);

function Root() {
  return (
    <>
      <Suspense fallback={<UserInfoLoading />}>
        <Outlet />
      </Suspense>
      <ErrorAlert />
      <UpdatePrompt />
    </>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <main className="center-screen">
      <h1 className="page-title">{t('routes.notFound')}</h1>
      <a className="button primary" href="/status-monitor">
        {t('common.goHome')}
      </a>
    </main>
  );
}

/** The guard's three calls, started together (offline: read from the mirror at once). */
export function prefetchSession(queryClient: QueryClient): void {
  if (!getSession()) return;
  void queryClient.prefetchQuery(sessionQueries.profile());
  void queryClient.prefetchQuery(sessionQueries.permissions());
  void queryClient.prefetchQuery(sessionQueries.allowedPlants());
}

export function createRouter(queryClient: QueryClient) {
  // Loaders start work and return at once: the screens show their own loading states.
  const toRoute = (route: AppRoute): RouteObject => ({
    path: route.path,
    handle: route,
    Component: route.screen,
    ErrorBoundary: RouteError,
    loader: ({ request, params }: LoaderFunctionArgs) => {
      void route.screen.preload();
      const session = getSession();
      if (route.prefetch && session) route.prefetch({ queryClient, userEmail: session.email, url: new URL(request.url), params });
      return null;
    },
  });
  const routes: RouteObject[] = [
    {
      Component: Root,
      ErrorBoundary: RouteError,
      HydrateFallback: UserInfoLoading,
      children: [
        ...ROUTES.filter((r) => r.access === 'public').map(toRoute),
        {
          element: (
            <RequireSession>
              <Outlet />
            </RequireSession>
          ),
          loader: () => {
            prefetchSession(queryClient);
            return null;
          },
          children: [
            ...ROUTES.filter((r) => r.access === 'session').map(toRoute),
            {
              Component: GuardedShell,
              loader: () => {
                void GuardedShell.preload();
                return null;
              },
              children: ROUTES.filter((r) => r.access === 'app').map(toRoute),
            },
          ],
        },
        { path: '*', Component: NotFound },
      ],
    },
  ];
  return createBrowserRouter(routes);
}
