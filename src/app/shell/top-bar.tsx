import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATE_FORMATS } from '../../lib/date-formats';
import { useToday } from '../../lib/use-today';
import { initials } from '../../domain/email';
import type { Profile } from '../../contract/user-api';
import { SyncStatus } from './sync-status';
import { useInNotificationPlants } from '../../lib/profile';
import { NotificationDropdown } from '../../features/notifications/components/notification-dropdown';
import { useSignOutMarksThisDevice } from '../../features/profile/push/push-prompt';
import { ImportantMessagesButton, type ImportantMessagesState } from './important-messages';

export function TopBar({
  title,
  profile,
  isNarrow,
  importantMessages,
}: {
  title: string;
  profile: Profile;
  isNarrow: boolean;
  importantMessages: ImportantMessagesState;
}) {
  const { t } = useTranslation();
  const inNotificationPlants = useInNotificationPlants(profile);
  // Drawn again at midnight: a screen left open overnight shows the new day.
  const today = useToday();
  useSignOutMarksThisDevice(profile.uid, inNotificationPlants);
  return (
    <header className="top-bar">
      <div className="top-bar-title">
        {isNarrow && <img src="/favicon.svg" alt="" width={28} height={28} className="top-bar-logo" />}
        <span className="top-bar-heading">{title}</span>
        {!isNarrow && <span className="top-bar-date">{dayjs(today).format(DATE_FORMATS.topBar)}</span>}
      </div>
      <div className="top-bar-actions">
        <SyncStatus userEmail={profile.email} />
        <ImportantMessagesButton state={importantMessages} />
        {/* §2 notification dropdown: wide screens only, only in notification plants (#6). */}
        {!isNarrow && inNotificationPlants && <NotificationDropdown userEmail={profile.email} />}
        <Link
          to="/user-profile"
          className="avatar"
          aria-label={t('shell.profileOf', { name: profile.displayName })}
          title={profile.displayName}
        >
          {initials(profile.displayName || profile.email)}
        </Link>
      </div>
    </header>
  );
}
