/**
 * dayjs for the app's screens: the plugins every screen uses and the locale of the user's
 * language. Loaded with the app shell, not with the first screen (the landing page shows no dates).
 */
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import relativeTime from 'dayjs/plugin/relativeTime';
import { dayjsLocaleName, type Locale } from '../domain/constants';

dayjs.extend(localizedFormat);
dayjs.extend(relativeTime);

/** dayjs locale modules per app locale (dayjs names them by language). */
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

export async function setDatesLocale(locale: Locale): Promise<void> {
  await dayjsLocales[locale]();
  dayjs.locale(dayjsLocaleName(locale));
}
