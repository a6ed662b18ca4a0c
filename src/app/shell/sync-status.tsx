/**
 * §3 in the top bar: offline or online, how many changes wait to reach the server, and how many
 * need the user (failed or in conflict). Always visible: a mechanic knows what is still on the phone.
 */
import { useTranslation } from 'react-i18next';
import { useOnline } from '../../lib/use-online';
import { NOTHING_WAITS, useOutboxSummary } from '../../offline/outbox-live';
import { Icon } from '../../components/ui/icons';
import { useWaitingFeedbackCount } from '../../features/feedback/api/feedback-drafts';

export function SyncStatus({ userEmail }: { userEmail: string }) {
  const { t } = useTranslation();
  const online = useOnline();
  const summary = useOutboxSummary(userEmail);
  // Until the device has been read (just after a start), nothing is claimed either way.
  const { waiting, needsAttention, unverified } = summary ?? NOTHING_WAITS;
  // Feedback sent without an answer yet is on this phone too (decision 0062): not "all saved".
  const feedback = useWaitingFeedbackCount(userEmail);
  // "All saved" only once the server was read again after the last confirmation (pull after push).
  const checking = waiting === 0 && unverified > 0 && online;
  const label = [
    online ? t('sync.online') : t('sync.offline'),
    !summary
      ? null
      : waiting > 0
        ? t('sync.waiting', { count: waiting })
        : checking
          ? t('sync.verifying')
          : needsAttention === 0 && unverified === 0 && feedback === 0
            ? t('sync.allSynced')
            : null,
    feedback > 0 ? t('sync.feedbackWaiting', { count: feedback }) : null,
    needsAttention > 0 ? t('sync.needsAttention', { count: needsAttention }) : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const sending = waiting + feedback;
  const tone = needsAttention > 0 ? 'danger' : !online ? 'offline' : sending > 0 || checking ? 'waiting' : 'ok';
  return (
    // A live region speaks its text, not its label: the whole sentence is its (unseen) text, the
    // pill's terse face is hidden from screen readers. Before, a change was read as "Syncing".
    <div className={`sync-status ${tone}`} role="status" aria-live="polite" aria-label={label} title={label} data-testid="sync-status">
      <span className="visually-hidden">{label}</span>
      <span aria-hidden="true" className="sync-face">
        {!online && <Icon name="offline" size={18} />}
        {sending > 0 && <span className="sync-count">{sending}</span>}
        {needsAttention > 0 && <span className="sync-count danger">!{needsAttention}</span>}
        <span className="sync-text">{online ? (sending > 0 || checking ? t('sync.syncing') : t('sync.online')) : t('sync.offline')}</span>
      </span>
    </div>
  );
}
