/**
 * /approval-request/{requestID} (§2): the request's details, approve or reject (super managers
 * and user-acceptance managers), and the other requests still waiting.
 */
import { useEffect, useRef, useState } from 'react';
import { formatDateTime } from '../../../lib/date-formats';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api-client';
import { useOnline } from '../../../lib/use-online';
import { isNetworkFailure } from '../../../offline/errors';
import { Spinner } from '../../../components/ui/spinner';
import { useApprovalRequest, useDecideApproval, usePendingApprovals } from '../api/approval-requests';
import { LoadError } from '../../../components/ui/load-error';
import { Email } from '../../../components/ui/email';
import '../approvals.css';

type Decision = 'approve' | 'reject';

/** Where the focus goes once a decision is answered: its button while the request still waits, else the request's name. */
export function focusAfterDecision(pressed: Decision, status: string | undefined): Decision | 'heading' {
  return status === 'Pending' ? pressed : 'heading';
}

export default function ApprovalRequestPage() {
  const { requestID = '' } = useParams();
  // One screen per request: another request opened from "other pending approvals" starts clean
  // (the router keeps the component when only the id changes; a decision's notice, an error or a
  // reject being confirmed belonged to the previous request).
  return <ApprovalRequest key={requestID} requestID={requestID} />;
}

export function ApprovalRequest({ requestID }: { requestID: string }) {
  const { t } = useTranslation();
  const request = useApprovalRequest(requestID);
  const pending = usePendingApprovals();
  const decide = useDecideApproval(requestID);
  // A decision needs the server there and then: offline the buttons are off and say why (they
  // used to wait silently and send the decision later, after the user had gone).
  const online = useOnline();
  const offlineNote = online ? undefined : 'approval-offline';
  const [error, setError] = useState<string | null>(null);
  const [confirmReject, setConfirmReject] = useState(false);
  // The control that replaces the one pressed takes the focus (keyboard and screen-reader users
  // were left on <body>): the question's Cancel when asked, Reject again when cancelled.
  const cancelRef = useRef<HTMLButtonElement>(null);
  const rejectRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirmReject) cancelRef.current?.focus();
    else if (asked.current) rejectRef.current?.focus();
    asked.current = confirmReject;
  }, [confirmReject]);
  // The same for a decision: its buttons go once the request is decided, and Approve was left
  // with the focus on <body>. The request's name takes it then; refused, the pressed button again.
  const approveRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const pressed = useRef<Decision | null>(null);
  const data = request.data;
  const answered = request.error != null && !isNetworkFailure(request.error);
  const status = data?.approval_status;
  useEffect(() => {
    if (decide.isPending || !pressed.current) return;
    const target = focusAfterDecision(pressed.current, status);
    pressed.current = null;
    (target === 'heading' ? headingRef : target === 'approve' ? approveRef : rejectRef).current?.focus();
  }, [decide.isPending, status]);
  const others = (pending.data ?? []).filter((p) => p.request_id !== requestID);
  const send = (decision: Decision) => {
    setError(null);
    pressed.current = decision;
    decide.mutate(decision, { onError: async (failure) => setError(await errorMessage(failure)), onSettled: () => setConfirmReject(false) });
  };
  const notice = decide.isSuccess && data ? t(data.approval_status === 'Approved' ? 'approvals.approvedNotice' : 'approvals.rejectedNotice', { email: data.requesting_user_email }) : '';

  return (
    <section className="page narrow-page approval-page">
      <h1 className="page-title route-title">{t('routes.approvalRequest')}</h1>
      {request.isPending && <Spinner label={t('loading.listingItems')} />}
      {request.error && (answered || !data) && (
        <LoadError error={request.error} notFound={t('approvals.notFound')} />
      )}
      {/* A request gone meanwhile (its user removed: 404) shows the notice only, not its old panel.
          A read again that got no answer (offline now) keeps the request in sight. */}
      {data && !answered && (
        <article className="panel" aria-labelledby="request-title">
          <h2 id="request-title" className="section-title" ref={headingRef} tabIndex={-1}>
            {data.requesting_user_name}
          </h2>
          <dl className="fact-list">
            <dt>{t('approvals.email')}</dt>
            <dd>
              <Email address={data.requesting_user_email} />
            </dd>
            <dt>{t('approvals.manager')}</dt>
            <dd>
              <Email address={data.manager_email} />
            </dd>
            <dt>{t('approvals.requested')}</dt>
            <dd>{formatDateTime(data.created)}</dd>
            <dt>{t('approvals.status')}</dt>
            <dd>
              <span className={`status-pill ${data.approval_status === 'Approved' ? 'ok' : data.approval_status === 'Rejected' ? 'danger' : 'warning'}`}>
                {t(`approvals.statuses.${data.approval_status}`)}
              </span>
            </dd>
            {data.decided_by_email && (
              <>
                <dt>{t('approvals.decidedBy')}</dt>
                <dd>{t('approvals.decidedByAt', { who: data.decided_by_email, time: formatDateTime(data.decided_at) })}</dd>
              </>
            )}
          </dl>
          {/* Always in the page, only its text changes: a status added with its text is often not read. */}
          <p className={notice ? 'notice success' : 'visually-hidden'} role="status">
            {notice}
          </p>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {data.approval_status === 'Pending' && !online && (
            <p id="approval-offline" className="notice">
              {t('approvals.decideOffline')}
            </p>
          )}
          {data.approval_status === 'Pending' && !confirmReject && (
            <div className="button-row start">
              <button
                ref={approveRef}
                type="button"
                className="button primary"
                disabled={decide.isPending || !online}
                aria-describedby={offlineNote}
                onClick={() => send('approve')}
              >
                {t('approvals.approve')}
              </button>
              <button
                ref={rejectRef}
                type="button"
                className="button outline-danger"
                disabled={decide.isPending || !online}
                aria-describedby={offlineNote}
                onClick={() => setConfirmReject(true)}
              >
                {t('approvals.reject')}
              </button>
            </div>
          )}
          {data.approval_status === 'Pending' && confirmReject && (
            <div className="notice danger" role="group" aria-label={t('approvals.rejectConfirmLabel')}>
              <span>{t('approvals.rejectQuestion', { email: data.requesting_user_email })}</span>
              <button ref={cancelRef} type="button" className="button ghost" onClick={() => setConfirmReject(false)}>
                {t('common.cancel')}
              </button>
              <button type="button" className="button danger" disabled={decide.isPending || !online} aria-describedby={offlineNote} onClick={() => send('reject')}>
                {t('approvals.rejectConfirm')}
              </button>
            </div>
          )}
        </article>
      )}
      <h2 className="section-title">{t('approvals.otherPending')}</h2>
      {pending.isPending && <Spinner label={t('loading.listingItems')} />}
      {pending.error && <LoadError error={pending.error} />}
      {pending.data && others.length === 0 && <p className="empty-state">{t('approvals.noPending')}</p>}
      {others.length > 0 && (
        <ul className="pending-list">
          {others.map((other) => (
            <li key={other.request_id}>
              <Link to={`/approval-request/${other.request_id}`} className="pending-link">
                <span className="strong">
                  <Email address={other.requesting_user_email} />
                </span>
                <span className="muted small">{formatDateTime(other.created)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to="/users-management">{t('approvals.backToUsers')}</Link>
      </p>
    </section>
  );
}
