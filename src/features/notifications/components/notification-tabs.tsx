/**
 * The notification lists (§2): sub-tabs Email, SMS, Push, Sent feedback and Stock count, the
 * filter all / delivery / inventory count / contact / other, search, next / previous, load more
 * and "End of results". Used by /notifications and by the status monitor's Notifications tab.
 * The state (sub-tab, filter, search, page) is kept for the session, so it survives navigating
 * away and back (§2 "screen state is kept").
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationKey } from '../../../contract/notifications';
import { NOTIFICATION_KEYS } from '../../../domain/constants';
import { can, inAllowedPlants } from '../../../domain/permissions';
import { useAllowedPlants, useProfile } from '../../../lib/profile';
import { useNotificationTypes } from '../../../lib/notification-types';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Pager } from '../../../components/ui/pager';
import { ChannelPage, FeedbackPageList, StockCountPageList, type PageProps } from './notification-lists';
import '../notifications.css';
import { TabBar } from '../../../components/ui/tab-bar';
import { useRovingTabs } from '../../../components/ui/roving-tabs';

export const NOTIFICATION_TABS = ['email', 'sms', 'push', 'sentFeedback', 'stockCount'] as const;
export type NotificationTab = (typeof NOTIFICATION_TABS)[number];

interface TabsState {
  tab: NotificationTab;
  key: NotificationKey | 'all';
  query: string;
  page: number;
  more: number;
}

const STORAGE_KEY = 'notifications.state';
const INITIAL: TabsState = { tab: 'email', key: 'all', query: '', page: 1, more: 0 };

function readState(): TabsState {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<TabsState> | null;
    if (!saved) return INITIAL;
    return {
      tab: NOTIFICATION_TABS.find((tab) => tab === saved.tab) ?? 'email',
      key: NOTIFICATION_KEYS.find((key) => key === saved.key) ?? 'all',
      query: typeof saved.query === 'string' ? saved.query.slice(0, 200) : '',
      page: Number.isInteger(saved.page) && saved.page! >= 1 ? saved.page! : 1,
      more: Number.isInteger(saved.more) && saved.more! >= 0 ? Math.min(saved.more!, 20) : 0,
    };
  } catch {
    return INITIAL;
  }
}

export function NotificationTabs({ idPrefix = 'notifications' }: { idPrefix?: string }) {
  const { t } = useTranslation();
  const profile = useProfile();
  const allowedPlants = useAllowedPlants();
  const online = useOnline();
  // #19 item 10: the filter offers the types the server lists (GET notifications/list_keys).
  const types = useNotificationTypes(profile.email);
  const [state, setState] = useState(readState);
  const [draftQuery, setDraftQuery] = useState(state.query);
  const [offline, setOffline] = useState<{ savedAt: number | undefined } | null>(null);
  const update = (change: Partial<TabsState>) =>
    setState((current) => {
      const next = { ...current, ...change };
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      return next;
    });

  const showsStockCounts =
    can(profile.permissions, 'stockCount.read') && inAllowedPlants(profile.permissions, profile.plants, allowedPlants.stock_count_allowed_plants);
  const tabs = NOTIFICATION_TABS.filter((tab) => tab !== 'stockCount' || showsStockCounts);
  const active = tabs.includes(state.tab) ? state.tab : 'email';
  const isChannel = active === 'email' || active === 'sms' || active === 'push';
  const panelId = `${idPrefix}-panel`;

  const roving = useRovingTabs(tabs, (next) => update({ tab: next, page: 1, more: 0 }));

  const pages = Array.from({ length: state.more + 1 }, (_, index) => state.page + index);
  const lastPage = pages[pages.length - 1]!;
  const [pageCount, setPageCount] = useState<number | null>(null);
  const pageProps = (page: number, index: number): PageProps => ({
    userEmail: profile.email,
    page,
    isFirst: index === 0,
    isLast: page === lastPage,
    onPages: index === 0 ? setPageCount : undefined,
    onSource: index === 0 ? setOffline : undefined,
    onLoadMore: () => update({ more: state.more + 1 }),
  });

  return (
    <div className="notification-tabs">
      {(offline || !online) && <OfflineBanner savedAt={offline?.savedAt} />}
      <TabBar className="notification-subtabs" label={t('notifications.tabsLabel')}>
        {tabs.map((tab, index) => (
          <button
            key={tab}
            ref={roving.ref(index)}
            id={`${idPrefix}-tab-${tab}`}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === active}
            aria-controls={panelId}
            tabIndex={tab === active ? 0 : -1}
            onClick={() => update({ tab, page: 1, more: 0 })}
            onKeyDown={(event) => roving.onKeyDown(event, index)}
          >
            {t(`notifications.tab.${tab}`)}
          </button>
        ))}
      </TabBar>
      <div id={panelId} role="tabpanel" aria-labelledby={`${idPrefix}-tab-${active}`}>
        {/* The cards' titles are h3: the list they are in has its heading (the page's outline skipped a level). */}
        <h2 className="visually-hidden">{t(`notifications.tab.${active}`)}</h2>
        {isChannel && (
          <form
            className="notification-filters"
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              update({ query: draftQuery.trim(), page: 1, more: 0 });
            }}
          >
            <label>
              <span>{t('notifications.filterLabel')}</span>
              <select value={state.key} onChange={(event) => update({ key: event.target.value as TabsState['key'], page: 1, more: 0 })}>
                <option value="all">{t('notifications.filter.all')}</option>
                {types.map(({ key, title }) => (
                  <option key={key} value={key}>
                    {t(`notifications.key.${key}`, { defaultValue: title })}
                  </option>
                ))}
              </select>
            </label>
            <label className="search-field">
              <span>{t('notifications.searchLabel')}</span>
              <input type="search" value={draftQuery} maxLength={200} onChange={(event) => setDraftQuery(event.target.value)} />
            </label>
            <button type="submit" className="button">
              {t('common.search')}
            </button>
          </form>
        )}
        {pages.map((page, index) =>
          isChannel ? (
            <ChannelPage key={`${active}-${state.key}-${state.query}-${page}`} channel={active} notificationKey={state.key === 'all' ? null : state.key} query={state.query} {...pageProps(page, index)} />
          ) : active === 'sentFeedback' ? (
            <FeedbackPageList key={`feedback-${page}`} {...pageProps(page, index)} />
          ) : (
            <StockCountPageList key={`counts-${page}`} {...pageProps(page, index)} />
          ),
        )}
        {pageCount !== null && pageCount > 1 && (
          <Pager
            page={lastPage}
            pages={pageCount}
            hasPrev={state.page > 1}
            hasNext={lastPage < pageCount}
            onPrevious={() => update({ page: Math.max(1, state.page - 1), more: 0 })}
            onNext={() => update({ page: lastPage + 1, more: 0 })}
          />
        )}
      </div>
    </div>
  );
}
