/** One page of each list of the notification screen; several pages stack for "load more". */
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatCreated, formatDeadline } from '../../../lib/date-formats';
import type { NotificationChannel, NotificationKey } from '../../../contract/notifications';
import type { FeedbackItem } from '../../../contract/feedback';
import { Spinner } from '../../../components/ui/spinner';
import { useMarkNotificationRead, useNotificationPage, type ItemByChannel } from '../api/notifications';
import { useMyStockCounts, useSentFeedback } from '../api/related-lists';
import { LinkifiedText } from './linkified-text';
import { ClampedBody } from './clamped-body';
import { NotificationTime } from './notification-time';
import { useNotificationWords } from '../text';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { usePageArrivalFocus } from '../../../lib/page-arrival';

export interface PageProps {
  userEmail: string;
  page: number;
  isFirst: boolean;
  isLast: boolean;
  onPages?: (pages: number | null) => void;
  onSource?: (offline: { savedAt: number | undefined } | null) => void;
  onLoadMore: () => void;
}

interface Envelope {
  pages: number;
  has_next: boolean;
}

/**
 * Loading, error, empty, "load more" and "End of results" are the same for every list; the list
 * element it returns takes the focus when "Load more" brought it.
 */
function usePageReport(props: PageProps, data: Envelope | undefined, isOfflineCopy: boolean, savedAt: number | undefined) {
  const { onPages, onSource } = props;
  const pages = data?.pages ?? null;
  useEffect(() => onPages?.(pages), [onPages, pages]);
  useEffect(() => onSource?.(isOfflineCopy ? { savedAt } : null), [onSource, isOfflineCopy, savedAt]);
  return usePageArrivalFocus<HTMLUListElement>(props.page, Boolean(data));
}

function PageFooter({ props, data, count }: { props: PageProps; data: Envelope; count: number }) {
  const { t } = useTranslation();
  if (!props.isLast) return null;
  if (count === 0 && props.isFirst) return <p className="muted end-of-results">{t('common.noItems')}</p>;
  return data.has_next ? (
    <LoadMoreButton page={props.page} onLoadMore={props.onLoadMore} label={t('notifications.loadMore')} className="button load-more" />
  ) : (
    <p className="muted end-of-results">{t('common.endOfResults')}</p>
  );
}

function Pending({ isError }: { isError: boolean }) {
  const { t } = useTranslation();
  return isError ? <p className="form-error">{t('notifications.notLoaded')}</p> : <Spinner label={t('notifications.loading')} />;
}

function headline(channel: NotificationChannel, item: ItemByChannel[NotificationChannel]): string {
  if (channel === 'email') return (item as ItemByChannel['email']).subject ?? '';
  if (channel === 'push') return (item as ItemByChannel['push']).title ?? '';
  return (item as ItemByChannel['sms']).phone_number ?? '';
}

export function ChannelPage(props: PageProps & { channel: NotificationChannel; notificationKey: NotificationKey | null; query: string }) {
  const { t } = useTranslation();
  const { channel, userEmail } = props;
  const list = useNotificationPage(userEmail, channel, { page: props.page, notificationKey: props.notificationKey, query: props.query });
  const arrival = usePageReport(props, list.data, list.isOfflineCopy, list.savedAt);
  const markRead = useMarkNotificationRead(userEmail);
  const { pending } = list;
  const words = useNotificationWords();
  if (!list.data) return <Pending isError={list.isError} />;
  return (
    <>
      <ul ref={arrival} className="notification-cards" aria-label={t('notifications.pageLabel', { page: props.page })}>
        {list.data.items.map((item) => {
          const unread = item.active && !pending.has(`notification:${channel}:${item.id}`);
          const shown = words(item.text, { headline: channel === 'sms' ? null : headline(channel, item), body: item.message });
          const title = channel === 'sms' ? headline(channel, item) : (shown.headline ?? '');
          return (
            <li key={item.id} className={`notification-card${unread ? ' unread' : ''}`}>
              <div className="notification-card-head">
                {/* Focusable by script only: it takes the focus from "Mark as read" (below). Always,
                    not only while unread: losing it while focused would drop the focus again. */}
                <h3 className="notification-card-title" tabIndex={-1}>
                  {title || t(`notifications.key.${item.notification_key}`)}
                </h3>
                <NotificationTime iso={item.created} />
              </div>
              <ClampedBody id={`notification-body-${channel}-${item.id}`} title={title || t(`notifications.key.${item.notification_key}`)}>
                <LinkifiedText text={shown.body} />
              </ClampedBody>
              <div className="notification-card-meta">
                <span className="notification-type">{t(`notifications.key.${item.notification_key}`)}</span>
                {channel === 'email' && <span>{t('notifications.toRecipient', { recipient: item.recipient ?? item.user_email })}</span>}
                {item.plant && <span>{t('notifications.plant', { plant: item.plant })}</span>}
                <span className={`delivery-state state-${item.delivery_state}`}>{t(`notifications.state.${item.delivery_state}`)}</span>
                <span>{unread ? t('notifications.unread') : t('notifications.read')}</span>
              </div>
              {unread && (
                <div className="notification-card-actions">
                  <button
                    type="button"
                    className="button"
                    aria-label={t('notifications.markReadOf', { title: title || shown.body.slice(0, 60) })}
                    onClick={(event) => {
                      // The button goes once the card reads as read, with the focus on it: the card's
                      // heading takes it first, so the user stays on the card, never on <body>.
                      event.currentTarget.closest('li')?.querySelector<HTMLElement>('.notification-card-title')?.focus();
                      void markRead(channel, item.id);
                    }}
                  >
                    {t('notifications.markRead')}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <PageFooter props={props} data={list.data} count={list.data.items.length} />
    </>
  );
}

/** The first free-text answer of a feedback form, to recognise it in the list. */
function feedbackSummary(item: FeedbackItem): string {
  const preferred = ['openFeedback', 'description', 'comment', 'message', 'serviceOrder', 'materialCode'];
  for (const key of preferred) {
    const value = item.payload[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  const first = Object.values(item.payload).find((value) => typeof value === 'string' && value.trim());
  return typeof first === 'string' ? first : '';
}

export function FeedbackPageList(props: PageProps) {
  const { t } = useTranslation();
  const list = useSentFeedback(props.userEmail, props.page, true);
  const arrival = usePageReport(props, list.data, list.isOfflineCopy, list.savedAt);
  if (!list.data) return <Pending isError={list.isError} />;
  return (
    <>
      <ul ref={arrival} className="notification-cards" aria-label={t('notifications.pageLabel', { page: props.page })}>
        {list.data.items.map((item) => {
          const rating = item.payload.rating;
          return (
            <li key={item.id} className="notification-card">
              <div className="notification-card-head">
                <h3 className="notification-card-title">{t(`notifications.feedbackType.${item.type}`)}</h3>
                <NotificationTime iso={item.created} />
              </div>
              {feedbackSummary(item) && (
                <ClampedBody id={`feedback-body-${item.id}`} title={t(`notifications.feedbackType.${item.type}`)}>
                  <LinkifiedText text={feedbackSummary(item)} />
                </ClampedBody>
              )}
              <div className="notification-card-meta">
                {typeof rating === 'number' && <span>{t('notifications.rating', { rating })}</span>}
                {item.plant && <span>{t('notifications.plant', { plant: item.plant })}</span>}
              </div>
            </li>
          );
        })}
      </ul>
      <PageFooter props={props} data={list.data} count={list.data.items.length} />
    </>
  );
}

export function StockCountPageList(props: PageProps) {
  const { t } = useTranslation();
  const list = useMyStockCounts(props.userEmail, props.page, true);
  const arrival = usePageReport(props, list.data, list.isOfflineCopy, list.savedAt);
  if (!list.data) return <Pending isError={list.isError} />;
  return (
    <>
      <ul ref={arrival} className="notification-cards" aria-label={t('notifications.pageLabel', { page: props.page })}>
        {list.data.stock_counts.map((count) => (
          <li key={count.id} className="notification-card">
            <div className="notification-card-head">
              <h3 className="notification-card-title">
                <Link to={`/mechanic-view/${count.id}`}>{t('notifications.stockCountTitle', { id: count.id, location: count.storage_location, plant: count.plant })}</Link>
              </h3>
              <span className="status-chip">{t(`notifications.countStatus.${count.status}`)}</span>
            </div>
            <div className="notification-card-meta">
              <span>{t('notifications.createdAt', { date: formatCreated(count.created) })}</span>
              {count.should_be_done_at && <span>{t('notifications.dueBy', { date: formatDeadline(count.should_be_done_at) })}</span>}
              {count.conducted_by && <span>{t('notifications.conductedBy', { who: count.conducted_by })}</span>}
              <span>{t('notifications.countedLines', { counted: count.counted_lines, total: count.total_lines })}</span>
            </div>
          </li>
        ))}
      </ul>
      <PageFooter props={props} data={list.data} count={list.data.stock_counts.length} />
      {props.isFirst && (
        <p>
          <Link to="/stock-count">{t('notifications.openStockCount')}</Link>
        </p>
      )}
    </>
  );
}
