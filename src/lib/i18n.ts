/**
 * i18next with the nine locales of §1. The first screen needs only the CORE_GROUPS of one locale:
 * English is bundled (virtual:en-us-core), another locale's core is a small chunk of its own
 * (virtual:locale-cores). All texts of a locale (and all of en-US, the fallback for missing text)
 * load with the app, after sign-in (#22). Every chunk is precached by the service worker. dayjs
 * follows the language.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import englishCore from 'virtual:en-us-core';
import localeCores from 'virtual:locale-cores';
import { DEFAULT_LOCALE, resolveLocale, type Locale } from '../domain/constants';

type LocaleTexts = Record<string, unknown>;
const localeFiles = import.meta.glob<{ default: LocaleTexts }>('../../locales/*.json');

export interface LanguageOptions {
  /** All texts of the locale and of en-US (app screens), or only the first screen's (landing). */
  full: boolean;
}

/** Starts i18next once; a second call (the app after the landing page) only changes what is loaded. */
export async function initI18n(initial: string | null | undefined, options: LanguageOptions = { full: true }): Promise<void> {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      lng: DEFAULT_LOCALE,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: false,
      resources: { [DEFAULT_LOCALE]: { translation: englishCore } },
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await changeLanguage(initial, options);
}

const loaded = new Map<Locale, Promise<void>>();
const coresLoaded = new Map<Locale, Promise<void>>();
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

/** The first screen's texts of a locale (en-US: bundled). */
function loadCore(locale: Locale): Promise<void> {
  if (locale === DEFAULT_LOCALE) return Promise.resolve();
  let pending = coresLoaded.get(locale) ?? loaded.get(locale);
  if (!pending) {
    const load = localeCores[locale];
    if (!load) return Promise.reject(new Error(`No language found with code ${locale}`));
    pending = load().then((module) => {
      // Deep, not overwriting: the full locale may have arrived first.
      i18next.addResourceBundle(locale, 'translation', module.default, true, false);
    });
    coresLoaded.set(locale, pending);
  }
  return pending;
}

export async function changeLanguage(requested: string | null | undefined, { full }: LanguageOptions = { full: true }): Promise<Locale> {
  const locale = resolveLocale(requested);
  if (full) await Promise.all([loadLocale(locale), loadLocale(DEFAULT_LOCALE)]);
  else await loadCore(locale);
  // Dates follow the language; English is dayjs's own default, so the first screen needs no dayjs.
  if (full && (locale !== DEFAULT_LOCALE || datesInUse)) {
    datesInUse = true;
    await (await import('./dates')).setDatesLocale(locale);
  }
  // Only a different language is changed: i18next's change re-renders every component that shows
  // a text, and the profile's language (the guard) is nearly always the one the app started in. On
  // a mid-range phone that was a 250 ms task just as the first list was drawn (#22).
  if (i18next.language !== locale) await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
  localStorage.setItem(LANGUAGE_KEY, locale);
  return locale;
}

export const LANGUAGE_KEY = 'language';
