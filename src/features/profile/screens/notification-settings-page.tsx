/**
 * Notification settings on their own screen (§2 "Notification settings"). `?uid=` opens another
 * user's settings for super managers, supervisors and stock admins (§6; the server decides).
 */
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useInNotificationPlants, useProfile } from '../../../lib/profile';
import { NotificationSettingsForm } from '../components/notification-settings-form';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function NotificationSettingsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [params] = useSearchParams();
  const requested = params.get('uid');
  const uid = requested && UUID.test(requested) ? requested : profile.uid;
  const isOwn = uid === profile.uid;
  const hasNotifications = useInNotificationPlants(profile);
  return (
    <section className="page">
      <h1 className="page-title route-title">{t('routes.notificationSettings')}</h1>
      {!isOwn && <p className="notice">{t('profile.editingOther')}</p>}
      {hasNotifications ? (
        <NotificationSettingsForm key={uid} uid={uid} userEmail={profile.email} isOwn={isOwn} />
      ) : (
        <p className="muted">{t('profile.noNotificationPlants')}</p>
      )}
    </section>
  );
}
