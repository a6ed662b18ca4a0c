import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/ui/error-alert';
import { UserInfoLoading } from '../components/ui/user-info-loading';
import { RequireSession } from './require-session';
import { ROUTES, type AppRoute } from './routes';
import { UpdatePrompt } from './update-prompt';
import { loadLocale } from '../lib/i18n';

// App screens need every English text (the fallback of every locale), not only the first screen's.
// and the date plugins their screens format with.
const GuardedShell = lazy(() =>
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

const toRoute = (route: AppRoute): RouteObject => ({ path: route.path, handle: route, Component: route.screen });

export function createRouter() {
  const routes: RouteObject[] = [
    {
      Component: Root,
      children: [
        ...ROUTES.filter((r) => r.access === 'public').map(toRoute),
        {
          element: (
            <RequireSession>
              <Outlet />
            </RequireSession>
          ),
          children: [
            ...ROUTES.filter((r) => r.access === 'session').map(toRoute),
            {
              Component: GuardedShell,
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
