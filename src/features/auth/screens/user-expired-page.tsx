import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { signOut } from '../../../lib/auth/use-session';

/** §2/§8: "Sorry, looks like your account has expired." */
export default function UserExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <main className="center-screen">
      <div className="message-card">
        <img src="/favicon.svg" alt="" width={48} height={48} />
        <h1 className="page-title">{t('expired.title')}</h1>
        <p>{t('expired.text')}</p>
        <p className="muted small">{t('expired.help')}</p>
        <button
          type="button"
          className="button primary"
          onClick={() => void signOut(queryClient).then(() => navigate('/', { replace: true }))}
        >
          {t('expired.signInAgain')}
        </button>
      </div>
    </main>
  );
}
