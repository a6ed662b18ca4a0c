/**
 * Every route of §2 in one table. Screens are lazy chunks; `access` says what a route needs:
 * `public` (no sign-in), `session` (signed in, profile not required to be approved) or `app`
 * (the navigation guard loaded the profile; the shell is shown). `capability` hides a screen
 * from users whose roles do not allow it (§6), with the same rule the server applies.
 * Navigating to a route starts its chunk and, where it has one, its `prefetch` (the first data
 * query) at the same time, before anything renders (#22, src/app/router.tsx).
 */
import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Capability, NavEntry } from '../domain/permissions';
import { lazyScreen as lazy, type LazyScreen } from '../lib/chunk-load';
import { prefetchStatusMonitor } from '../features/tracking/api/prefetch-status-monitor';

export interface PrefetchContext {
  queryClient: QueryClient;
  /** The signed-in user (the mirror keeps each user's copies apart). */
  userEmail: string;
  url: URL;
  params: Record<string, string | undefined>;
}

export interface AppRoute {
  path: string;
  titleKey: string;
  access: 'public' | 'session' | 'app';
  screen: LazyScreen<ComponentType>;
  /** Starts the screen's first data query while its chunk loads. */
  prefetch?: (context: PrefetchContext) => void;
  capability?: Capability;
  /** The shell entry that is active on this route. */
  nav?: NavEntry;
}

const auth = {
  Landing: lazy(() => import('../features/auth/screens/landing-page')),
  Welcome: lazy(() => import('../features/auth/screens/welcome-page')),
  FirstLogin: lazy(() => import('../features/auth/screens/first-login-page')),
  UserExpired: lazy(() => import('../features/auth/screens/user-expired-page')),
};
// "Give access" for those who give PM rights (§6) is the users feature's: handed in here.
const PriorityManager = lazy(() =>
  Promise.all([import('../features/priority/screens/priority-manager-page'), import('../features/users/components/grant-access')]).then(([page, users]) => ({
    default: function PriorityManagerWithGrantAccess() {
      return <page.default grantAccess={users.GrantAccess} />;
    },
  })),
);
const tracking = {
  // The status monitor's Notifications tab shows the notification lists (#6): features do not
  // import each other, so the route table hands the component in.
  StatusMonitor: lazy(() =>
    Promise.all([import('../features/tracking/screens/status-monitor-page'), import('../features/notifications/components/notification-tabs')]).then(
      ([monitor, notifications]) => ({
        default: function StatusMonitorWithNotifications() {
          return <monitor.default notificationsTab={notifications.NotificationTabs} />;
        },
      }),
    ),
  ),
  Search: lazy(() => import('../features/tracking/screens/search-page')),
  OrderDetails: lazy(() => import('../features/tracking/screens/order-details-page')),
};
const BroadcastMessages = lazy(() => import('../features/broadcast/screens/broadcast-messages-page'));
const stock = {
  Management: lazy(() => import('../features/stock/screens/stock-management-page')),
  Search: lazy(() => import('../features/stock/screens/stock-search-page')),
};
const stockCount = {
  MechanicView: lazy(() => import('../features/stock-count/screens/mechanic-view-page')),
  MaterialCountSearch: lazy(() => import('../features/stock-count/screens/material-count-search-page')),
  List: lazy(() => import('../features/stock-count/screens/stock-count-page')),
  Print: lazy(() => import('../features/stock-count/screens/print-count-page')),
  Merge: lazy(() => import('../features/stock-count/screens/count-merge-page')),
};
const admin = {
  Users: lazy(() => import('../features/users/screens/users-management-page')),
  Approval: lazy(() => import('../features/approvals/screens/approval-request-page')),
  Feedback: lazy(() => import('../features/feedback/screens/feedback-page')),
  Info: lazy(() => import('../features/help/screens/info-page')),
  ChangeLog: lazy(() => import('../features/help/screens/change-log-page')),
};
const notifications = {
  List: lazy(() => import('../features/notifications/screens/notifications-page')),
};
const profile = {
  UserProfile: lazy(() => import('../features/profile/screens/user-profile-page')),
  NotificationSettings: lazy(() => import('../features/profile/screens/notification-settings-page')),
};
const fileDashboard = {
  Overview: lazy(() => import('../features/file-dashboard/screens/dashboard-page')),
  Day: lazy(() => import('../features/file-dashboard/screens/dashboard-day-page')),
  Files: lazy(() => import('../features/file-dashboard/screens/file-dashboard-page')),
};
const dashboards = {
  Frontliner: lazy(() => import('../features/dashboards/screens/frontliner-dashboard-page')),
};

export const ROUTES: AppRoute[] = [
  { path: '/', titleKey: 'routes.landing', access: 'public', screen: auth.Landing },
  { path: '/welcome', titleKey: 'routes.welcome', access: 'session', screen: auth.Welcome },
  { path: '/user-expired', titleKey: 'routes.userExpired', access: 'public', screen: auth.UserExpired },
  { path: '/first-login', titleKey: 'routes.firstLogin', access: 'app', screen: auth.FirstLogin },
  { path: '/status-monitor', titleKey: 'routes.statusMonitor', access: 'app', screen: tracking.StatusMonitor, nav: 'status',
    prefetch: ({ queryClient, userEmail, url }) => prefetchStatusMonitor(queryClient, userEmail, url.searchParams) },
  { path: '/search', titleKey: 'routes.search', access: 'app', screen: tracking.Search, nav: 'status' },
  { path: '/order-details/:orderId', titleKey: 'routes.orderDetails', access: 'app', screen: tracking.OrderDetails, nav: 'status' },
  { path: '/notifications', titleKey: 'routes.notifications', access: 'app', screen: notifications.List, nav: 'notifications' },
  { path: '/stock-count', titleKey: 'routes.stockCount', access: 'app', screen: stockCount.List, nav: 'stockCount', capability: 'stockCount.read' },
  { path: '/mechanic-view/:id', titleKey: 'routes.mechanicView', access: 'app', screen: stockCount.MechanicView, nav: 'stockCount', capability: 'stockCount.read',
    // The count's own chunk (loaded with the screen's): the device read starts as soon as it is here.
    prefetch: ({ userEmail, params }) =>
      void import('../features/stock-count/hooks/use-count-sheet').then(({ prefetchCountSheet }) => prefetchCountSheet(userEmail, Number(params.id)), () => undefined) },
  { path: '/material-count-search/:id', titleKey: 'routes.materialCountSearch', access: 'app', screen: stockCount.MaterialCountSearch, nav: 'stockCount', capability: 'stockCount.read' },
  { path: '/priority-manager', titleKey: 'routes.priorityManager', access: 'app', screen: PriorityManager, nav: 'priority', capability: 'priority.read' },
  { path: '/stock-management', titleKey: 'routes.stockManagement', access: 'app', screen: stock.Management, nav: 'stock', capability: 'stock.read' },
  { path: '/stock-management-search', titleKey: 'routes.stockManagementSearch', access: 'app', screen: stock.Search, nav: 'stock', capability: 'stock.read' },
  { path: '/users-management', titleKey: 'routes.usersManagement', access: 'app', screen: admin.Users, nav: 'users', capability: 'userManagement.read' },
  { path: '/approval-request/:requestID', titleKey: 'routes.approvalRequest', access: 'app', screen: admin.Approval, nav: 'users', capability: 'approvals.decide' },
  { path: '/user-profile', titleKey: 'routes.userProfile', access: 'app', screen: profile.UserProfile, nav: 'profile' },
  { path: '/notification-settings', titleKey: 'routes.notificationSettings', access: 'app', screen: profile.NotificationSettings, nav: 'profile' },
  { path: '/info', titleKey: 'routes.info', access: 'app', screen: admin.Info, nav: 'info' },
  { path: '/feedback', titleKey: 'routes.feedback', access: 'app', screen: admin.Feedback, nav: 'info' },
  { path: '/change-log', titleKey: 'routes.changeLog', access: 'app', screen: admin.ChangeLog, nav: 'info' },
  { path: '/broadcast-messages', titleKey: 'routes.broadcastMessages', access: 'app', screen: BroadcastMessages, nav: 'status', capability: 'importantMessages.write' },
  { path: '/dashboard', titleKey: 'routes.dashboard', access: 'app', screen: fileDashboard.Overview, nav: 'dashboard', capability: 'fileDashboard.read' },
  // Stock admins upload ERP files here without reading the dashboard: the screen checks both.
  { path: '/file-dashboard', titleKey: 'routes.fileDashboard', access: 'app', screen: fileDashboard.Files, nav: 'dashboard' },
  { path: '/dashboard/:date', titleKey: 'routes.dashboardDetail', access: 'app', screen: fileDashboard.Day, nav: 'dashboard', capability: 'fileDashboard.read' },
  { path: '/frontliner-dashboard', titleKey: 'routes.frontlinerDashboard', access: 'app', screen: dashboards.Frontliner, nav: 'dashboard' },
  { path: '/print-count/:id', titleKey: 'routes.printCount', access: 'app', screen: stockCount.Print, nav: 'stockCount', capability: 'stockCount.read' },
  { path: '/count-merge/:id', titleKey: 'routes.countMerge', access: 'app', screen: stockCount.Merge, nav: 'stockCount', capability: 'stockCount.edit' },
];

/** Where each shell entry leads (§2 order). */
export const NAV_TARGETS: Record<NavEntry, string> = {
  status: '/status-monitor',
  priority: '/priority-manager',
  stock: '/stock-management',
  notifications: '/notifications',
  users: '/users-management',
  stockCount: '/stock-count',
  profile: '/user-profile',
  info: '/info',
  dashboard: '/dashboard',
};
