/**
 * /stock-count: the dashboard (tasks per person, drawn), the counting requests the user may see
 * (the device's copy offline), and for planners: create, send drafts, cancel after confirmation,
 * recount the variances. Each count opens the material count (mechanic view) or its print sheet.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useQueryClient, useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { formatCreated, formatDeadline } from '../../../lib/date-formats';
import type { StockCountRow } from '../../../contract/stock';
import { EDITABLE_COUNT_STATUSES, PAGE_SIZE, STOCK_COUNT_TYPES } from '../../../domain/constants';
import { can, type Capability } from '../../../domain/permissions';
import { useAllowedPlants, useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Pager } from '../../../components/ui/pager';
import { Spinner } from '../../../components/ui/spinner';
import { Dialog } from '../../../components/ui/dialog';
import { OccupancyChart } from '../../../components/occupancy-chart';
import { stockCountQueries, useStockCounts, type StockCountListParams } from '../api/get-stock-counts';
import { recountStockCount, updateStockCount, useOccupancy, waitingPlans, type OccupancyFilter, type PlanningResult, type WaitingPlan } from '../api/count-planning';
import { PLANNING_SCOPE } from '../offline/count-sheet';
import { useOutboxEntries } from '../../../offline/outbox-live';
import { WaitingPlanning } from '../components/waiting-planning';
import { CreateCountDialog } from '../components/create-count-dialog';
import { EditCountDialog } from '../components/edit-count-dialog';
import { SplitCountDialog } from '../components/split-count-dialog';
import { useToastNotice } from '../../../components/ui/toast';
import { CountMorePage } from '../components/count-more-page';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { CollapsibleSection } from '../../../components/ui/collapsible-section';
import { LoadError } from '../../../components/ui/load-error';
import { ResultsStatus } from '../../../components/ui/results-status';
import '../stock-count.css';
import { MAX_MORE_PAGES, wholeParam } from '../../../lib/search-params';

const SORTS = ['plant', 'created', 'should_be_done_at', 'status'] as const;
type Sort = (typeof SORTS)[number];

/** The list as the address keeps it: its parameters, and the pages loaded below the first with "Load more". */
export interface CountListState {
  params: StockCountListParams;
  more: number;
}

/**
 * The list's search, type, sort, page and loaded pages, read from the address (#19 item 6): Back
 * from a count shows the list as it was left. Anything not understood reads as the default.
 */
export function readCountList(search: URLSearchParams): CountListState {
  const [column, direction] = (search.get('sort') ?? '').split(':');
  const sorted = SORTS.includes(column as Sort) && (direction === 'asc' || direction === 'desc');
  const type = STOCK_COUNT_TYPES.find((name) => name === search.get('type'));
  const query = search.get('q')?.trim();
  return {
    params: {
      page: wholeParam(search.get('page'), 1, 1),
      maxResults: PAGE_SIZE,
      orderByColumn: sorted ? column! : 'plant',
      sortDirection: sorted ? (direction as 'asc' | 'desc') : 'asc',
      ...(query ? { query } : {}),
      ...(type ? { type } : {}),
    },
    more: Math.min(wholeParam(search.get('more'), 0, 0), MAX_MORE_PAGES),
  };
}

/** The address of a list state; the defaults are left out, so the plain list is plain /stock-count. */
export function writeCountList({ params, more }: CountListState): URLSearchParams {
  const search = new URLSearchParams();
  if (params.query) search.set('q', params.query);
  if (params.type) search.set('type', params.type);
  if (params.orderByColumn !== 'plant' || params.sortDirection !== 'asc') search.set('sort', `${params.orderByColumn}:${params.sortDirection}`);
  if (params.page !== 1) search.set('page', String(params.page));
  if (more > 0) search.set('more', String(Math.min(more, MAX_MORE_PAGES)));
  return search;
}

type CardAction = (count: StockCountRow) => void;

/** A count's card: its link to the count, and the actions on it, each described by the count's title. */
export function CountCard({
  count,
  onSend,
  onEdit,
  onCancel,
  onRecount,
  onSplit,
  waiting,
  busy = false,
}: {
  count: StockCountRow;
  onSend?: CardAction;
  onEdit?: CardAction;
  onCancel?: CardAction;
  onRecount?: CardAction;
  /** #18: share the count among counters (planners). */
  onSplit?: CardAction;
  /** The planner's changes of this count still waiting in the outbox (made offline, or queued behind one). */
  waiting?: WaitingPlan;
  /** An action of this card is on its way: a second tap would send it twice. */
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const share = count.total_lines ? (count.counted_lines / count.total_lines) * 100 : 0;
  const editable = (EDITABLE_COUNT_STATUSES as readonly string[]).includes(count.status);
  // While a change of the count waits, the card shows the count as it was before it: its actions
  // wait too (a Cancel or Recount tapped again went twice, the second refused), except Send behind
  // waiting edits, which goes after them.
  const held = busy || waiting !== undefined;
  const sendHeld = busy || (waiting !== undefined && !waiting.editsOnly);
  // Every card has the same actions: each names its count to a screen reader ("Edit", described by
  // "Count 12"), which otherwise lists "Edit, Edit, Edit".
  const titleId = `count-card-title-${count.id}`;
  return (
    <li className="count-card">
      <Link id={`count-card-${count.id}`} className="count-card-link" to={`/mechanic-view/${count.id}`}>
        <span className="count-card-head">
          <strong id={titleId}>{t('stockCount.title', { id: count.id })}</strong>
          <span className={`status-chip status-${count.status}`}>{t(`stockCount.status.${count.status}`)}</span>
          {count.is_draft && <span className="status-chip">{t('stockCount.draft')}</span>}
          {(count.part_count ?? 0) > 0 && <span className="status-chip">{t('stockCount.parts.counters', { count: count.part_count })}</span>}
          {count.is_blind && <span className="status-chip">{t('stockCount.parts.blind')}</span>}
          {waiting && <span className={waiting.refused ? 'status-chip status-error' : 'status-chip'}>{t(waiting.refused ? 'stockCount.waiting.refusedChip' : 'sync.pending')}</span>}
        </span>
        <span className="count-card-meta">
          <span>{t(`stockCount.type.${count.type}`, { defaultValue: count.type })}</span>
          <span>
            {count.plant} / {count.storage_location}
          </span>
          <span>{count.conducted_by ? t('stockCount.conductedBy', { who: count.conducted_by }) : t('stockCount.unassigned')}</span>
          {/* §9: created as a long date with time, in the user's language. */}
          <span>{t('stockCount.createdBy', { date: formatCreated(count.created), who: count.created_by })}</span>
          {count.should_be_done_at && <span>{t('stockCount.deadline', { date: formatDeadline(count.should_be_done_at) })}</span>}
        </span>
        <span className="count-card-progress">
          <span className="progress-bar" aria-hidden="true">
            <span style={{ width: `${share}%` }} />
          </span>
          <span className="small">{t('stockCount.progress', { counted: count.counted_lines, total: count.total_lines })}</span>
        </span>
      </Link>
      <span className="count-card-actions">
        <Link aria-describedby={titleId} className="button small ghost" to={`/print-count/${count.id}`}>
          {t('stockCount.print')}
        </Link>
        {onSend && count.is_draft && editable && (
          <button type="button" className="button small" aria-describedby={titleId} disabled={sendHeld} onClick={() => onSend(count)}>
            {t('stockCount.sendDraft')}
          </button>
        )}
        {onEdit && editable && (
          <button type="button" className="button small" aria-describedby={titleId} disabled={held} onClick={() => onEdit(count)}>
            {t('stockCount.edit')}
          </button>
        )}
        {onSplit && (count.part_count ?? 0) > 0 && (
          <Link aria-describedby={titleId} className="button small" to={`/count-merge/${count.id}`}>
            {t('stockCount.parts.openMerge')}
          </Link>
        )}
        {onSplit && editable && !count.part_count && (
          <button type="button" className="button small" aria-describedby={titleId} disabled={held} onClick={() => onSplit(count)}>
            {t('stockCount.split.open')}
          </button>
        )}
        {onCancel && editable && (
          <button type="button" className="button small" aria-describedby={titleId} disabled={held} onClick={() => onCancel(count)}>
            {t('stockCount.cancelCount')}
          </button>
        )}
        {/* #19 item 14: one open recount per count: once there is one, the button leads to it. */}
        {onRecount && count.status === 'completed' && count.open_recount_id != null && (
          <Link aria-describedby={titleId} className="button small" to={`/mechanic-view/${count.open_recount_id}`}>
            {t('stockCount.openRecount', { id: count.open_recount_id })}
          </Link>
        )}
        {/* A count whose lines all matched the book has nothing to recount (the server refuses it, 409);
            a row that does not say (an older server, a copy) offers it. */}
        {onRecount && count.status === 'completed' && count.open_recount_id == null && count.has_differences !== false && (
          <button type="button" className="button small" aria-describedby={titleId} disabled={held} onClick={() => onRecount(count)}>
            {t('stockCount.recount')}
          </button>
        )}
      </span>
    </li>
  );
}

/**
 * The dashboard's scope: the planner's planner group, else their first plant that uses stock
 * counts (stock_count_allowed_plants; another has no report, the server refuses it), last 30 days.
 */
export function dashboardFilter(permissions: string[], plants: string[], plannerGroups: string[], stockCountPlants: readonly string[]): OccupancyFilter | null {
  const range = { start_date: dayjs().subtract(30, 'day').format('YYYY-MM-DD'), end_date: dayjs().format('YYYY-MM-DD') };
  if (can(permissions, 'frontliner.byPlannerGroup') && plannerGroups[0]) return { ...range, planner_group: plannerGroups[0] };
  const plant = plants.find((code) => stockCountPlants.includes(code));
  if (can(permissions, 'frontliner.byPlant') && plant) return { ...range, plant };
  return null;
}

export default function StockCountPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const { email, permissions } = profile;
  // Planner actions on the counts the user plans; one they only count (a supervisor asked to count
  // another team's) shows none (the server refuses them too).
  const plans = (count: StockCountRow, capability: Capability) => count.planned_by_you !== false && can(permissions, capability);
  const online = useOnline();
  const queryClient = useQueryClient();
  // #19 item 6: the §7 query and type filters, the sort, the page and the pages loaded below it with
  // "Load more" live in the address, so Back from a count shows the list as it was left. Each change
  // replaces the entry: Back leaves the screen, it does not step through its filters.
  const [search, setSearch] = useSearchParams();
  const { params, more } = readCountList(search);
  const setList = (next: StockCountListParams, nextMore = 0) => setSearch(writeCountList({ params: next, more: nextMore }), { replace: true });
  const setMore = (nextMore: number) => setList(params, nextMore);
  // The box holds what is typed; the list is filtered by what was searched. Type and Sort keep the
  // searched query (text typed and not searched is not applied unseen); the box follows the address
  // when it changes the search (the side bar's link, a reload).
  const applied = params.query ?? '';
  const [draftQuery, setDraftQuery] = useState(applied);
  const [shownQuery, setShownQuery] = useState(applied);
  if (shownQuery !== applied) {
    setShownQuery(applied);
    setDraftQuery(applied);
  }
  const [creating, setCreating] = useState(false);
  const [cancelling, setCancelling] = useState<StockCountRow | null>(null);
  const [recounting, setRecounting] = useState<StockCountRow | null>(null);
  const [editing, setEditing] = useState<StockCountRow | null>(null);
  const [splitting, setSplitting] = useState<StockCountRow | null>(null);
  // Feedback of an action: a toast above the bottom bar, where the thumb is (#21).
  const setNotice = useToastNotice();
  const list = useStockCounts(email, params);
  const data = list.data;
  // Back on the list, it is read again: a count submitted, split or changed on its own screens
  // meanwhile (up to 30 s ago, the stale time) still offered Edit, Cancel and Split. A read already
  // on its way is not started again.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: stockCountQueries.all() }, { cancelRefetch: false });
  }, [queryClient]);
  // The planner's changes waiting in the outbox, per count: their cards hold their actions meanwhile.
  const outbox = useOutboxEntries(PLANNING_SCOPE, email);
  const waiting = useMemo(() => waitingPlans(outbox), [outbox]);
  const allowedPlants = useAllowedPlants();
  const filter = dashboardFilter(permissions, profile.plants, profile.plannerGroups, allowedPlants.stock_count_allowed_plants);
  const occupancy = useOccupancy(filter);
  // The dashboard counts the same counts: it is read again with the list.
  const refresh = useCallback(
    () => Promise.all([queryClient.invalidateQueries({ queryKey: stockCountQueries.all() }), queryClient.invalidateQueries({ queryKey: ['occupancy'] })]),
    [queryClient],
  );
  /** The card of a count takes the focus when the button pressed leaves with the change (else the page's main). */
  const focusCard = (id: number) => (document.getElementById(`count-card-${id}`) ?? document.getElementById('main'))?.focus();
  /** The same, only when the focus was lost (on <body>, or on a button held meanwhile): not taken from where the user went. */
  const focusCardIfLost = (id: number) => {
    const active = document.activeElement;
    if (active === null || active === document.body || (active instanceof HTMLButtonElement && active.disabled)) focusCard(id);
  };
  /** What a queued change says: offline, online behind a change of the count still waiting, or online without the server's answer. */
  const queuedNotice = (result: { behind?: boolean; unanswered?: boolean }) =>
    result.behind
      ? setNotice(t('stockCount.queuedBehindMessage'))
      : result.unanswered
        ? setNotice(t('stockCount.queuedUnansweredMessage'))
        : // "No connection": no longer true once the connection is back (the change is being sent).
          setNotice(t('stockCount.queuedMessage'), { untilOnline: true });
  /**
   * The counts with a change on its way: one per card, whatever was pressed on another card since
   * (the mutation's variables name only the latest).
   */
  const [inFlight, setInFlight] = useState<ReadonlySet<number>>(() => new Set());
  /** The same, at once: a second tap in the same frame finds it before the card re-renders. */
  const inFlightNow = useRef(new Set<number>());
  const holdCard = (id: number, held: boolean) => {
    if (held) inFlightNow.current.add(id);
    else inFlightNow.current.delete(id);
    setInFlight(new Set(inFlightNow.current));
  };
  const act = useMutation({
    // Offline the change goes to the outbox: the mutation must run, not wait for a connection.
    networkMode: 'always',
    onSettled: (_result, _error, { count }) => holdCard(count.id, false),
    mutationFn: async ({ kind, count }: { kind: 'send' | 'cancel' | 'recount'; count: StockCountRow }): Promise<PlanningResult> => {
      if (kind === 'send') return updateStockCount(email, 'send', { stockCountId: count.id, draft: false });
      // The status the card showed (decision 0068): a count whose counting started since (or whose booking failed) is refused (409), not cancelled unseen.
      if (kind === 'cancel') return updateStockCount(email, 'cancel', { stockCountId: count.id, status: 'cancelled', expected: { status: count.status } });
      return recountStockCount(email, count.id);
    },
    onSuccess: (result, { kind, count }) => {
      if (result.queued) {
        queuedNotice(result);
        // Cancel and Recount close their dialog, which gives the focus back to the card's button,
        // held (disabled) in the same render while the change waits: the focus was lost. The card
        // takes it, as when the change went at once.
        requestAnimationFrame(() => focusCardIfLost(count.id));
        return;
      }
      // A recount of a count nobody was named to count (a split count may be sent without one) is
      // saved as a draft: the planner chooses who counts it, then sends it.
      const recount = result.row.is_draft ? t('stockCount.recountDraftMessage', { id: result.row.id }) : t('stockCount.recountMessage', { id: result.row.id });
      setNotice(kind === 'cancel' ? t('stockCount.cancelledMessage') : kind === 'send' ? t('stockCount.sentMessage') : recount);
      // The pressed button leaves with the change (a sent draft has no "Send", a recount becomes a
      // link): the focus goes to the count's card (a recount: the new count's), not to the page.
      void refresh().then(() => requestAnimationFrame(() => focusCard(kind === 'recount' ? result.row.id : count.id)));
    },
    // A refused recount (another one is open) shows the server's message; the fresh list then shows
    // that recount. The pressed button was held while the change went: the focus it lost goes to the card.
    onError: (_error, { count }) => void refresh().then(() => requestAnimationFrame(() => focusCardIfLost(count.id))),
  });
  const refuse = useToastNotice('danger');
  const run = (kind: 'send' | 'cancel' | 'recount') => (count: StockCountRow) => {
    const held = waiting.get(count.id);
    // A second tap while the first is on its way, or while a change of the count waits (only a Send
    // behind waiting edits goes, after them): the card's buttons are held, this is their guard.
    if (inFlightNow.current.has(count.id) || (held && !(kind === 'send' && held.editsOnly))) return;
    // A draft sent with nobody to count it would be listed, reminded and reported to no one (the
    // server refuses it too): say what to do first, where the thumb is. A waiting edit naming who
    // counts goes before the Send (planChange queues it behind), so it counts.
    if (kind === 'send' && !count.conducted_by && !held?.counter && !((count.part_count ?? 0) > 0)) {
      refuse(t('stockCount.whoCountsMissing'));
      return;
    }
    holdCard(count.id, true);
    act.mutate({ kind, count });
  };
  const card = (count: StockCountRow) => (
    <CountCard
      key={count.id}
      count={count}
      waiting={waiting.get(count.id)}
      busy={inFlight.has(count.id)}
      onSend={plans(count, 'stockCount.edit') ? run('send') : undefined}
      onEdit={plans(count, 'stockCount.edit') ? setEditing : undefined}
      onCancel={plans(count, 'stockCount.cancel') ? setCancelling : undefined}
      onRecount={plans(count, 'stockCount.recount') ? setRecounting : undefined}
      onSplit={plans(count, 'stockCount.edit') ? setSplitting : undefined}
    />
  );
  const edited = (result: PlanningResult, id: number) => {
    if (result.queued) queuedNotice(result);
    else {
      setNotice(t('stockCount.savedMessage', { id }));
      void refresh();
    }
  };
  const created = (result: PlanningResult, draft: boolean) => {
    if (result.queued) queuedNotice(result);
    else {
      setNotice(draft ? t('stockCount.savedAsDraft', { id: result.row.id }) : t('stockCount.createdMessage', { id: result.row.id }));
      void refresh();
    }
  };

  return (
    <section className="page">
      <div className="page-head">
        <h1 className="page-title route-title">{t('routes.stockCount')}</h1>
        {can(permissions, 'stockCount.create') && (
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            {t('stockCount.newCount')}
          </button>
        )}
      </div>
      {(list.isOfflineCopy || !online) && <OfflineBanner savedAt={list.savedAt} />}
      <WaitingPlanning userEmail={email} onConfirmed={refresh} onCreated={created} onEdited={edited} />
      {filter && (
        <CollapsibleSection id="count-dashboard" title={t('stockCount.dashboardTitle', { scope: filter.planner_group ?? filter.plant })}>
          {occupancy.data ? (
            <OccupancyChart report={occupancy.data} />
          ) : occupancy.error ? (
            <LoadError error={occupancy.error} />
          ) : (
            <Spinner label={t('loading.listingItems')} />
          )}
        </CollapsibleSection>
      )}
      {/* #21: one filter block, each control with its label in sight; on a phone the search takes a
          row and Type and Sort by sit under it, label beside control, nothing cut. */}
      <form
        className="count-filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setList({ ...params, page: 1, query: draftQuery.trim() || undefined });
        }}
      >
        <div className="count-filter-query">
          <label htmlFor="count-query">{t('stockCount.listSearch')}</label>
          <div className="count-filter-search">
            <input id="count-query" type="search" value={draftQuery} maxLength={200} onChange={(event) => setDraftQuery(event.target.value)} />
            <button type="submit" className="button">
              {t('common.search')}
            </button>
          </div>
        </div>
        <div className="count-filter">
          <label htmlFor="count-type">{t('stockCount.listType')}</label>
          <select
            id="count-type"
            value={params.type ?? ''}
            onChange={(event) => setList({ ...params, page: 1, type: (STOCK_COUNT_TYPES as readonly string[]).includes(event.target.value) ? (event.target.value as StockCountListParams['type']) : undefined })}
          >
            <option value="">{t('stockCount.allTypes')}</option>
            {STOCK_COUNT_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`stockCount.type.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="count-filter">
          <label htmlFor="count-sort">{t('stockCount.sortBy')}</label>
          <select
            id="count-sort"
            value={`${params.orderByColumn}:${params.sortDirection}`}
            onChange={(event) => {
              const [orderByColumn, sortDirection] = event.target.value.split(':') as [string, 'asc' | 'desc'];
              setList({ ...params, page: 1, orderByColumn, sortDirection });
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
      </form>
      {/* The list's answer for screen readers when Search, Type or Sort changes it (and on arrival):
          always in the page, only its text changes; none while the new answer is on its way. */}
      <ResultsStatus count={data ? (data.stock_counts.length === 0 ? 0 : data.total) : undefined} />
      {list.isPending && <Spinner label={t('loading.listingItems')} />}
      {list.error && (
        <LoadError error={list.error} />
      )}
      {data && data.stock_counts.length === 0 && <p className="muted">{t('common.noItems')}</p>}
      {data && data.stock_counts.length > 0 && (
        <>
          <ul className="count-cards">{data.stock_counts.map(card)}</ul>
          {Array.from({ length: more }, (_, index) => params.page + index + 1).map((extra) => (
            <CountMorePage
              key={extra}
              email={email}
              params={{ ...params, page: extra }}
              isLast={extra === params.page + more}
              // At the most pages one screen loads, the window moves on a page (the address keeps at most MAX_MORE_PAGES).
              onLoadMore={() => (more < MAX_MORE_PAGES ? setMore(more + 1) : setList({ ...params, page: params.page + 1 }, more))}
              renderCards={(counts) => <ul className="count-cards">{counts.map(card)}</ul>}
            />
          ))}
          {more === 0 &&
            (data.has_next ? (
              <div className="load-more">
                <LoadMoreButton page={params.page} onLoadMore={() => setMore(1)} />
              </div>
            ) : (
              <p className="muted end-of-results">{t('common.endOfResults')}</p>
            ))}
          <Pager
            page={data.page}
            pages={data.pages}
            label={more > 0 ? t('tracking.pagesOf', { from: params.page, to: params.page + more, pages: data.pages }) : undefined}
            hasPrev={params.page > 1}
            hasNext={params.page + more < data.pages}
            onPrevious={() => setList({ ...params, page: params.page - 1 })}
            onNext={() => setList({ ...params, page: params.page + more + 1 })}
          />
        </>
      )}
      {/* Mounted per opening: a new count starts empty (it kept the last one's fields, and one tap made a copy). */}
      {creating && (
        <CreateCountDialog
          open={creating}
          onClose={() => setCreating(false)}
          onCreated={(result, draft) => {
            setCreating(false);
            created(result, draft);
          }}
        />
      )}
      {editing && (
        <EditCountDialog
          count={editing}
          onClose={() => setEditing(null)}
          onSaved={(result) => {
            const id = editing.id;
            setEditing(null);
            edited(result, id);
          }}
        />
      )}
      {splitting && (
        // The card offers the split to a count not split when the list was read (up to 30 s ago): the
        // dialog reads the split as it is now, and the save names it, so one made meanwhile is not replaced unseen.
        <SplitCountDialog
          count={splitting}
          existing={null}
          onStale={() => void refresh()}
          onClose={() => setSplitting(null)}
          onSaved={() => {
            const id = splitting.id;
            setSplitting(null);
            setNotice(t('stockCount.split.saved', { id }));
            // The dialog gives the focus back to the Split button, which the fresh list no longer
            // has (a split count offers its merge screen): it goes to the count's card, as after `act`.
            void refresh().then(() => requestAnimationFrame(() => focusCard(id)));
          }}
        />
      )}
      <Dialog open={cancelling !== null} title={t('stockCount.cancelTitle', { id: cancelling?.id })} onClose={() => setCancelling(null)}>
        <p>{t('stockCount.cancelText')}</p>
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={() => setCancelling(null)}>
            {t('stockCount.keepCount')}
          </button>
          <button
            type="button"
            className="button primary"
            onClick={() => {
              if (cancelling) run('cancel')(cancelling);
              setCancelling(null);
            }}
          >
            {t('stockCount.cancelCount')}
          </button>
        </div>
      </Dialog>
      <Dialog open={recounting !== null} title={t('stockCount.recountTitle', { id: recounting?.id })} onClose={() => setRecounting(null)}>
        <p>{t('stockCount.recountText')}</p>
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={() => setRecounting(null)}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={act.isPending}
            onClick={() => {
              if (recounting) run('recount')(recounting);
              setRecounting(null);
            }}
          >
            {t('stockCount.recountConfirm')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
