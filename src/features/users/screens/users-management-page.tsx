/**
 * /users-management (§2): tabs All users, Approved users, My plant users and Pending approvals,
 * each shown only to roles that may read it (§6). Tab, search and page live in the address.
 * Rows offer what the caller may do: permissions, expiration date, history, removal.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { UserList, UserRow } from '../../../contract/users';
import { can, mayEditNotificationsOf, mayManageAccountOf, type Capability } from '../../../domain/permissions';
import { useInNotificationPlants, useProfile } from '../../../lib/profile';
import { Spinner } from '../../../components/ui/spinner';
import { Pager } from '../../../components/ui/pager';
import { useUsers } from '../api/get-users';
import { UserTable, type UserAction } from '../components/user-table';
import { PendingApprovalsList } from '../components/pending-approvals-list';
import { PermissionsDialog } from '../components/permissions-dialog';
import { ExpirationDialog } from '../components/expiration-dialog';
import { RemoveUserDialog } from '../components/remove-user-dialog';
import { HistoryDialog } from '../components/history-dialog';
import { PastEndNotice } from '../../../components/ui/past-end-notice';
import { LoadError } from '../../../components/ui/load-error';
import '../users.css';
import { useToastNotice } from '../../../components/ui/toast';
import { TabBar } from '../../../components/ui/tab-bar';
import { useRovingTabs } from '../../../components/ui/roving-tabs';
import { ResultsStatus } from '../../../components/ui/results-status';
import { usePendingCount } from '../api/get-pending-approvals';

type Tab = UserList | 'pending';
const TABS: { tab: Tab; capability: Capability; label: string }[] = [
  { tab: 'all', capability: 'users.listAll', label: 'users.tabs.all' },
  { tab: 'approved', capability: 'users.listApproved', label: 'users.tabs.approved' },
  { tab: 'my_plant', capability: 'users.listMyPlant', label: 'users.tabs.myPlant' },
  { tab: 'pending', capability: 'approvals.decide', label: 'users.tabs.pending' },
];

export default function UsersManagementPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const { permissions } = profile;
  const navigate = useNavigate();
  // §6: those who may edit other users' notification settings reach them from each row (#19 item 9).
  const inNotificationPlants = useInNotificationPlants(profile);
  const editsNotifications = can(permissions, 'notificationSettings.editOthers') && inNotificationPlants;
  const tabs = TABS.filter((entry) => can(permissions, entry.capability));
  const [params, setParams] = useSearchParams();
  const requested = tabs.find((entry) => entry.tab === params.get('tab'));
  const tab = (requested ?? tabs[0])?.tab ?? 'all';
  const query = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState(query);
  // Back and Forward change the search in the address: the box follows it.
  useEffect(() => setDraft(query), [query]);
  const [action, setAction] = useState<{ kind: UserAction; user: UserRow } | null>(null);
  // Feedback of an action: a toast above the bottom bar, where the thumb is (#21).
  const setNotice = useToastNotice();
  const isList = tab !== 'pending';
  const list = useUsers(isList ? tab : 'all', query, page, isList && tabs.length > 0);
  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    Object.entries(changes).forEach(([key, value]) => (value === null || value === '' ? next.delete(key) : next.set(key, value)));
    setParams(next, { replace: true });
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    go({ q: draft.trim(), page: null });
  };
  const actions: UserAction[] = [
    ...(can(permissions, 'users.readPermissions') ? (['permissions'] as const) : []),
    ...(editsNotifications ? (['notifications'] as const) : []),
    ...(can(permissions, 'users.updateExpiration') ? (['expiration'] as const) : []),
    ...(can(permissions, 'auditLog.read') ? (['history'] as const) : []),
    ...(can(permissions, 'users.delete') ? (['remove'] as const) : []),
  ];
  const done = (message: string) => {
    setAction(null);
    setNotice(message);
  };
  const data = list.data;
  // The pending tab says how many wait, also from another tab: on a phone it may sit behind the
  // others, and a count is why one opens it. Quiet: no number when it cannot be read.
  const pending = usePendingCount(tabs.some((entry) => entry.tab === 'pending'));
  const waiting = pending.data && pending.data.count > 0 ? pending.data : undefined;
  // WAI-ARIA tabs, as the status monitor's (tracking/components/monitor-tabs.tsx): one tab in the
  // Tab order, the arrow keys move to the next and select it. Every tab was a Tab stop before.
  const selectTab = (next: Tab) => {
    setNotice(null);
    go({ tab: next, page: null });
  };
  const roving = useRovingTabs(tabs, (entry) => selectTab(entry.tab));
  // The search's answer, told to screen readers when it arrives (not while the last one stands in).
  const pastEnd = data !== undefined && data.items.length === 0 && page > Math.max(1, data.pages);
  const resultCount = !data || list.isPlaceholderData || pastEnd ? undefined : data.total;

  return (
    <section className="page users-page">
      <h1 className="page-title route-title">{t('routes.usersManagement')}</h1>
      <TabBar label={t('users.tabsLabel')} className="tabs-fit">
        {tabs.map((entry, index) => (
          <button
            key={entry.tab}
            ref={roving.ref(index)}
            type="button"
            role="tab"
            id={`users-tab-${entry.tab}`}
            aria-selected={entry.tab === tab}
            aria-controls="users-panel"
            tabIndex={entry.tab === tab ? 0 : -1}
            className="tab"
            onClick={() => selectTab(entry.tab)}
            onKeyDown={(event) => roving.onKeyDown(event, index)}
          >
            {t(entry.label)}
            {entry.tab === 'pending' && waiting && (
              <>
                {' '}
                <span className="tab-count">{waiting.atLeast ? t('lists.atLeast', { value: waiting.count }) : waiting.count}</span>
              </>
            )}
          </button>
        ))}
      </TabBar>
      <div id="users-panel" role="tabpanel" aria-labelledby={`users-tab-${tab}`}>
        {tab === 'pending' ? (
          <PendingApprovalsList />
        ) : (
          <>
            <form className="list-toolbar users-search" role="search" onSubmit={search}>
              <label htmlFor="users-query" className="visually-hidden">
                {t('users.searchLabel')}
              </label>
              <input
                id="users-query"
                type="search"
                value={draft}
                placeholder={t('users.searchPlaceholder')}
                onChange={(event) => setDraft(event.target.value)}
              />
              <button type="submit" className="button primary">
                {t('common.search')}
              </button>
              {data && <span className="muted users-total">{t('users.total', { total: data.total })}</span>}
            </form>
            <ResultsStatus count={resultCount} empty={t('users.noUsers')} />
            {list.isPending && <Spinner label={t('loading.listingItems')} />}
            {list.error && (
              <LoadError error={list.error} />
            )}
            {pastEnd && data ? (
              <PastEndNotice page={page} pages={data.pages} onFirstPage={() => go({ page: null })} />
            ) : (
              data && data.items.length === 0 && <p className="empty-state">{t('users.noUsers')}</p>
            )}
            {data && data.items.length > 0 && (
              <>
                <UserTable
                  users={data.items}
                  actions={actions}
                  allows={(kind, user) =>
                    kind === 'notifications'
                      ? mayEditNotificationsOf(permissions, user.permissions)
                      : kind === 'expiration' || kind === 'remove'
                        ? // Never one's own account, and a super manager's only by a super manager: the server refuses both.
                          user.uid !== profile.uid && mayManageAccountOf(permissions, user.permissions)
                        : true
                  }
                  onAction={(kind, user) => (kind === 'notifications' ? navigate(`/notification-settings?uid=${user.uid}`) : setAction({ kind, user }))}
                />
                <Pager
                  page={data.page}
                  pages={data.pages}
                  // From the page shown, and not while the next one is on its way (two taps skipped a page).
                  hasPrev={data.has_prev && !list.isPlaceholderData}
                  hasNext={data.has_next && !list.isPlaceholderData}
                  onPrevious={() => go({ page: String(data.page - 1) })}
                  onNext={() => go({ page: String(data.page + 1) })}
                />
                {!data.has_next && <p className="muted end-of-results">{t('common.endOfResults')}</p>}
              </>
            )}
          </>
        )}
      </div>
      {action?.kind === 'permissions' && (
        <PermissionsDialog user={action.user} onClose={() => setAction(null)} onSaved={() => done(t('users.permissions.saved', { email: action.user.email }))} />
      )}
      {action?.kind === 'expiration' && (
        <ExpirationDialog user={action.user} onClose={() => setAction(null)} onSaved={() => done(t('users.expiration.saved', { email: action.user.email }))} />
      )}
      {action?.kind === 'remove' && (
        <RemoveUserDialog user={action.user} onClose={() => setAction(null)} onRemoved={() => done(t('users.remove.done', { email: action.user.email }))} />
      )}
      {action?.kind === 'history' && <HistoryDialog user={action.user} onClose={() => setAction(null)} />}
    </section>
  );
}
