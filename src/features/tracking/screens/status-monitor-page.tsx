/**
 * /status-monitor (§2): tabs All, Arrived, Incoming and My orders with their counts, the filter-by
 * control (§5 search language), the My orders toggle, next / previous, load more and "End of
 * results". State is kept in the address and the session (useMonitorState); every page read is
 * mirrored on the device, so the last pages are there offline with the time they were saved.
 * The Notifications tab and its sub-tabs arrive with the notifications feature (issue #6).
 */
import { useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TrackingStatusParams } from '../../../contract/parts';
import { PAGE_SIZE } from '../../../domain/constants';
import { can } from '../../../domain/permissions';
import { useInNotificationPlants, useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { useSearchHistory } from '../../../lib/search-history';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Pager } from '../../../components/ui/pager';
import { useTrackingStatus } from '../api/get-tracking-status';
import { cappedTabs, MonitorTabs } from '../components/monitor-tabs';
import { ResultPage, ResultsStatus } from '../components/result-page';
import { FirstSteps } from '../components/first-steps';
import { TrackingSearchForm } from '../components/tracking-search-form';
import { MONITOR_TABS, useMonitorState, type MonitorTab } from '../hooks/use-monitor-state';
import { useMonitorScroll } from '../hooks/use-monitor-scroll';
import { MAX_MORE_PAGES } from '../../../lib/search-params';
import { monitorAddress } from '../utils/monitor-state';
import { isListCountCapped, listCountOf, offersFirstSteps, pastEndPages } from '../utils/monitor-list';
import { cappedPager, pageCountText } from '../../../lib/capped-pages';
import { PastEndNotice } from '../../../components/ui/past-end-notice';
import '../tracking.css';

const PANEL_ID = 'monitor-panel';

export default function StatusMonitorPage({ notificationsTab: NotificationsTab }: { notificationsTab?: ComponentType } = {}) {
  const { t, i18n } = useTranslation();
  const profile = useProfile();
  // #6: the Notifications tab (notification lists) where notifications are used (§2, §6).
  const inNotificationPlants = useInNotificationPlants(profile);
  const showsNotifications = Boolean(NotificationsTab) && inNotificationPlants;
  const online = useOnline();
  const canSeeMine = can(profile.permissions, 'tracking.myOrders');
  const [state, update] = useMonitorState(canSeeMine);
  const { remember } = useSearchHistory('tracking');
  // One clock per render of the screen for the §4 five-day icon rule.
  const [now] = useState(() => new Date());
  const address = monitorAddress(state);
  // #19 item 25: a refused search (bad term) must not leave the last query's rows on screen as its answer.
  // It is the answer of the address it was refused on: Back or Forward to another query, page or
  // toggle shows that address's list again (the field shows its query), not "marked above".
  const [refusal, setRefusal] = useState<{ query: string; address: string } | null>(null);
  if (refusal !== null && refusal.address !== address) setRefusal(null);
  const refusedQuery = refusal !== null && refusal.address === address ? refusal.query : null;

  const myOrders = state.tab === 'mine' || state.mine;
  const base: Omit<TrackingStatusParams, 'page'> = { query: state.query, status: state.tab === 'mine' || state.tab === 'notifications' ? 'all' : state.tab, myOrders, maxResults: PAGE_SIZE };
  const first = useTrackingStatus(profile.email, { ...base, page: state.page });

  // Counts of the tabs the shown list does not cover come from a one-row query of the other mode.
  const otherMode = myOrders !== state.mine ? state.mine : !myOrders && canSeeMine ? true : null;
  const other = useTrackingStatus(
    profile.email,
    { query: state.query, status: 'all', myOrders: otherMode ?? false, maxResults: 1, page: 1 },
    { enabled: otherMode !== null, mainList: false, silent: true },
  );
  const tabCounts = myOrders === state.mine ? first.data : other.data;
  const mineCounts = myOrders ? first.data : other.data;
  const counts: Partial<Record<MonitorTab, number>> = {
    all: tabCounts?.count_total,
    arrived: tabCounts?.count_arrived,
    incoming: tabCounts?.count_incoming,
    mine: mineCounts?.count_total,
  };
  // Counts are per order, and an order with parts both arrived and still incoming is in both tabs
  // (docs/decisions/0006), so Arrived + Incoming may exceed All: the list says how many are in both.
  const capped = cappedTabs(tabCounts, mineCounts);
  const inBoth =
    tabCounts && !capped.all && !capped.arrived && !capped.incoming ? tabCounts.count_arrived + tabCounts.count_incoming - tabCounts.count_total : 0;
  const tabs = MONITOR_TABS.filter((tab) => (tab !== 'mine' || canSeeMine) && (tab !== 'notifications' || showsNotifications));
  // A tab not offered here (Notifications outside notification plants, from an old address) shows
  // as All, selected: no tab was selected, and the tab list could not be reached by keyboard.
  const activeTab = tabs.includes(state.tab) ? state.tab : 'all';
  const ActiveNotifications = activeTab === 'notifications' ? NotificationsTab : undefined;
  const pages = Array.from({ length: state.more + 1 }, (_, index) => state.page + index);
  const scroll = useMonitorScroll(address, state.page, pages.length);
  const listCount = listCountOf(base.status);
  // §5/§8: a page number beyond the list (an old link, a shared address) is a clear error, not "No
  // items found"; an empty page after the first is one too (a capped list does not know its end).
  const invalidPage = first.data
    ? pastEndPages(state.page, { pages: first.data.pages, rows: first.data.trackingStatus.length, count: first.data[listCount] }, PAGE_SIZE)
    : null;
  const lastPage = pages[pages.length - 1]!;
  const showsList = !ActiveNotifications && refusedQuery === null && invalidPage === null;
  // The last loaded page decides Next and how many pages there are at least (cappedPager): the
  // same query its ResultPage shows, so no read of its own.
  const last = useTrackingStatus(profile.email, { ...base, page: lastPage }, { enabled: showsList });
  // Past the count's cap (1,000) the number of pages is a lower bound too: "Page 1 of 50+".
  const pagesCapped = first.data ? isListCountCapped(first.data, base.status) : false;
  const pager = first.data ? cappedPager(first.data, last.data && { ...last.data, rows: last.data.trackingStatus.length }, lastPage, pagesCapped) : null;
  const pageCount = pager ? pageCountText(t, i18n.language, pager.pages, pager.atLeast) : 0;
  // The list's answer for screen readers; none while the list says something else (a refused term, a page past the end).
  const resultCount = !ActiveNotifications && refusedQuery === null && invalidPage === null ? first.data?.[listCount] : undefined;

  return (
    <section className="page">
      <h1 className="page-title route-title">{t('routes.statusMonitor')}</h1>
      {(first.isOfflineCopy || !online) && <OfflineBanner savedAt={first.savedAt} />}
      <div className="monitor-toolbar" hidden={Boolean(ActiveNotifications)}>
        <TrackingSearchForm
          initial={state.query}
          label={t('tracking.filterBy')}
          onSearch={(query) => {
            setRefusal(null);
            remember(query);
            update({ query, page: 1, more: 0 });
          }}
          onInvalid={(query) => setRefusal({ query, address })}
        />
        <div className="monitor-actions">
          {canSeeMine && state.tab !== 'mine' && (
            <label className="toggle">
              <input type="checkbox" checked={state.mine} onChange={(event) => update({ mine: event.target.checked, page: 1, more: 0 })} />
              <span>{t('tracking.myOrdersToggle')}</span>
            </label>
          )}
          <Link to="/search">{t('tracking.searchHelpLink')}</Link>
          {can(profile.permissions, 'importantMessages.write') && <Link to="/broadcast-messages">{t('tracking.broadcastLink')}</Link>}
        </div>
      </div>
      <MonitorTabs
        tabs={tabs}
        active={activeTab}
        counts={counts}
        capped={capped}
        panelId={PANEL_ID}
        onSelect={(tab, how) => {
          setRefusal(null);
          update({ tab, page: 1, more: 0 }, { viaKeyboard: how?.viaKeyboard });
        }}
      />
      <div
        id={PANEL_ID}
        role="tabpanel"
        aria-labelledby={`monitor-tab-${activeTab}`}
        className="monitor-panel"
        // An order opened from the list: the position is kept for coming back (one listener, the cards stay memoized).
        onClick={(event) => {
          // A plain click leaves the monitor; one that opens a new tab or window does not.
          const plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
          if (plain && event.target instanceof Element && event.target.closest('.order-card-link')) scroll.keep();
        }}
      >
        <ResultsStatus count={resultCount} capped={pagesCapped} />
        {!ActiveNotifications && refusedQuery !== null && (
          <p className="notice" role="status">
            {t('tracking.search.notSearched', { query: refusedQuery })}
          </p>
        )}
        {!ActiveNotifications && refusedQuery === null && invalidPage !== null && (
          <PastEndNotice page={state.page} pages={invalidPage} atLeast={pagesCapped} onFirstPage={() => update({ page: 1, more: 0 })} />
        )}
        {/* With the list, not above the tabs: arriving with the answer it moved the tabs and the
            list down on a phone when the answer came after the first paint (#22, layout shift). */}
        {!ActiveNotifications && refusedQuery === null && invalidPage === null && first.data && first.data.count_action_point > 0 && (
          <p className="monitor-summary">
            <span className="status-chip action-point">{t('tracking.actionPoint', { count: first.data.count_action_point })}</span>
          </p>
        )}
        {ActiveNotifications ? <ActiveNotifications /> : refusedQuery !== null || invalidPage !== null ? null : pages.map((page, index) => (
          <ResultPage
            key={page}
            userEmail={profile.email}
            params={{ ...base, page }}
            now={now}
            isFirst={index === 0}
            isLast={page === lastPage}
            // At the most pages one screen holds (20 more), Load more moves the window on instead
            // of doing nothing (the address kept more=21, read back as 20). Either way it replaces
            // the entry: the phone's Back leaves the screen, not one "Load more" at a time.
            onLoadMore={() => (state.more < MAX_MORE_PAGES ? update({ more: state.more + 1 }) : update({ page: state.page + 1 }, { replace: true }))}
            emptyState={index === 0 && offersFirstSteps(state) ? <FirstSteps profile={profile} /> : undefined}
            drawAll={scroll.drawAll}
            onDrawn={scroll.onDrawn}
          />
        ))}
        {/* Not under a page past the end: its notice leads to page 1, and Previous led to another empty page. */}
        {showsList && pager && pager.pages > 1 && (
          <Pager
            page={state.page}
            pages={pager.pages}
            label={
              pages.length > 1
                ? t('tracking.pagesOf', { from: state.page, to: lastPage, pages: pageCount })
                : pager.atLeast
                  ? t('common.pageOf', { page: state.page, pages: pageCount })
                  : undefined
            }
            hasPrev={state.page > 1}
            hasNext={pager.hasNext}
            onPrevious={() => update({ page: Math.max(1, state.page - 1), more: 0 })}
            onNext={() => update({ page: lastPage + 1, more: 0 })}
          />
        )}
        {/* A footnote to the tab counts, under the list: on a phone the rows come first, and the
            largest thing of the first paint is the list, not this note (#22). */}
        {refusedQuery === null && invalidPage === null && !ActiveNotifications && inBoth > 0 && (state.tab === 'all' || state.tab === 'arrived' || state.tab === 'incoming') && (
          <p className="muted tab-note">{t('tracking.inBothTabs', { count: inBoth })}</p>
        )}
      </div>
    </section>
  );
}
