/** /notifications (§2): the notification lists of the signed-in user (only in notification plants, §6). */
import { useTranslation } from 'react-i18next';
import { useInNotificationPlants, useProfile } from '../../../lib/profile';
import { NotificationTabs } from '../components/notification-tabs';

export default function NotificationsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const hasNotifications = useInNotificationPlants(profile);
  return (
    <section className="page">
      <h1 className="page-title route-title">{t('routes.notifications')}</h1>
      {hasNotifications ? <NotificationTabs /> : <p className="muted">{t('notifications.notUsedHere')}</p>}
    </section>
  );
}
