/**
 * The outbox waits for a new sign-in (offline/sync-blocked.ts): the session ran out while changes
 * were on the phone and could not be renewed without the user. Said where it is seen, with the
 * number of changes that wait and a way to sign in again; the changes stay on the device (they
 * are the user's, keyed by e-mail) and go once the same user is back. The profile's re-read
 * refused the same way (`refused`, app/guard.tsx) says it too, even with nothing waiting: the
 * shell stays up rather than signing out mid-work.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { signOut } from '../../lib/auth/use-session';
import { useOnline } from '../../lib/use-online';
import { NOTHING_WAITS, useOutboxSummary } from '../../offline/outbox-live';
import { useSyncBlocked } from '../../offline/sync-blocked';

export function SignInAgain({ userEmail, refused = false }: { userEmail: string; refused?: boolean }) {
  // The outbox is read (a live query, run again at every edit) only while the sync is blocked:
  // the top bar's status already reads it the rest of the time.
  const blocked = useSyncBlocked(userEmail);
  return blocked || refused ? <SignInAgainNotice userEmail={userEmail} refused={refused} /> : null;
}

function SignInAgainNotice({ userEmail, refused }: { userEmail: string; refused: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const online = useOnline();
  const { waiting } = useOutboxSummary(userEmail) ?? NOTHING_WAITS;
  if (waiting === 0 && !refused) return null;
  // Signing in needs a connection: offline the button would sign out to a page that cannot sign in.
  // No confirmation here: the notice itself says what waits and that it stays until the same user is back.
  return (
    <div className="notice danger sign-in-again" role="alert">
      <span>{waiting > 0 ? t('sync.signInAgain', { count: waiting }) : t('sync.signInAgainNothingWaits')}</span>
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
