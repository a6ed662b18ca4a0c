/**
 * /user-profile (§2): language (unless locked), last login, and the notification settings; for
 * those who change other people's settings (§6), the way to their team's.
 */
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/date-formats';
import { LOCALES, type Locale } from '../../../domain/constants';
import { can } from '../../../domain/permissions';
import { errorMessage } from '../../../lib/api-client';
import { changeLanguage } from '../../../lib/i18n';
import { saveProfile, useInNotificationPlants, useProfile } from '../../../lib/profile';
import { NotificationSettingsForm } from '../components/notification-settings-form';
import { ThemeSetting } from '../components/theme-setting';
import { Email } from '../../../components/ui/email';
import '../profile.css';

/** Each language in its own words ("Deutsch (Deutschland)"): no translation needed. */
function nativeName(locale: Locale): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language', languageDisplay: 'standard' }).of(locale) ?? locale;
    return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  } catch {
    return locale;
  }
}

function LanguageSetting() {
  const { t } = useTranslation();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ saving: boolean; error: string | null }>({ saving: false, error: null });
  // The option the list shows. Arrow keys on a closed list move through the languages (and fire
  // `change` in desktop browsers): the language is applied on Enter or when the list loses focus,
  // not at every step; a choice by pointer or touch (the phone's picker) is applied at once.
  const [choice, setChoice] = useState<string>(profile.locale);
  const byKeys = useRef(false);
  const apply = async (locale: string) => {
    byKeys.current = false;
    if (locale === profile.locale || state.saving) return;
    setState({ saving: true, error: null });
    try {
      // Kept on the device too: an offline start (the guard) then switches to this language, not back.
      const updated = await saveProfile(queryClient, { locale: locale as Locale });
      await changeLanguage(updated.locale);
      setChoice(updated.locale);
      setState({ saving: false, error: null });
    } catch (error) {
      setChoice(profile.locale);
      setState({ saving: false, error: await errorMessage(error) });
    }
  };
  return (
    <div className="profile-field">
      <label htmlFor="profile-language">
        <span className="field-label">{t('profile.language')}</span>
      </label>
      <select
        id="profile-language"
        value={choice}
        // Not disabled while saving: a disabled list drops the keyboard's focus to the page.
        disabled={profile.isLocaleLocked}
        aria-busy={state.saving || undefined}
        aria-describedby={profile.isLocaleLocked ? 'profile-language-locked' : undefined}
        onPointerDown={() => {
          byKeys.current = false;
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void apply(choice);
          } else if (event.key !== 'Tab') byKeys.current = true;
        }}
        onChange={(event) => {
          setChoice(event.target.value);
          if (!byKeys.current) void apply(event.target.value);
        }}
        onBlur={() => void apply(choice)}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {nativeName(locale)}
          </option>
        ))}
      </select>
      {profile.isLocaleLocked && (
        <span id="profile-language-locked" className="muted small">
          {t('profile.languageLocked')}
        </span>
      )}
      {state.error && (
        <span className="form-error" role="alert">
          {state.error}
        </span>
      )}
    </div>
  );
}

export default function UserProfilePage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const hasNotifications = useInNotificationPlants(profile);
  const editsOthers = can(profile.permissions, 'notificationSettings.editOthers');
  return (
    <section className="page">
      <h1 className="page-title route-title">{t('routes.userProfile')}</h1>
      <div className="profile-grid">
        <section className="panel" aria-labelledby="profile-account">
          <h2 id="profile-account" className="section-title">
            {t('profile.account')}
          </h2>
          <dl className="fact-list">
            <dt>{t('profile.name')}</dt>
            <dd>{profile.displayName}</dd>
            <dt>{t('profile.email')}</dt>
            <dd>
              <Email address={profile.email} />
            </dd>
            <dt>{t('profile.lastLogin')}</dt>
            <dd>{profile.lastLogin ? <time dateTime={profile.lastLogin}>{formatDateTime(profile.lastLogin)}</time> : t('profile.firstVisit')}</dd>
          </dl>
        </section>
        <section className="panel" aria-labelledby="profile-language-title">
          <h2 id="profile-language-title" className="section-title">
            {t('profile.languageTitle')}
          </h2>
          <LanguageSetting />
        </section>
        <section className="panel" aria-labelledby="profile-theme-title">
          <h2 id="profile-theme-title" className="section-title">
            {t('profile.theme.title')}
          </h2>
          <ThemeSetting />
        </section>
        <section className="panel" aria-labelledby="profile-notifications">
          <h2 id="profile-notifications" className="section-title">
            {t('profile.notificationSettings')}
          </h2>
          {/* §6: supervisors change their team's settings too, and have no users screen to reach
              them from: the team's list is one tap away, above one's own long form (phones). */}
          {editsOthers && (
            <div className="button-row start">
              <Link to="/notification-settings" state={{ team: true }} className="button">
                {t('profile.teamTitle')}
              </Link>
            </div>
          )}
          {hasNotifications ? (
            <NotificationSettingsForm uid={profile.uid} userEmail={profile.email} isOwn />
          ) : (
            <p className="muted">{t('profile.noNotificationPlants')}</p>
          )}
        </section>
      </div>
    </section>
  );
}
