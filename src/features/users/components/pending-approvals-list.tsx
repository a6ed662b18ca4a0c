/** Requests waiting for a decision (§7 pending approvals), each leading to its approval page. */
import { formatDateTime } from '../../../lib/date-formats';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import { usePendingApprovals } from '../api/get-pending-approvals';
import { LoadError } from '../../../components/ui/load-error';

export function PendingApprovalsList() {
  const { t } = useTranslation();
  const pending = usePendingApprovals(true);
  if (pending.isPending) return <Spinner label={t('loading.listingItems')} />;
  if (pending.error) {
    return (
      <LoadError error={pending.error} />
    );
  }
  const { requests, hasMore } = pending.data;
  if (requests.length === 0) return <p className="empty-state">{t('users.noPending')}</p>;
  return (
    <>
      <ul className="pending-list">
        {requests.map((request) => (
          <li key={request.request_id}>
            <Link to={`/approval-request/${request.request_id}`} className="pending-link">
              <span className="strong">{request.requesting_user_email}</span>
              <span className="muted small">{t('users.requestedAt', { time: formatDateTime(request.created) })}</span>
            </Link>
          </li>
        ))}
      </ul>
      {/* The server sends the oldest only (at most 500): the rest wait, and the list does not end here. */}
      {hasMore && <p className="muted small">{t('users.pendingMore', { count: requests.length })}</p>}
    </>
  );
}
