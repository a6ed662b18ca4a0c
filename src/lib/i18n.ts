/**
 * i18next with the nine locales of §1. The English texts of the first screen are bundled
 * (virtual:en-us-core); the rest of en-US (the fallback for missing text) and the other
 * locales are separate chunks, precached by the service worker. dayjs follows the language.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import englishCore from 'virtual:en-us-core';
import { DEFAULT_LOCALE, resolveLocale, type Locale } from '../domain/constants';

type LocaleTexts = Record<string, unknown>;
const localeFiles = import.meta.glob<{ default: LocaleTexts }>('../../locales/*.json');

export async function initI18n(initial: string | null | undefined): Promise<void> {
  await i18next.use(initReactI18next).init({
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: false,
    resources: { [DEFAULT_LOCALE]: { translation: englishCore } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await changeLanguage(initial);
}

const loaded = new Map<Locale, Promise<void>>();
let datesInUse = false;

/** All texts of a locale (for en-US: on top of the bundled first-screen texts). */
export function loadLocale(locale: Locale): Promise<void> {
  let pending = loaded.get(locale);
  if (!pending) {
    const load = localeFiles[`../../locales/${locale}.json`];
    if (!load) return Promise.reject(new Error(`No language found with code ${locale}`));
    pending = load().then((module) => {
      i18next.addResourceBundle(locale, 'translation', module.default, true, true);
    });
    loaded.set(locale, pending);
  }
  return pending;
}

export async function changeLanguage(requested: string | null | undefined): Promise<Locale> {
  const locale = resolveLocale(requested);
  // English starts with the bundled first-screen texts; the app shell loads the rest.
  if (locale !== DEFAULT_LOCALE) await loadLocale(locale);
  // Dates follow the language; English is dayjs's own default, so the first screen needs no dayjs.
  if (locale !== DEFAULT_LOCALE || datesInUse) {
    datesInUse = true;
    await (await import('./dates')).setDatesLocale(locale);
  }
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
  localStorage.setItem(LANGUAGE_KEY, locale);
  return locale;
}

export const LANGUAGE_KEY = 'language';
