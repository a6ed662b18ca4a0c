/**
 * i18next with the nine locales of §1. en-US is bundled (it is the fallback for missing text);
 * the others are separate chunks, precached by the service worker, loaded when chosen.
 * dayjs follows the language.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import relativeTime from 'dayjs/plugin/relativeTime';
import enUS from '../../locales/en-US.json';
import { DEFAULT_LOCALE, resolveLocale, type Locale } from '../domain/constants';

dayjs.extend(localizedFormat);
dayjs.extend(relativeTime);

const localeFiles = import.meta.glob<{ default: typeof enUS }>(['../../locales/*.json', '!../../locales/en-US.json']);

/** dayjs locale modules per app locale (dayjs names them by language or language-region). */
const dayjsLocales: Record<Locale, () => Promise<unknown>> = {
  'cs-CZ': () => import('dayjs/locale/cs'),
  'de-DE': () => import('dayjs/locale/de'),
  'en-US': async () => undefined,
  'es-ES': () => import('dayjs/locale/es'),
  'fi-FI': () => import('dayjs/locale/fi'),
  'fr-FR': () => import('dayjs/locale/fr'),
  'it-IT': () => import('dayjs/locale/it'),
  'pt-PT': () => import('dayjs/locale/pt'),
  'sv-SE': () => import('dayjs/locale/sv'),
};

const dayjsName = (locale: Locale) => (locale === 'en-US' ? 'en' : locale.slice(0, 2));

export async function initI18n(initial: string | null | undefined): Promise<void> {
  await i18next.use(initReactI18next).init({
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: false,
    resources: { [DEFAULT_LOCALE]: { translation: enUS } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await changeLanguage(initial);
}

export async function changeLanguage(requested: string | null | undefined): Promise<Locale> {
  const locale = resolveLocale(requested);
  if (!i18next.hasResourceBundle(locale, 'translation')) {
    const load = localeFiles[`../../locales/${locale}.json`];
    if (load) i18next.addResourceBundle(locale, 'translation', (await load()).default);
  }
  await dayjsLocales[locale]();
  dayjs.locale(dayjsName(locale));
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
  localStorage.setItem(LANGUAGE_KEY, locale);
  return locale;
}

export const LANGUAGE_KEY = 'language';
