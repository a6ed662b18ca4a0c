import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { signOut } from '../../../lib/auth/use-session';
import { getSession } from '../../../lib/auth/session';
import { sessionQueries } from '../../../lib/profile';
import { HOME_PATH } from '../../../lib/paths';

/**
 * §2/§8: "Sorry, looks like your account has expired." §4: once a manager extends the date the
 * account is re-checked: "Check again" asks for the profile anew and goes on when it answers.
 */
export default function UserExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  const [stillExpired, setStillExpired] = useState(false);
  const signedIn = getSession() !== null;

  const checkAgain = async () => {
    setChecking(true);
    setStillExpired(false);
    try {
      await queryClient.fetchQuery({ ...sessionQueries.profile(), staleTime: 0 });
      navigate(HOME_PATH, { replace: true });
    } catch {
      setStillExpired(true);
    } finally {
      setChecking(false);
    }
  };

  return (
    <main className="center-screen">
      <div className="message-card">
        <img src="/favicon.svg" alt="" width={48} height={48} />
        <h1 className="page-title">{t('expired.title')}</h1>
        <p role={stillExpired ? 'alert' : undefined}>{t('expired.text')}</p>
        <p className="muted small">{t('expired.help')}</p>
        <div className="button-row">
          {signedIn && (
            <button type="button" className="button" onClick={() => void checkAgain()} disabled={checking}>
              {t('welcome.checkAgain')}
            </button>
          )}
          <button
            type="button"
            className="button primary"
            onClick={() => void signOut(queryClient).then(() => navigate('/', { replace: true }))}
          >
            {t('expired.signInAgain')}
          </button>
        </div>
      </div>
    </main>
  );
}
