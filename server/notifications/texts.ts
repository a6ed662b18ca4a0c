/**
 * The English wording of server-made notification texts (#19 item 22), from the one home of that
 * wording, locales/en-US.json: what e-mail and SMS send and what is stored as subject, title and
 * message. The key and parameters are stored beside it for the PWA to render in the user's language.
 */
import english from '../../locales/en-US.json' with { type: 'json' };
import { renderNotificationText, type NotificationTemplates, type NotificationText } from '../../src/domain/notification-texts';

const TEMPLATES: NotificationTemplates = english.notifications.text;

export function englishNotificationText(text: NotificationText): { subject: string; body: string } {
  return renderNotificationText(TEMPLATES, text);
}
