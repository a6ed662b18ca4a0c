/**
 * The wording of server-made notification texts (#19 item 22), from the one home of that wording,
 * locales/*.json (`notifications.text`, and `tracking.deliveryStatus` for a status named in one):
 *  - in English, what is stored as subject, title and message (what clients without the key show);
 *  - in the recipient's language (users.locale), what e-mail, SMS and push send: a mechanic in Espoo
 *    reads "Inventaario nro 27 on annettu sinulle" on the lock screen, as in the app.
 * The key and parameters are stored beside the English for the PWA to render in the reader's language.
 */
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat.js';
import 'dayjs/locale/cs.js';
import 'dayjs/locale/de.js';
import 'dayjs/locale/es.js';
import 'dayjs/locale/fi.js';
import 'dayjs/locale/fr.js';
import 'dayjs/locale/it.js';
import 'dayjs/locale/pt.js';
import 'dayjs/locale/sv.js';
import csCZ from '../../locales/cs-CZ.json' with { type: 'json' };
import deDE from '../../locales/de-DE.json' with { type: 'json' };
import enUS from '../../locales/en-US.json' with { type: 'json' };
import esES from '../../locales/es-ES.json' with { type: 'json' };
import fiFI from '../../locales/fi-FI.json' with { type: 'json' };
import frFR from '../../locales/fr-FR.json' with { type: 'json' };
import itIT from '../../locales/it-IT.json' with { type: 'json' };
import ptPT from '../../locales/pt-PT.json' with { type: 'json' };
import svSE from '../../locales/sv-SE.json' with { type: 'json' };
import { dayjsLocaleName, resolveLocale, type Locale } from '../../src/domain/constants';
import { knownNotificationText, localParams, renderNotificationText, type NotificationTemplates, type NotificationText } from '../../src/domain/notification-texts';

dayjs.extend(localizedFormat);

interface LocaleTexts {
  notifications: { text: NotificationTemplates };
  tracking: { deliveryStatus: Record<string, string> };
}

const LOCALE_TEXTS: Record<Locale, LocaleTexts> = {
  'cs-CZ': csCZ,
  'de-DE': deDE,
  'en-US': enUS,
  'es-ES': esES,
  'fi-FI': fiFI,
  'fr-FR': frFR,
  'it-IT': itIT,
  'pt-PT': ptPT,
  'sv-SE': svSE,
};

/** Subject and body of a text in one of the nine languages (another locale: its language's, else English). */
export function notificationWords(text: NotificationText, locale: string | null | undefined): { subject: string; body: string } {
  const resolved = resolveLocale(locale);
  const texts = LOCALE_TEXTS[resolved];
  const params = localParams(text, {
    status: (status) => (Object.hasOwn(texts.tracking.deliveryStatus, status) ? texts.tracking.deliveryStatus[status]! : status),
    deadline: (deadline) => dayjs(deadline).locale(dayjsLocaleName(resolved)).format('LL'),
    // A quantity in the reader's number format ("1,5 × KM100" in German).
    language: resolved,
  });
  return renderNotificationText(texts.notifications.text, text, params);
}

/** The English wording stored with the row, its parameters as they are (a deadline as `YYYY-MM-DD`, §9's content date). */
export function englishNotificationText(text: NotificationText): { subject: string; body: string } {
  return renderNotificationText(enUS.notifications.text, text);
}

/**
 * What a stored row sends to its recipient: its text in their language when the row carries a
 * known key and parameters, else the stored wording as it is (texts of other producers).
 */
export function wordsToSend(
  row: { textKey: string | null; textParams: unknown; subject: string | null; title: string | null; message: string },
  locale: string | null | undefined,
): { headline: string | null; body: string } {
  const stored = { headline: row.subject ?? row.title, body: row.message };
  const text = row.textKey ? knownNotificationText({ key: row.textKey, params: (row.textParams ?? {}) as Record<string, unknown> }) : null;
  if (!text) return stored;
  const words = notificationWords(text, locale);
  return { headline: stored.headline === null ? null : words.subject, body: words.body };
}
