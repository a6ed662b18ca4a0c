/**
 * /stock-management: My stock, My team stock, My plant stock (§2). The tab, search and page live
 * in the address, so the screen comes back as it was; pages are saved for offline.
 */
import { useState } from 'react';
import { useSearchParams, Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { STOCK_TYPES, type StockType } from '../../../domain/stock';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { Pager } from '../../../components/ui/pager';
import { useStockPage } from '../api/get-stock';
import { StockTable } from '../components/stock-table';
import { LoadMoreOrEnd, StockMorePage } from '../components/stock-more-page';
import { TransferDialog } from '../components/transfer-dialog';
import { TransferRequestsDialog, transferWords } from '../components/transfer-requests-dialog';
import { TRANSFER_REQUESTS_KEY, useTransferRequests } from '../api/stock-transfer';
import { decidesTransfers, waitingForCaller } from '../components/transfer-requests-view';
import { countWords, initialStockTab, lacksStorageLocation } from './stock-view';
import type { StockItemRow, StockPage } from '../../../contract/stock';
import { can, writesInPlant } from '../../../domain/permissions';
import { useToastNotice } from '../../../components/ui/toast';
import { TabBar } from '../../../components/ui/tab-bar';
import { useRovingTabs } from '../../../components/ui/roving-tabs';
import { PastEndNotice } from '../../../components/ui/past-end-notice';
import { LoadError } from '../../../components/ui/load-error';
import '../stock.css';
import { MAX_MORE_PAGES } from '../../../lib/search-params';
import { cappedPager, cappedPagerLabel, isCountCapped, pageCountText } from '../../../lib/capped-pages';

const TAB_LABEL: Record<StockType, string> = {
  my_stock: 'stock.tabs.mine',
  my_team_stock: 'stock.tabs.team',
  my_plant_stock: 'stock.tabs.plant',
};

const PANEL_ID = 'stock-panel';
const tabId = (tab: StockType) => `stock-tab-${tab}`;

/** My stock, My team stock, My plant stock: one tab in the Tab order, the arrow keys move and select. */
export function StockTabs({ active, onSelect }: { active: StockType; onSelect: (tab: StockType) => void }) {
  const { t } = useTranslation();
  const roving = useRovingTabs(STOCK_TYPES, onSelect);
  return (
    <TabBar label={t('stock.tabsLabel')} className="tabs-fit">
      {STOCK_TYPES.map((tab, index) => (
        <button
          key={tab}
          ref={roving.ref(index)}
          type="button"
          role="tab"
          id={tabId(tab)}
          aria-selected={tab === active}
          aria-controls={PANEL_ID}
          tabIndex={tab === active ? 0 : -1}
          className="tab"
          onClick={() => onSelect(tab)}
          onKeyDown={(event) => roving.onKeyDown(event, index)}
        >
          {t(TAB_LABEL[tab])}
        </button>
      ))}
    </TabBar>
  );
}

/**
 * The list's answer in words: "12 items in 3 storage locations", the numbers as the user's
 * language writes them ("45,213 items" in English, "45 213 articles" in French); null before it.
 */
function useStockSummary(data: StockPage | undefined): string | null {
  const { t, i18n } = useTranslation();
  if (!data) return null;
  const items = countWords(data.total, i18n.language);
  const locations = countWords(data.storage_location_count, i18n.language);
  return t('stock.summary', {
    // Counts that stopped at the cap are lower bounds (docs/decisions/0021): "1,000+ items".
    items: data.counts_capped?.includes('total') ? t('lists.itemsAtLeast', { value: items.value }) : t('stock.itemCount', items),
    locations: data.counts_capped?.includes('storage_location_count')
      ? t('lists.locationsAtLeast', { value: locations.value })
      : t('stock.locationCount', locations),
  });
}

/**
 * Says the list's answer to a screen reader when it arrives (a tab, a search, a page): present
 * from the start and empty until then, as a live region must be to be read. `emptyText`: what an
 * empty answer means here (My stock without a storage location says why), else "No items found".
 */
export function StockResultStatus({ data, emptyText }: { data: StockPage | undefined; emptyText?: string }) {
  const { t } = useTranslation();
  const summary = useStockSummary(data);
  return (
    <p role="status" className="visually-hidden">
      {data?.total === 0 ? (emptyText ?? t('common.noItems')) : summary}
    </p>
  );
}

/**
 * The toolbar's button to the transfer requests; for those who decide them, with how many wait for
 * their decision (from the list the dialog shows: one query, nothing more is read).
 */
export function TransferRequestsButton({ waiting, onOpen }: { waiting: ReturnType<typeof waitingForCaller>; onOpen: () => void }) {
  const { t } = useTranslation();
  const value = waiting && (waiting.atLeast ? t('lists.atLeast', { value: waiting.value }) : waiting.value);
  return (
    <button type="button" className="button ghost" aria-haspopup="dialog" onClick={onOpen}>
      {t('stock.transferRequests')}
      {waiting && (
        <>
          <span className="transfer-requests-badge" aria-hidden="true">
            {value}
          </span>
          <span className="visually-hidden"> {t('stock.transferRequestsWaiting', { count: waiting.count, value })}</span>
        </>
      )}
    </button>
  );
}

export default function StockManagementPage() {
  const { t, i18n } = useTranslation();
  const profile = useProfile();
  const { email, permissions, plants } = profile;
  const [transferring, setTransferring] = useState<StockItemRow | null>(null);
  // Feedback of an action: a toast above the bottom bar, where the thumb is (#21).
  const setNotice = useToastNotice();
  const online = useOnline();
  const [params, setParams] = useSearchParams();
  // Without a tab in the address: My stock, or for a user with no storage location yet the next tab they hold.
  const type = initialStockTab(params.get('tab'), profile);
  // My stock of a user with no storage location attached: why it is empty, and what to do.
  const noLocation = lacksStorageLocation(type, profile);
  const query = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  // #19 item 6: pages loaded below the first with "Load more" (kept in the address like the page).
  const more = Math.min(Math.max(0, Number(params.get('more')) || 0), MAX_MORE_PAGES);
  const lastPage = page + more;
  const list = useStockPage(email, type, query, page);
  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    Object.entries(changes).forEach(([key, value]) => (value === null ? next.delete(key) : next.set(key, value)));
    setParams(next, { replace: true });
  };
  const data = list.data;
  // The last loaded page decides Next and how many pages there are at least (cappedPager): the
  // query its StockMorePage shows (the first page's when none is loaded below), so no read of its own.
  const last = useStockPage(email, type, query, lastPage);
  // Past the count's cap (1,000 items) the number of pages is a lower bound too: "Page 1 of 50+".
  const pagesCapped = data ? isCountCapped(data, 'total') : false;
  const pager = data ? cappedPager(data, last.data && { ...last.data, rows: last.data.stock_items.length }, lastPage, pagesCapped) : null;
  const pageCount = pager ? pageCountText(t, i18n.language, pager.pages, pager.atLeast) : 0;
  const summary = useStockSummary(data);
  const emptyText = noLocation ? t('stock.noStorageLocation') : undefined;
  const client = useQueryClient();
  // Decision 0061: the transfer requests open from the toolbar, or from the address a requester's
  // notification of a decision opens (?transfers=1).
  const showingTransfers = params.get('transfers') === '1';
  // Offline the Transfer buttons stay, disabled, with the reason: a request needs the server.
  const onTransfer = can(permissions, 'stockTransfer.request') ? setTransferring : undefined;
  const transferOffline = !online;
  // Decision 0061: who decides requests sees how many wait for them, from the dialog's own query.
  const requests = useTransferRequests(email, decidesTransfers(permissions));
  const waiting = waitingForCaller(requests.data, permissions, plants, i18n.language);
  // My team stock lists plants of the team the caller may not hold; a transfer there is refused (403).
  const canTransfer = (item: StockItemRow) => writesInPlant(permissions, plants, item.plant);

  return (
    <section className="page">
      <h1 className="page-title route-title">{t('routes.stockManagement')}</h1>
      {(list.isOfflineCopy || !online) && <OfflineBanner savedAt={list.savedAt} />}
      <StockTabs active={type} onSelect={(tab) => go({ tab, page: null, more: null })} />
      {/* The tab's panel holds the toolbar and the list the tab shows. */}
      <div role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(type)}>
        <div className="list-toolbar">
          <Link className="button" to={`/stock-management-search?tab=${type}${query ? `&q=${encodeURIComponent(query)}` : ''}`}>
            {query ? t('stock.searchingFor', { query }) : t('stock.search')}
          </Link>
          {query && (
            <button type="button" className="button ghost" onClick={() => go({ q: null, page: null, more: null })}>
              {t('stock.clearSearch')}
            </button>
          )}
          <TransferRequestsButton waiting={waiting} onOpen={() => go({ transfers: '1' })} />
          {/* Read by the status below, once. */}
          {summary && !(noLocation && data?.total === 0) && (
            <span className="muted" aria-hidden="true">
              {summary}
            </span>
          )}
        </div>
        <StockResultStatus data={data} emptyText={emptyText} />
        {list.isPending && <Spinner label={t('loading.listingItems')} />}
        {list.error && (
          <LoadError error={list.error} />
        )}
        {data && data.stock_items.length === 0 && page > Math.max(1, data.pages) ? (
          <PastEndNotice page={page} pages={data.pages} atLeast={pagesCapped} onFirstPage={() => go({ page: null, more: null })} />
        ) : (
          data && data.stock_items.length === 0 && <p className="muted">{emptyText ?? t('common.noItems')}</p>
        )}
        {data && data.stock_items.length > 0 && (
          <>
            <StockTable items={data.stock_items} onTransfer={onTransfer} canTransfer={canTransfer} transferOffline={transferOffline} />
            {Array.from({ length: more }, (_, index) => page + index + 1).map((extra) => (
              <StockMorePage
                key={extra}
                email={email}
                type={type}
                query={query}
                page={extra}
                isLast={extra === lastPage}
                // At the most pages one screen holds, Load more moves the window on a page instead
                // of doing nothing (the address kept more=21, read back as 20).
                onLoadMore={() => go(more < MAX_MORE_PAGES ? { more: String(more + 1) } : { page: String(page + 1), more: String(more) })}
                onTransfer={onTransfer}
                canTransfer={canTransfer}
                transferOffline={transferOffline}
              />
            ))}
            {more === 0 && <LoadMoreOrEnd page={page} hasNext={data.has_next} onLoadMore={() => go({ more: '1' })} />}
            <Pager
              page={data.page}
              pages={pager?.pages ?? data.pages}
              label={cappedPagerLabel(t, page, lastPage, pageCount, pager?.atLeast ?? false)}
              hasPrev={page > 1}
              hasNext={pager?.hasNext ?? lastPage < data.pages}
              onPrevious={() => go({ page: String(page - 1), more: null })}
              onNext={() => go({ page: String(lastPage + 1), more: null })}
            />
          </>
        )}
      </div>
      {transferring && (
        <TransferDialog
          item={transferring}
          onClose={() => setTransferring(null)}
          onDone={(row) => {
            setTransferring(null);
            void client.invalidateQueries({ queryKey: TRANSFER_REQUESTS_KEY });
            setNotice(t('stock.transferDone', { ...transferWords(row, i18n.language), to: row.storage_location_to }));
          }}
        />
      )}
      {showingTransfers && <TransferRequestsDialog onClose={() => go({ transfers: null })} />}
    </section>
  );
}
