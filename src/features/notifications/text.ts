/**
 * A server-made notification text in the user's language (#19 item 22): subject and body from the
 * locale's `notifications.text` templates, with a status, a deadline… in that language too. When
 * the item carries no known text (another service, an older row), the stored wording stands.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import i18next, { type TFunction } from 'i18next';
import { knownNotificationText, localParams, renderNotificationText, type NotificationTemplates, type ParamWording } from '../../domain/notification-texts';
import { formatDeadline } from '../../lib/date-formats';

type Carried = { key: string; params: Record<string, string | number | null> } | null | undefined;

/** Parameters as the user reads them: a delivery status and a deadline in their language. */
const wordingOf = (t: TFunction): ParamWording => ({
  status: (status) => t(`tracking.deliveryStatus.${status}`, { defaultValue: status }),
  deadline: (deadline) => formatDeadline(deadline),
  // A transfer's quantity in the user's number format ("1,5 × KM100" in German).
  language: i18next.language,
});

export function localizedNotification(carried: Carried, t: TFunction): { subject: string; body: string } | null {
  const text = knownNotificationText(carried);
  if (!text) return null;
  const templates = t('notifications.text', { returnObjects: true }) as unknown as NotificationTemplates;
  if (typeof templates !== 'object' || templates === null || !templates[text.key]) return null;
  return renderNotificationText(templates, text, localParams(text, wordingOf(t)));
}

/**
 * The words to show for an item: localized when it carries a known text, else as stored. A
 * headline only where the channel has one (e-mail subject, push title; an SMS has none).
 */
export function useNotificationWords() {
  const { t } = useTranslation();
  return useCallback(
    (carried: Carried, stored: { headline: string | null; body: string }): { headline: string | null; body: string } => {
      const local = localizedNotification(carried, t);
      if (!local) return stored;
      return { headline: stored.headline === null ? null : local.subject, body: local.body };
    },
    [t],
  );
}
