/**
 * Notification settings on their own screen (§2 "Notification settings"). `?uid=` opens another
 * user's settings for super managers, supervisors and stock admins (§6; the server decides); below
 * one's own, the list of those people (supervisors have no users screen to reach them from).
 */
import { useEffect } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useInNotificationPlants, useProfile } from '../../../lib/profile';
import { can } from '../../../domain/permissions';
import { NotificationSettingsForm } from '../components/notification-settings-form';
import { NotificationTeam } from '../components/notification-team';

/** NotificationTeam's heading. */
const TEAM_HEADING = 'notification-team-title';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function NotificationSettingsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [params] = useSearchParams();
  const requested = params.get('uid');
  const uid = requested && UUID.test(requested) ? requested : profile.uid;
  const isOwn = uid === profile.uid;
  const hasNotifications = useInNotificationPlants(profile);
  // Opened from the team list (or the users screen): whose settings these are. From the profile's
  // team link (`team`): the list is what was asked for.
  const named = (useLocation().state ?? null) as { email?: string; name?: string; team?: boolean } | null;
  const editsOthers = can(profile.permissions, 'notificationSettings.editOthers');
  const toTeam = isOwn && editsOthers && named?.team === true;
  // The team's list sits under one's own long form: asked for, it takes the focus and comes into
  // sight (on a phone it was screens down). The screen's own h1 focus leaves a focus put inside.
  useEffect(() => {
    if (!toTeam) return;
    const heading = document.getElementById(TEAM_HEADING);
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ block: 'center' });
  }, [toTeam]);
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
