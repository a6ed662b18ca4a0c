/**
 * #19 item 6: a page of counting requests loaded below the others with "Load more" (§2). Each
 * page is its own mirrored query; the screen draws the cards (they carry its actions).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { StockCountRow } from '../../../contract/stock';
import { Spinner } from '../../../components/ui/spinner';
import { useStockCounts, type StockCountListParams } from '../api/get-stock-counts';
import { LoadError } from '../../../components/ui/load-error';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { usePageArrivalFocus } from '../../../lib/page-arrival';
import '../stock-count.css';

export function CountMorePage({
  email,
  params,
  isLast,
  onLoadMore,
  renderCards,
}: {
  email: string;
  params: StockCountListParams;
  isLast: boolean;
  onLoadMore: () => void;
  renderCards: (counts: StockCountRow[]) => ReactNode;
}) {
  const { t } = useTranslation();
  const list = useStockCounts(email, params);
  const arrival = usePageArrivalFocus<HTMLDivElement>(params.page, Boolean(list.data));
  if (list.isPending) return <Spinner label={t('loading.listingItems')} />;
  if (!list.data) {
    return (
      <LoadError error={list.error} />
    );
  }
  return (
    <>
      <div ref={arrival}>{renderCards(list.data.stock_counts)}</div>
      {isLast &&
        (list.data.has_next ? (
          <div className="load-more">
            <LoadMoreButton page={params.page} onLoadMore={onLoadMore} />
          </div>
        ) : (
          <p className="muted end-of-results">{t('common.endOfResults')}</p>
        ))}
    </>
  );
}
