/**
 * Notification settings on their own screen (§2 "Notification settings"). `?uid=` opens another
 * user's settings for super managers, supervisors and stock admins (§6; the server decides); below
 * one's own, the list of those people (supervisors have no users screen to reach them from).
 */
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useInNotificationPlants, useProfile } from '../../../lib/profile';
import { can } from '../../../domain/permissions';
import { NotificationSettingsForm } from '../components/notification-settings-form';
import { NotificationTeam } from '../components/notification-team';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function NotificationSettingsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [params] = useSearchParams();
  const requested = params.get('uid');
  const uid = requested && UUID.test(requested) ? requested : profile.uid;
  const isOwn = uid === profile.uid;
  const hasNotifications = useInNotificationPlants(profile);
  // Opened from the team list (or the users screen): whose settings these are.
  const named = (useLocation().state ?? null) as { email?: string; name?: string } | null;
  const editsOthers = can(profile.permissions, 'notificationSettings.editOthers');
  return (
    <section className="page">
      <h1 className="page-title route-title">{t('routes.notificationSettings')}</h1>
      {!isOwn && (
        <p className="notice">
          <span>{named?.email ? t('profile.editingOtherNamed', { name: named.name || named.email, email: named.email }) : t('profile.editingOther')}</span>
          <Link to="/notification-settings">{t('profile.backToOwn')}</Link>
        </p>
      )}
      {isOwn && !hasNotifications ? (
        <p className="muted">{t('profile.noNotificationPlants')}</p>
      ) : (
        <NotificationSettingsForm key={uid} uid={uid} userEmail={profile.email} isOwn={isOwn} level={2} />
      )}
      {isOwn && editsOthers && <NotificationTeam />}
    </section>
  );
}
