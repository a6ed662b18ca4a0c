import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { initials } from '../../domain/email';
import type { Profile } from '../../contract/user-api';
import { Icon } from '../../components/ui/icons';
import { SyncStatus } from './sync-status';
import { useInNotificationPlants } from '../../lib/profile';
import { NotificationDropdown } from '../../features/notifications/components/notification-dropdown';
import { PushPermission } from '../../features/profile/push/push-prompt';

/** §2 important-message alert: a persistent danger toast listing the messages; hidden when empty. */
const DISMISSED_KEY = 'importantMessagesDismissed';

function ImportantMessages({ messages }: { messages: string[] }) {
  const { t } = useTranslation();
  const shown = messages.filter((message) => message.trim() !== '');
  const fingerprint = JSON.stringify(shown);
  // Open until the user closes it; it opens again only when the messages change.
  const [open, setOpenState] = useState(() => localStorage.getItem(DISMISSED_KEY) !== fingerprint);
  const setOpen = (next: boolean | ((value: boolean) => boolean)) => {
    setOpenState((value) => {
      const resolved = typeof next === 'function' ? next(value) : next;
      if (resolved) localStorage.removeItem(DISMISSED_KEY);
      else localStorage.setItem(DISMISSED_KEY, fingerprint);
      return resolved;
    });
  };
  if (shown.length === 0) return null;
  return (
    <>
      <button
        type="button"
        className="icon-button danger"
        aria-label={t('shell.importantMessages')}
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <Icon name="alert" />
      </button>
      {open && (
        <div className="danger-toast" role="alert">
          <div className="danger-toast-head">
            <strong>{t('shell.importantMessages')}</strong>
            <button type="button" className="icon-button" aria-label={t('common.dismiss')} onClick={() => setOpen(false)}>
              <Icon name="close" size={18} />
            </button>
          </div>
          <ul>
            {shown.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

export function TopBar({ title, profile, isNarrow }: { title: string; profile: Profile; isNarrow: boolean }) {
  const { t } = useTranslation();
  const inNotificationPlants = useInNotificationPlants(profile);
  return (
    <header className="top-bar">
      <div className="top-bar-title">
        {isNarrow && <img src="/favicon.svg" alt="" width={28} height={28} className="top-bar-logo" />}
        <span className="top-bar-heading">{title}</span>
        {!isNarrow && <span className="top-bar-date">{dayjs().format('dddd.DD.MM.YYYY')}</span>}
      </div>
      <div className="top-bar-actions">
        <SyncStatus userEmail={profile.email} />
        <ImportantMessages messages={profile.importantMessages} />
        {/* §2 notification dropdown: wide screens only, only in notification plants (#6). */}
        {!isNarrow && inNotificationPlants && <NotificationDropdown userEmail={profile.email} />}
        {inNotificationPlants && <PushPermission uid={profile.uid} userEmail={profile.email} />}
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
