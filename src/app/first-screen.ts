/**
 * A signed-in start fetches the app chunk, the guard + shell and the chunks of the screen it
 * opens in ONE wave (#22): the entry starts them together instead of waiting for the router to
 * ask (with all texts of the user's locale and of en-US, and the date plugins). Only the screens a start usually opens are listed (the home screen, a count being worked
 * on); the module specifiers are the route table's, so the browser loads each file once.
 */
import { COUNT_PATH } from '../contract/pages';
import { DEFAULT_LOCALE, resolveLocale } from '../domain/constants';
import { getSession } from '../lib/auth/session';
import { serviceUrl } from '../lib/config';
import { startEarlyCalls } from '../lib/early-calls';
import { toSearchParams } from '../lib/search-params';
import { firstPageParams } from '../features/tracking/utils/monitor-state';

const localeFiles = import.meta.glob('../../locales/*.json');
const LANGUAGE_KEY = 'language'; // src/lib/i18n.ts's key (that module would bring i18next into the entry)

// The server's pages name the same chunks in themselves (src/contract/pages.ts): what is listed
// here is then already on its way, and the entry's import finds it.
const FIRST_SCREENS: Array<[RegExp, () => Promise<unknown>[]]> = [
  [
    /^\/status-monitor\/?$/,
    () => [import('../features/tracking/screens/status-monitor-page'), import('../features/notifications/components/notification-tabs')],
  ],
  [COUNT_PATH, () => [import('../features/stock-count/screens/mechanic-view-page')]],
];

/**
 * The calls the guard and the first screen make, started now rather than when the app's chunks
 * have loaded (lib/early-calls.ts): the profile, permission constants and allowed plants
 * (lib/profile.ts), and on the status monitor its first page (tracking/api/get-tracking-status.ts).
 */
function earlyCallsOf(location: Pick<Location, 'pathname' | 'search'>): string[] {
  const user = serviceUrl('user');
  const calls = [`${user}/user/profile`, `${user}/constants/permissions`, `${user}/system_parameters/allowed_plants`];
  const firstPage = /^\/status-monitor\/?$/.test(location.pathname) ? firstPageParams(new URLSearchParams(location.search)) : null;
  if (firstPage) calls.push(`${serviceUrl('parts')}/users/me/tracking-status?${toSearchParams({ ...firstPage })}`);
  return calls;
}

export function preloadFirstScreen(location: Pick<Location, 'pathname' | 'search'>): void {
  const { pathname } = location;
  startEarlyCalls(getSession(), earlyCallsOf(location));
  const locale = resolveLocale(localStorage.getItem(LANGUAGE_KEY) ?? navigator.language);
  const texts = [...new Set([DEFAULT_LOCALE, locale])].map((name) => localeFiles[`../../locales/${name}.json`]?.() ?? Promise.resolve());
  // Offline, the first screen reads the device database: it loads in the same wave. Online it
  // loads after the first screen, which draws from the server's answers (offline/device-db.ts).
  const deviceDb = navigator.onLine === false ? [import('../offline/db')] : [];
  const loads = [import('./guarded-shell'), import('../lib/dates'), ...texts, ...deviceDb, ...(FIRST_SCREENS.find(([path]) => path.test(pathname))?.[1]() ?? [])];
  // Failures surface where the router loads the same chunks (timeout or missing, with reload).
  loads.forEach((load) => load.catch(() => undefined));
}
