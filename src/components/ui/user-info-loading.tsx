import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner';

/** §2: shown until the profile is retrieved (not on landing, expired and welcome pages). */
export function UserInfoLoading() {
  const { t } = useTranslation();
  return (
    <main className="center-screen" aria-busy="true">
      <div className="brand-mark" aria-hidden="true" />
      <Spinner label={t('loading.userInfo')} />
      <p className="muted">{t('loading.userInfo')}</p>
    </main>
  );
}
