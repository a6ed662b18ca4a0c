/**
 * #19 item 6: a page of stock loaded below the others with "Load more" (§2 "a load-more
 * action"). Each page is its own mirrored query, so loaded pages stay on the device offline.
 */
import { useTranslation } from 'react-i18next';
import type { StockItemRow } from '../../../contract/stock';
import type { StockType } from '../../../domain/stock';
import { Spinner } from '../../../components/ui/spinner';
import { useStockPage } from '../api/get-stock';
import { StockTable } from './stock-table';
import { LoadError } from '../../../components/ui/load-error';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { usePageArrivalFocus } from '../../../lib/page-arrival';
import '../stock.css';

export function StockMorePage({
  email,
  type,
  query,
  page,
  isLast,
  onLoadMore,
  onTransfer,
  canTransfer,
  transferOffline,
}: {
  email: string;
  type: StockType;
  query: string;
  page: number;
  isLast: boolean;
  onLoadMore: () => void;
  onTransfer?: (item: StockItemRow) => void;
  canTransfer?: (item: StockItemRow) => boolean;
  transferOffline?: boolean;
}) {
  const { t } = useTranslation();
  const list = useStockPage(email, type, query, page);
  const arrival = usePageArrivalFocus<HTMLDivElement>(page, Boolean(list.data));
  if (list.isPending) return <Spinner label={t('loading.listingItems')} />;
  if (!list.data) {
    return (
      <LoadError error={list.error} />
    );
  }
  return (
    <>
      <div ref={arrival}>
        <StockTable items={list.data.stock_items} onTransfer={onTransfer} canTransfer={canTransfer} transferOffline={transferOffline} />
      </div>
      {isLast && <LoadMoreOrEnd page={page} hasNext={list.data.has_next} onLoadMore={onLoadMore} />}
    </>
  );
}

/** Under the last loaded page: "Load more" while there is a next page, else "End of results". */
export function LoadMoreOrEnd({ page, hasNext, onLoadMore }: { page: number; hasNext: boolean; onLoadMore: () => void }) {
  const { t } = useTranslation();
  return hasNext ? (
    <div className="load-more">
      <LoadMoreButton page={page} onLoadMore={onLoadMore} />
    </div>
  ) : (
    <p className="muted end-of-results">{t('common.endOfResults')}</p>
  );
}
