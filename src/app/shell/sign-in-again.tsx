/**
 * The outbox waits for a new sign-in (offline/sync-blocked.ts): the session ran out while changes
 * were on the phone and could not be renewed without the user. Said where it is seen, with the
 * number of changes that wait and a way to sign in again; the changes stay on the device (they
 * are the user's, keyed by e-mail) and go once the same user is back.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { signOut } from '../../lib/auth/use-session';
import { useOnline } from '../../lib/use-online';
import { NOTHING_WAITS, useOutboxSummary } from '../../offline/outbox-live';
import { useSyncBlocked } from '../../offline/sync-blocked';

export function SignInAgain({ userEmail }: { userEmail: string }) {
  // The outbox is read (a live query, run again at every edit) only while the sync is blocked:
  // the top bar's status already reads it the rest of the time.
  return useSyncBlocked(userEmail) ? <SignInAgainNotice userEmail={userEmail} /> : null;
}

function SignInAgainNotice({ userEmail }: { userEmail: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const online = useOnline();
  const { waiting } = useOutboxSummary(userEmail) ?? NOTHING_WAITS;
  if (waiting === 0) return null;
  // Signing in needs a connection: offline the button would sign out to a page that cannot sign in.
  return (
    <div className="notice danger sign-in-again" role="alert">
      <span>{t('sync.signInAgain', { count: waiting })}</span>
      {online ? (
        <button type="button" className="button small primary" onClick={() => void signOut(queryClient).then(() => navigate('/', { replace: true }))}>
          {t('sync.signInAgainButton')}
        </button>
      ) : (
        <span className="small">{t('sync.signInAgainOffline')}</span>
      )}
    </div>
  );
}
