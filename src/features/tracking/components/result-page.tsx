import { useLayoutEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/date-formats';
import type { TrackingStatusParams } from '../../../contract/parts';
import { Spinner } from '../../../components/ui/spinner';
import { useProgressiveCount } from '../../../lib/use-progressive-count';
import { useTrackingStatus } from '../api/get-tracking-status';
import { usePageArrivalFocus } from '../../../lib/page-arrival';
import { OrderCard } from './order-card';
import { LoadError } from '../../../components/ui/load-error';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { pageCountText } from '../../../lib/capped-pages';
import { isListCountCapped } from '../utils/monitor-list';
// The tracking lists' status (their tests import it from here).
export { ResultsStatus } from '../../../components/ui/results-status';
import '../tracking.css';

/**
 * One page of order rows. Each page is its own mirrored query, so every page the user loaded is
 * on the device for offline use; a page shown from the device says when it was saved.
 */
export function ResultPage({
  userEmail,
  params,
  now,
  isFirst,
  isLast,
  onLoadMore,
  emptyState,
  drawAll = false,
  onDrawn,
}: {
  userEmail: string;
  params: TrackingStatusParams;
  now: Date;
  isFirst: boolean;
  isLast: boolean;
  onLoadMore: () => void;
  /** What an empty first page says instead of "No items found" (#19 item 23); only on page 1. */
  emptyState?: ReactNode;
  /** All rows with the answer, not in batches: the list is drawn again to put its position back. */
  drawAll?: boolean;
  /** Called once this page shows all it will (its rows, or its error), before the paint. */
  onDrawn?: (page: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const page = useTrackingStatus(userEmail, params);
  const data = page.data;
  // The first cards with the answer, the rest in batches after each paint (#22); a refresh of the
  // same list (the device's copy, then the server's) keeps what is drawn, another list starts again.
  const list = `${params.query}|${params.status}|${params.myOrders}|${params.page}`;
  // Coming back from an order, the page is drawn whole: the position kept is below the first batch.
  const [drawnWhole] = useState(() => (drawAll ? list : null));
  const drawn = useProgressiveCount(list, data?.trackingStatus.length ?? 0, drawnWhole === list ? Number.POSITIVE_INFINITY : undefined);
  const settled = !page.isPending && (page.error != null || !data || drawn === data.trackingStatus.length);
  useLayoutEffect(() => {
    if (settled) onDrawn?.(params.page);
  }, [settled, onDrawn, params.page]);
  const arrival = usePageArrivalFocus<HTMLElement>(params.page, drawn > 0);
  if (page.isPending) return <Spinner label={t('loading.listingItems')} />;
  if (page.error || !data) {
    return (
      <LoadError error={page.error} />
    );
  }
  // Past the count's cap the pages are a lower bound while another page follows: "Page 3 of 50+".
  const pages = pageCountText(t, i18n.language, data.pages, data.has_next && isListCountCapped(data, params.status));
  return (
    <section ref={arrival} className="result-page" aria-label={t('common.pageOf', { page: data.page, pages })}>
      {!isFirst && page.isOfflineCopy && page.savedAt && (
        <p className="muted small">{t('tracking.pageSavedAt', { page: data.page, time: formatDateTime(page.savedAt) })}</p>
      )}
      {isFirst && data.trackingStatus.length === 0 && ((params.page === 1 && emptyState) || <p className="muted">{t('common.noItems')}</p>)}
      <ul className="order-cards">
        {data.trackingStatus.slice(0, drawn).map((row) => (
          <OrderCard key={row.orderId} row={row} now={now} />
        ))}
      </ul>
      {isLast && drawn === data.trackingStatus.length && data.has_next && (
        <div className="load-more">
          <LoadMoreButton page={params.page} onLoadMore={onLoadMore} />
        </div>
      )}
      {isLast && drawn === data.trackingStatus.length && !data.has_next && data.trackingStatus.length > 0 && <p className="muted end-of-results">{t('common.endOfResults')}</p>}
    </section>
  );
}
