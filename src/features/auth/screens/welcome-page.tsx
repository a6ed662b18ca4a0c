/** §2 welcome: the user's access request waits for approval (or was rejected). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../domain/constants';
import { refusedDomain } from '../../../domain/email';
import { errorMessage, statusOf } from '../../../lib/api-client';
import { signOut } from '../../../lib/auth/use-session';
import { sessionQueries } from '../../../lib/profile';
import { HOME_PATH } from '../../../lib/paths';
import { useEffect, useState } from 'react';

export default function WelcomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery(sessionQueries.profile());
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (profile.error) void errorMessage(profile.error).then(setMessage);
  }, [profile.error]);

  if (profile.data && !profile.data.approvalRequestId) return <Navigate to={HOME_PATH} replace />;
  if (profile.error && statusOf(profile.error) === 403 && message === MESSAGES.userExpired) {
    return <Navigate to="/user-expired" replace />;
  }
  const rejected = message === MESSAGES.approvalRejected;
  // Any other refusal (an address of a domain this company does not use, a sign-in that does not
  // prove the address) has no request behind it: saying it is "on its way" would leave the person
  // waiting for nothing. The server's reason is shown; the domain refusal in the user's language.
  const refused = profile.error && statusOf(profile.error) === 403 && message !== null && message !== MESSAGES.pendingApproval && !rejected;
  const domain = message ? refusedDomain(message) : undefined;
  const signOutHere = () => void signOut(queryClient).then(() => navigate('/', { replace: true }));
  const title = refused ? t('welcome.refusedTitle') : rejected ? t('welcome.rejectedTitle') : t('welcome.title');
  const text = refused ? (domain ? t('welcome.domainNotSupported', { domain }) : message) : rejected ? t('welcome.rejectedText') : t('welcome.pendingText');

  return (
    <main className="center-screen">
      <div className="message-card">
        <img src="/favicon.svg" alt="" width={48} height={48} />
        <h1 className="page-title">{title}</h1>
        <p role={refused ? 'alert' : undefined}>{text}</p>
        {profile.data?.approvalRequestId && (
          <p className="muted small">{t('welcome.requestId', { id: profile.data.approvalRequestId })}</p>
        )}
        <div className="button-row">
          {/* A refusal has no request to check again: signing out is all there is to do. */}
          {!refused && (
            <button type="button" className="button primary" onClick={() => void profile.refetch()} disabled={profile.isFetching}>
              {t('welcome.checkAgain')}
            </button>
          )}
          <button type="button" className={refused ? 'button primary' : 'button ghost'} onClick={signOutHere}>
            {t('nav.logout')}
          </button>
        </div>
      </div>
    </main>
  );
}
