/**
 * /stock-count: the counting requests the user may see, newest state from the server or the
 * device's copy offline. Each opens the material count (mechanic view). The dashboard, create,
 * edit, cancel and recount come with the stock-count management feature.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { StockCountRow } from '../../../contract/stock';
import { PAGE_SIZE } from '../../../domain/constants';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { useStockCounts, type StockCountListParams } from '../api/get-stock-counts';

const SORTS = ['plant', 'created', 'should_be_done_at', 'status'] as const;

function CountCard({ count }: { count: StockCountRow }) {
  const { t } = useTranslation();
  const share = count.total_lines ? (count.counted_lines / count.total_lines) * 100 : 0;
  return (
    <li>
      <Link className="count-card" to={`/mechanic-view/${count.id}`}>
        <span className="count-card-head">
          <strong>{t('stockCount.title', { id: count.id })}</strong>
          <span className={`status-chip status-${count.status}`}>{t(`stockCount.status.${count.status}`)}</span>
          {count.is_draft && <span className="status-chip">{t('stockCount.draft')}</span>}
        </span>
        <span className="count-card-meta">
          <span>{t(`stockCount.type.${count.type}`, { defaultValue: count.type })}</span>
          <span>
            {count.plant} / {count.storage_location}
          </span>
          <span>{count.conducted_by ? t('stockCount.conductedBy', { who: count.conducted_by }) : t('stockCount.unassigned')}</span>
          {count.should_be_done_at && <span>{t('stockCount.deadline', { date: dayjs(count.should_be_done_at).format('LL') })}</span>}
        </span>
        <span className="count-card-progress">
          <span className="progress-bar" aria-hidden="true">
            <span style={{ width: `${share}%` }} />
          </span>
          <span className="small">{t('stockCount.progress', { counted: count.counted_lines, total: count.total_lines })}</span>
        </span>
      </Link>
    </li>
  );
}

export default function StockCountPage() {
  const { t } = useTranslation();
  const { email } = useProfile();
  const online = useOnline();
  const [params, setParams] = useState<StockCountListParams>({ page: 1, maxResults: PAGE_SIZE, orderByColumn: 'plant', sortDirection: 'asc' });
  const list = useStockCounts(email, params);
  const data = list.data;

  return (
    <section className="page">
      <h1 className="page-title">{t('routes.stockCount')}</h1>
      {(list.isOfflineCopy || !online) && <OfflineBanner savedAt={list.savedAt} />}
      <div className="list-toolbar">
        <label htmlFor="count-sort">{t('stockCount.sortBy')}</label>
        <select
          id="count-sort"
          value={`${params.orderByColumn}:${params.sortDirection}`}
          onChange={(event) => {
            const [orderByColumn, sortDirection] = event.target.value.split(':') as [string, 'asc' | 'desc'];
            setParams({ ...params, page: 1, orderByColumn, sortDirection });
          }}
        >
          {SORTS.flatMap((column) =>
            (['asc', 'desc'] as const).map((direction) => (
              <option key={`${column}:${direction}`} value={`${column}:${direction}`}>
                {t(`stockCount.sort.${column}`)} {direction === 'asc' ? '↑' : '↓'}
              </option>
            )),
          )}
        </select>
      </div>
      {list.isPending && <Spinner label={t('loading.listingItems')} />}
      {list.error && (
        <p className="form-error" role="alert">
          {list.error.message}
        </p>
      )}
      {data && data.stock_counts.length === 0 && <p className="muted">{t('common.noItems')}</p>}
      {data && data.stock_counts.length > 0 && (
        <>
          <ul className="count-cards">
            {data.stock_counts.map((count) => (
              <CountCard key={count.id} count={count} />
            ))}
          </ul>
          <nav className="pager" aria-label={t('common.pages')}>
            <button type="button" className="button" disabled={!data.has_prev} onClick={() => setParams({ ...params, page: params.page - 1 })}>
              {t('common.previous')}
            </button>
            <span>{t('common.pageOf', { page: data.page, pages: data.pages })}</span>
            <button type="button" className="button" disabled={!data.has_next} onClick={() => setParams({ ...params, page: params.page + 1 })}>
              {t('common.next')}
            </button>
          </nav>
          {!data.has_next && <p className="muted end-of-results">{t('common.endOfResults')}</p>}
        </>
      )}
    </section>
  );
}
