/**
 * /stock-management: My stock, My team stock, My plant stock (§2). The tab, search and page live
 * in the address, so the screen comes back as it was; pages are saved for offline.
 */
import { useState } from 'react';
import { useSearchParams, Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { STOCK_TYPES, type StockType } from '../../../domain/stock';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { Pager } from '../../../components/ui/pager';
import { useStockPage } from '../api/get-stock';
import { StockTable } from '../components/stock-table';
import { TransferDialog } from '../components/transfer-dialog';
import type { StockItemRow } from '../../../contract/stock';
import { can } from '../../../domain/permissions';

const TAB_LABEL: Record<StockType, string> = {
  my_stock: 'stock.tabs.mine',
  my_team_stock: 'stock.tabs.team',
  my_plant_stock: 'stock.tabs.plant',
};

export default function StockManagementPage() {
  const { t } = useTranslation();
  const { email, permissions } = useProfile();
  const [transferring, setTransferring] = useState<StockItemRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const online = useOnline();
  const [params, setParams] = useSearchParams();
  const type = (STOCK_TYPES as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as StockType) : 'my_stock';
  const query = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useStockPage(email, type, query, page);
  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    Object.entries(changes).forEach(([key, value]) => (value === null ? next.delete(key) : next.set(key, value)));
    setParams(next, { replace: true });
  };
  const data = list.data;

  return (
    <section className="page">
      <h1 className="page-title">{t('routes.stockManagement')}</h1>
      {(list.isOfflineCopy || !online) && <OfflineBanner savedAt={list.savedAt} />}
      <div className="tabs" role="tablist" aria-label={t('stock.tabsLabel')}>
        {STOCK_TYPES.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={tab === type}
            className="tab"
            onClick={() => go({ tab, page: null })}
          >
            {t(TAB_LABEL[tab])}
          </button>
        ))}
      </div>
      <div className="list-toolbar" role="tabpanel" aria-label={t(TAB_LABEL[type])}>
        <Link className="button" to={`/stock-management-search?tab=${type}`}>
          {query ? t('stock.searchingFor', { query }) : t('stock.search')}
        </Link>
        {query && (
          <button type="button" className="button ghost" onClick={() => go({ q: null, page: null })}>
            {t('stock.clearSearch')}
          </button>
        )}
        {data && <span className="muted">{t('stock.summary', { items: t('stock.itemCount', { count: data.total }), locations: t('stock.locationCount', { count: data.storage_location_count }) })}</span>}
      </div>
      {notice && (
        <p className="notice success" role="status">
          {notice}
        </p>
      )}
      {transferring && (
        <TransferDialog
          item={transferring}
          onClose={() => setTransferring(null)}
          onDone={(row) => {
            setTransferring(null);
            setNotice(t('stock.transferDone', { quantity: row.quantity, code: row.material_code, to: row.storage_location_to }));
          }}
        />
      )}
      {list.isPending && <Spinner label={t('loading.listingItems')} />}
      {list.error && (
        <p className="form-error" role="alert">
          {list.error.message}
        </p>
      )}
      {data && data.stock_items.length === 0 && <p className="muted">{t('common.noItems')}</p>}
      {data && data.stock_items.length > 0 && (
        <>
          <StockTable items={data.stock_items} onTransfer={online && can(permissions, 'stockTransfer.request') ? setTransferring : undefined} />
          <Pager
            page={data.page}
            pages={data.pages}
            hasPrev={data.has_prev}
            hasNext={data.has_next}
            onPrevious={() => go({ page: String(page - 1) })}
            onNext={() => go({ page: String(page + 1) })}
          />
          {!data.has_next && <p className="muted end-of-results">{t('common.endOfResults')}</p>}
        </>
      )}
    </section>
  );
}
