/**
 * A signed-in start fetches the app chunk, the guard + shell and the chunks of the screen it
 * opens in ONE wave (#22): the entry starts them together instead of waiting for the router to
 * ask (with all texts of the user's locale and of en-US, and the date plugins). Only the screens a start usually opens are listed (the home screen, a count being worked
 * on); the module specifiers are the route table's, so the browser loads each file once.
 */
import { DEFAULT_LOCALE, resolveLocale } from '../domain/constants';

const localeFiles = import.meta.glob('../../locales/*.json');
const LANGUAGE_KEY = 'language'; // src/lib/i18n.ts's key (that module would bring i18next into the entry)

const FIRST_SCREENS: Array<[RegExp, () => Promise<unknown>[]]> = [
  [
    /^\/status-monitor\/?$/,
    () => [import('../features/tracking/screens/status-monitor-page'), import('../features/notifications/components/notification-tabs')],
  ],
  [/^\/mechanic-view\/[^/]+\/?$/, () => [import('../features/stock-count/screens/mechanic-view-page')]],
];

export function preloadFirstScreen(pathname: string): void {
  const locale = resolveLocale(localStorage.getItem(LANGUAGE_KEY) ?? navigator.language);
  const texts = [...new Set([DEFAULT_LOCALE, locale])].map((name) => localeFiles[`../../locales/${name}.json`]?.() ?? Promise.resolve());
  const loads = [import('./guarded-shell'), import('../lib/dates'), ...texts, ...(FIRST_SCREENS.find(([path]) => path.test(pathname))?.[1]() ?? [])];
  // Failures surface where the router loads the same chunks (timeout or missing, with reload).
  loads.forEach((load) => load.catch(() => undefined));
}
