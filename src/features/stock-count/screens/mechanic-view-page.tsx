/**
 * /mechanic-view/{id}: counting one stock count, online or not. All lines are on the device;
 * the list is virtualized (a wall-to-wall count holds thousands); every change is queued in
 * the outbox and shown with its sync state until the server has it.
 */
import { lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import dayjs from 'dayjs';
import type { MaterialCountRow, StockCountRow } from '../../../contract/stock';
import { can } from '../../../domain/permissions';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { showError } from '../../../lib/error-alert';
import { errorMessage } from '../../../lib/api-client';
import { formatQuantity } from '../../../domain/quantity';
import { useSearchHistory } from '../../../lib/search-history';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { NO_CONNECTION } from '../../../offline/sync';
import type { OutboxEntry } from '../../../offline/db';
import { isGone, StorageFullError } from '../../../offline/errors';
import { retryEntry } from '../../../offline/outbox';
import { useOutboxEntries } from '../../../offline/outbox-live';
import {
  addLine,
  discardEntry,
  editOf,
  isProvisional,
  KIND,
  keepMine,
  removeLine,
  setPartStatus,
  setQuantity,
  sheetScope,
  submitCount,
  takeTheirs,
  chooseBookAgain,
} from '../offline/count-sheet';
import { EDITABLE_COUNT_STATUSES, type StockCountStatus } from '../../../domain/constants';
import { useCountSheet } from '../hooks/use-count-sheet';
import { MaterialLine, RetryOrDiscard, type LineActions } from '../components/material-line';
import { forgetTyping, typedCodes, typingScope } from '../offline/typed-drafts';
import { forgetUnits, unitScope } from '../offline/unit-notices';

/** Statuses a count never leaves. */
const FINAL_COUNT_STATUSES: readonly string[] = ['completed', 'cancelled'] satisfies StockCountStatus[];
import { Optional } from '../../../components/optional';
import { AddMaterialDialog, type NewMaterial } from '../components/add-material-dialog';
import { SubmitDialog } from '../components/submit-dialog';
import { MyPart, PartsProgress } from '../components/count-parts';
import { bookQuantityMoved } from '../../../domain/stock';
import { formatCreated, formatDeadline } from '../../../lib/date-formats';
import { Icon } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { ResultsStatus } from '../../../components/ui/results-status';
import '../stock-count.css';

/** Scanning (#17) is its own chunk: the screen's own code, and so the app's preload map, stay as they were. */
const CountScanner = lazy(() => import('../components/count-scanner'));


const STATE_RANK: Record<OutboxEntry['status'], number> = { conflict: 3, failed: 2, sending: 1, pending: 1 };

function useLineEntries(scope: string, userEmail: string | undefined) {
  const entries = useOutboxEntries(scope, userEmail);
  return useMemo(() => {
    const byTarget = new Map<string, OutboxEntry>();
    for (const entry of entries) {
      const current = byTarget.get(entry.target);
      if (!current || STATE_RANK[entry.status] >= STATE_RANK[current.status]) byTarget.set(entry.target, entry);
    }
    return {
      entries,
      byTarget,
      submit: entries.find((entry) => entry.kind === KIND.submit),
      partStatus: entries.find((entry) => entry.kind === KIND.partStatus),
      /** A change of the count the server refused, waiting for the user: a submit waits behind it (sync's `afterRefused`). */
      refused: entries.some((entry) => entry.status === 'failed' || entry.status === 'conflict'),
    };
  }, [entries]);
}

/**
 * Changes the server refused (or found in conflict) whose line is not in the list, so no line can show them: a removal
 * (its line left the list when it was queued) or an edit of a line the planner deleted. Without
 * this the top bar said "needs you" and nothing offered Retry or Discard; a refused removal also
 * kept its line hidden on the phone while the server still had it. Discard puts it back.
 */
export function OrphanedChanges({ entries, lines, actions }: { entries: OutboxEntry[]; lines: MaterialCountRow[]; actions: LineActions }) {
  const { t, i18n } = useTranslation();
  // Every render of the count passes here: the lines (up to thousands) are looked at only when a change was refused.
  const refused = entries.filter((entry) => (entry.status === 'failed' || entry.status === 'conflict') && entry.target.startsWith('line:'));
  if (refused.length === 0) return null;
  const shown = new Set(lines.map((line) => `line:${line.id}`));
  const orphans = refused.filter((entry) => !shown.has(entry.target));
  if (orphans.length === 0) return null;
  const what = (entry: OutboxEntry) => {
    const code = (entry.undo as MaterialCountRow | undefined)?.material_code ?? entry.target.slice('line:'.length);
    if (entry.kind === KIND.remove) return t('stockCount.orphans.remove', { code });
    if (entry.kind === KIND.add) return t('stockCount.orphans.add', { code });
    // The quantity as a number of the user's language ("1,5" in German), as the lines show theirs.
    const quantity = editOf(entry)?.quantity;
    return t('stockCount.orphans.quantity', { code, quantity: typeof quantity === 'number' ? formatQuantity(quantity, i18n.language) : '' });
  };
  return (
    <section className="notice danger orphaned-changes" role="alert" aria-labelledby="orphaned-changes-title">
      <h2 id="orphaned-changes-title">{t('stockCount.orphans.title', { count: orphans.length })}</h2>
      <ul>
        {orphans.map((entry) => (
          <li key={entry.seq}>
            <span className="orphan-what">{what(entry)}</span>
            <span className="orphan-why">{t('sync.failedText', { message: entry.lastError ?? '' })}</span>
            <RetryOrDiscard entry={entry} actions={actions} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function sapErrorText(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { message?: string; code?: string };
    return [parsed.code, parsed.message].filter(Boolean).join(': ') || raw;
  } catch {
    return raw;
  }
}

/**
 * Whether a line of a split count (#18) may hold a counter's quantity: the server refuses to delete
 * such a line (409, "counted in a part: send it to recount first"), after the phone had taken it
 * off the list. The sheet does not say per line whether a part counted it: on a split count read
 * whole, the line's quantity is the merge (set once a part counted it, empty again on a variance),
 * and any count written to a line raises its version (on a counter's part, the part line's). So a
 * line is taken for counted unless nothing was ever written to it (version 0, no quantity): a line
 * sent back to recount is not offered for deletion either, though the server would allow it. A
 * line added on this phone and not yet on the server is the phone's own to take back.
 */
export function mayBeCountedInPart(line: Pick<MaterialCountRow, 'id' | 'quantity' | 'version'>, split: boolean): boolean {
  return split && !isProvisional(line.id) && (line.quantity !== null || line.version > 0);
}

/**
 * What the count sheet offers the user on this count: a count its status leaves open, and the user
 * one who may change it. A read-only super manager reads every count and changes only those its
 * other roles give it (decisions 0063, 0065: `writable_by_you`, absent from older servers and
 * copies: writable); on the others it counts, adds and submits nothing (the server refuses them,
 * and what was typed would wait in the outbox to be refused). `readOnlyForYou`: open, not theirs.
 */
export function countSheetRights({
  count,
  permissions,
  submitQueued,
  split,
  readsSplitWhole,
  allPartsDone,
}: {
  count: Pick<StockCountRow, 'status' | 'being_booked' | 'planned_by_you' | 'writable_by_you'>;
  permissions: readonly string[];
  /** A submit of this count waits in the outbox (not one the server refused: the lines open again to be put right, then Retry or Submit). */
  submitQueued: boolean;
  split: boolean;
  /** A split count read whole (its planner): quantities are written to the parts, decided on the merge screen. */
  readsSplitWhole: boolean;
  allPartsDone: boolean;
}) {
  const open = (EDITABLE_COUNT_STATUSES as readonly string[]).includes(count.status) && !submitQueued;
  const writes = count.writable_by_you !== false;
  const editable = open && writes;
  // A planner's rights are for the counts they plan: one who only counts this one (a supervisor
  // asked to count another team's) takes back only what a counter may (the server holds the same).
  const plans = count.planned_by_you !== false;
  // Submitted and not booked yet (decision 0053): the ERP gave no answer and the phone that
  // submitted did not send it again. Submitting again finishes it, under the same ERP reference.
  const booking = count.being_booked === true && !submitQueued;
  return {
    /** Open by its status (and no submit waiting): whether the status notice says "viewed, not changed". */
    open,
    plans,
    booking,
    readOnlyForYou: !writes && (open || booking),
    canEdit: editable && !readsSplitWhole && can(permissions, 'materialCount.editQuantity'),
    // Decision 0033: a moved book quantity on a split count is its planner's (a counter's part shows
    // the book it was taken with), and the count is not submitted until it is answered (409
    // submitBookMoved). Reading it whole, the planner keeps the counted (merged) quantity against
    // the book as it is now, through the same PUT /my_material_count as a single counter; the server
    // refuses any other quantity there (409 countSplitQuantityFromParts), so Keep difference is not
    // theirs to choose. Their counts only (the server asks that they oversee it).
    canKeepCounted: editable && readsSplitWhole && plans && can(permissions, 'materialCount.editQuantity'),
    canDelete: editable && plans && can(permissions, 'materialCount.delete'),
    canAdd: editable && can(permissions, 'materialCount.add'),
    // A counter of a split count marks their part done; the count is submitted once every part is
    // (by whichever counter, or by the planner on the merge screen): a submit earlier is refused.
    // A count left being booked was checked when it was submitted (its parts too) and is frozen
    // since: submitting it again only finishes the booking, under the same ERP reference, and the
    // server takes it from anyone who may submit the count, its planner reading it whole included
    // (the booking notice asks them to; without the button they could not).
    canSubmit:
      ((editable && !readsSplitWhole && (!split || allPartsDone)) || (booking && writes)) && can(permissions, 'stockCount.submit'),
  };
}

/**
 * What a line's buttons do on this screen: every change goes through the outbox (`run` reports a
 * change the device could not take). Keep counted and Keep difference are one edit of the line's
 * quantity carrying the book quantity it is now (decision 0054), the same for a single counter and
 * for the planner of a split count read whole.
 */
export function countLineActions(email: string, run: (work: Promise<unknown>) => Promise<unknown>): LineActions {
  return {
    onQuantity: (line, quantity, from) => run(setQuantity(email, line, quantity, undefined, from)),
    onAcceptBook: (line, quantity) => run(setQuantity(email, line, quantity, { bookQuantity: line.book_quantity_now })),
    onRemove: (line) => run(removeLine(email, line)),
    onRetry: (entry) => run(retryEntry(entry.seq!)),
    onDiscard: (entry) => run(discardEntry(entry)),
    onKeepMine: (entry) => run(keepMine(entry)),
    onTakeTheirs: (entry) => run(takeTheirs(entry)),
    onChooseBookAgain: (entry) => run(chooseBookAgain(entry)),
  };
}

/** The count's line under its title: status, type, where, when and by whom it was created (§9), the deadline. */
export function CountMeta({ count, open }: { count: StockCountRow; open: boolean }) {
  const { t } = useTranslation();
  return (
    <p className="count-meta">
      <span className={`status-chip status-${count.status}`}>{t(`stockCount.status.${count.status}`)}</span>
      <span>{t(`stockCount.type.${count.type}`, { defaultValue: count.type })}</span>
      <span>
        {count.plant} / {count.storage_location}
      </span>
      <span>{t('stockCount.createdBy', { date: formatCreated(count.created), who: count.created_by })}</span>
      {count.should_be_done_at && <span>{t('stockCount.deadline', { date: formatDeadline(count.should_be_done_at) })}</span>}
      {count.should_be_done_at && open && dayjs(count.should_be_done_at).isBefore(dayjs(), 'day') && (
        <span className="status-chip status-error">{t('stockCount.overdue')}</span>
      )}
    </p>
  );
}

export default function MechanicViewPage() {
  const { t } = useTranslation();
  const stockCountId = Number(useParams().id);
  const profile = useProfile();
  const online = useOnline();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const { history, remember } = useSearchHistory('materialCount');
  const [adding, setAdding] = useState(false);
  const [addTerm, setAddTerm] = useState('');
  /** The add dialog was opened by a scan in count mode: the added line is counted 1. */
  const [addCounts, setAddCounts] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // Book quantities on demand (#21): shown on wide screens, one tap away on phones.
  const [showBook, setShowBook] = useState(() => !window.matchMedia?.('(max-width: 991px)').matches);
  const { email, sheet, savedAt, isOfflineCopy, isLoading, error } = useCountSheet(stockCountId);
  const scope = sheetScope(stockCountId);
  const { entries, byTarget, submit, partStatus, refused } = useLineEntries(scope, email);

  const run = useCallback(
    (work: Promise<unknown>) => {
      work.catch(async (failure: unknown) => {
        if (failure instanceof StorageFullError) showError(t('offline.quotaFull'));
        // An HTTP refusal in the user's language (a coded one, a 5xx or 429: lib/api-client), any
        // other failure with its own message, as before.
        else showError(await errorMessage(failure));
      });
      return work;
    },
    [t],
  );
  const actions = useMemo(() => countLineActions(email, run), [email, run]);

  const lines = useMemo(() => {
    const all = sheet?.material_counts ?? [];
    const needle = query.trim().toLowerCase();
    if (!needle) return all;
    return all.filter(
      (line) => line.material_code.toLowerCase().includes(needle) || line.material_description_english.toLowerCase().includes(needle),
    );
  }, [sheet, query]);

  // A count closed for good meanwhile (booked or cancelled; by another counter or its planner): text
  // kept for its lines can no longer be counted, so it is not kept on the device for good (decision
  // 0071). A submitted count is not: the ERP may refuse it, and it is open again.
  const closed = sheet ? FINAL_COUNT_STATUSES.includes(sheet.stock_count.status) : false;
  useEffect(() => {
    if (!closed) return;
    forgetTyping(typingScope(email, stockCountId));
    forgetUnits(unitScope(email, stockCountId));
  }, [closed, email, stockCountId]);

  const listRef = useRef<HTMLDivElement>(null);
  const virtualizer = useWindowVirtualizer({
    count: lines.length,
    scrollMargin: listRef.current?.offsetTop ?? 0,
    estimateSize: () => 88,
    // The window's size from the first render (#22): without it the virtualizer draws no line until
    // its effect has measured the window, and the first render with the count is one without lines.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    overscan: 8,
    // The material names a line for good (one line per material in a count): a line added offline
    // keeps its row, its focus and what is being typed in it when the server gives it its id.
    getItemKey: (index) => lines[index]?.material_code ?? index,
  });

  if (!Number.isInteger(stockCountId) || stockCountId <= 0) {
    return <p className="form-error">{t('stockCount.notFound')}</p>;
  }
  // Nothing on the device yet and the first read still under way: loading, not "not found".
  if (isLoading || (!sheet && !error)) return <Spinner label={t('loading.listingItems')} />;
  if (!sheet) {
    return (
      <section className="page">
        <h1 className="page-title route-title">{t('routes.mechanicView')}</h1>
        <LoadError error={error} notFound={t('stockCount.notFound')} />
      </section>
    );
  }

  const count = sheet.stock_count;
  const counted = sheet.material_counts.filter((line) => line.quantity !== null).length;
  const total = sheet.material_counts.length;
  const bookMoved = sheet.material_counts.filter((line) => line.quantity !== null && bookQuantityMoved(line.book_quantity, line.book_quantity_now)).length;
  // #18, decision 0033: on a split count quantities are written to the parts. Whoever reads it whole
  // (its planner) decides and submits on the merge screen: here the lines are read-only, except that
  // the planner answers a moved book quantity (Keep counted), which the submit waits for.
  const split = (sheet.parts?.length ?? 0) > 0;
  const readsSplitWhole = split && !sheet.part;
  const allPartsDone = (sheet.parts ?? []).every((entry) => entry.status === 'done');
  const {
    open: editable,
    plans,
    booking,
    readOnlyForYou,
    canEdit,
    canKeepCounted,
    canDelete,
    canAdd,
    canSubmit,
  } = countSheetRights({ count, permissions: profile.permissions, submitQueued: submit !== undefined && submit.status !== 'failed', split, readsSplitWhole, allPartsDone });
  // On a split count the codes in other parts (or in none yet) are on the count too: not offered again.
  const present = new Set([...sheet.material_counts, ...(sheet.elsewhere ?? [])].map((line) => line.material_code));
  // #18: on a split count the sheet is the user's part; a blind count hides the book from its counters.
  const part = sheet.part;
  const blind = Boolean(count.is_blind) && (part !== undefined || count.conducted_by === email);
  const planner = plans && can(profile.permissions, 'stockCount.edit');
  const sapError = count.status === 'error' ? sapErrorText(count.latest_sap_error) : null;

  const setQuery = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('q', value);
    else next.delete('q');
    setParams(next, { replace: true });
  };
  const typing = typingScope(email, stockCountId);
  const focusField = (field: HTMLInputElement) => {
    field.scrollIntoView({ block: 'center' });
    field.focus();
  };
  /**
   * A line's quantity field into view and focused, once the list has drawn its row. A filter that
   * hides the line is cleared once (asked again every frame, each navigation interrupted the last
   * render). Each frame looks the line up in the list as it is then (the virtualizer is one object
   * whose options follow every render): the whole count once the filter is cleared, with lines a
   * sync added or removed meanwhile.
   */
  const revealField = (code: string) => {
    const fieldOf = () => document.querySelector<HTMLInputElement>(`.material-line[data-line="${CSS.escape(code)}"] input[data-quantity]`);
    if (query && !lines.some((line) => line.material_code === code)) setQuery('');
    let frames = 30;
    const attempt = () => {
      const field = fieldOf();
      if (field) focusField(field);
      else if (frames-- > 0) {
        const { count, getItemKey } = virtualizer.options;
        const index = Array.from({ length: count }, (_, at) => at).find((at) => getItemKey(at) === code);
        if (index !== undefined) virtualizer.scrollToIndex(index, { align: 'center' });
        requestAnimationFrame(attempt);
      }
    };
    attempt();
  };
  /** A scan's line into view: clears a filter that hides it; true once it is in the rendered list. */
  const reveal = (code: string) => {
    const index = lines.findIndex((line) => line.material_code === code);
    if (index < 0) {
      if (query) setQuery('');
      return false;
    }
    virtualizer.scrollToIndex(index, { align: 'center' });
    return true;
  };

  return (
    <section className="page count-page">
      {(isOfflineCopy || !online) && <OfflineBanner savedAt={savedAt} />}
      <header className="count-header">
        <div>
          <h1 className="page-title">{t('stockCount.title', { id: count.id })}</h1>
          <CountMeta count={count} open={editable} />
        </div>
        {blind ? (
          <span className="status-chip">{t('stockCount.parts.blind')}</span>
        ) : (
          <label className="toggle book-toggle">
            <input type="checkbox" checked={showBook} onChange={(event) => setShowBook(event.target.checked)} />
            {t('stockCount.showBook')}
          </label>
        )}
      </header>
      {part && (
        <MyPart
          part={part}
          parts={sheet.parts ?? []}
          allCounted={counted === total && total > 0}
          canEdit={canEdit}
          entry={partStatus}
          onStatus={(status) => run(setPartStatus(email, count.id, status))}
          onRetry={actions.onRetry}
          onDiscard={actions.onDiscard}
        />
      )}
      {!part && sheet.parts && sheet.parts.length > 0 && (
        <section className="panel" aria-labelledby="count-parts-title">
          <div className="parts-head">
            <h2 id="count-parts-title" className="section-title">
              {t('stockCount.parts.title')}
            </h2>
            {planner && (
              <Link className="button small" to={`/count-merge/${count.id}`}>
                {t('stockCount.parts.openMerge')}
              </Link>
            )}
          </div>
          <PartsProgress parts={sheet.parts} />
        </section>
      )}

      {sapError && (
        <p className="form-error" role="alert">
          {t('stockCount.sapError', { error: sapError })}
        </p>
      )}
      {/* The server no longer shows this count to the user (handed to someone else, cancelled out
          of their scope): the phone's copy stays readable, and what waits on it is kept to be seen. */}
      {error && isGone(error) && (
        <p className="notice danger" role="alert">
          {t('stockCount.goneFromYou')}
        </p>
      )}
      <OrphanedChanges entries={entries} lines={sheet.material_counts} actions={actions} />
      {submit && (
        <div className={`notice ${submit.status === 'failed' ? 'danger' : ''}`} role="status">
          {submit.status === 'failed' ? (
            <>
              <span>{t('stockCount.submitFailed', { message: submit.lastError ?? '' })}</span>
              <RetryOrDiscard entry={submit} actions={actions} />
            </>
          ) : submit.lastError ? (
            // Tried and kept: no answer, the server busy, or the ERP not answering (a 503 that keeps the count submitted).
            t('stockCount.submitRetrying', { message: submit.lastError === NO_CONNECTION ? t('sync.noConnection') : submit.lastError })
          ) : refused && submit.status === 'pending' ? (
            t('stockCount.submitAfterRefused')
          ) : (
            t('stockCount.submitQueued')
          )}
        </div>
      )}
      {booking && (
        <p className="notice" role="status">
          {t('stockCount.booking', { id: count.id })}
        </p>
      )}
      {!editable && !submit && !booking && <p className="notice">{t('stockCount.readOnly', { status: t(`stockCount.status.${count.status}`) })}</p>}
      {readOnlyForYou && <p className="notice">{t('stockCount.readOnlyForYou')}</p>}

      {/* Sticky under the top bar (#21): progress, search, the scan entry point and Submit stay in reach. */}
      <div className="count-toolbar">
        <div className="count-progress" aria-label={t('stockCount.progress', { counted, total })}>
          <div className="count-progress-text">{part ? t('stockCount.parts.myProgress', { counted, total }) : t('stockCount.progress', { counted, total })}</div>
          <div className="progress-bar" aria-hidden="true">
            <span style={{ width: `${total ? (counted / total) * 100 : 0}%` }} />
          </div>
        </div>
        <form
          className="search-form"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            remember(query);
          }}
        >
          <label className="visually-hidden" htmlFor="line-search">
            {t('stockCount.searchLabel')}
          </label>
          <input
            id="line-search"
            type="search"
            list="material-count-history"
            value={query}
            placeholder={t('stockCount.searchPlaceholder')}
            onChange={(event) => setQuery(event.target.value)}
            onBlur={() => remember(query)}
          />
          <datalist id="material-count-history">
            {history.map((item) => (
              <option key={item} value={item} />
            ))}
          </datalist>
          <Link className="button ghost icon-on-phone" to={`/material-count-search/${count.id}${query ? `?q=${encodeURIComponent(query)}` : ''}`} aria-label={t('stockCount.recentSearches')}>
            <Icon name="history" size={22} />
            <span className="button-label">{t('stockCount.recentSearches')}</span>
          </Link>
        </form>
        {/* Beside the search on a phone (an icon there), and before Scan in the page: the Tab order
            is the order on the screen. */}
        {canAdd && (
          <button type="button" className="button add-material icon-on-phone" onClick={() => setAdding(true)} aria-label={t('stockCount.addMaterial')}>
            <Icon name="add" size={24} />
            <span className="button-label">{t('stockCount.addMaterial')}</span>
          </button>
        )}
        {/* The filter's answer for screen readers: always in the page, only its text changes. */}
        <ResultsStatus count={query.trim() ? lines.length : undefined} empty={t('stockCount.noLinesFound')} />
        {/* Scanning (#17): the Scan button, the count-by-scanning switch and the last scan's outcome, in the
            sticky toolbar so Scan stays in reach however far down the list the mechanic is. */}
        <div className="count-scan-slot">
          <Optional>
            <CountScanner
              email={email}
              stockCountId={count.id}
              canEdit={canEdit}
              canAdd={canAdd}
              reveal={reveal}
              onAdd={(code, counting) => {
                setAddTerm(code);
                setAddCounts(counting);
                setAdding(true);
              }}
              onError={(failure) => run(Promise.reject(failure))}
            />
          </Optional>
        </div>
        {canSubmit && (
          <div className="count-actions">
            <button
              type="button"
              className="button primary"
              onClick={() => {
                // A quantity refused as typed (marked red) is not on the device: submitting would send
                // the count without it. The field is shown and focused instead, with why; also when
                // its row is not drawn (scrolled away, or typed before a reload: kept apart).
                const refused = document.querySelector<HTMLInputElement>('.material-line input[data-quantity][aria-invalid="true"]');
                const onCount = new Set(sheet.material_counts.map((line) => line.material_code));
                const kept = typedCodes(typing).find((code) => onCount.has(code));
                if (refused || kept) {
                  showError(t('stockCount.submitFixTyped'));
                  if (refused) focusField(refused);
                  else if (kept) revealField(kept);
                  return;
                }
                setSubmitting(true);
              }}
            >
              {t('stockCount.submit')}
            </button>
          </div>
        )}
      </div>

      {lines.length === 0 ? (
        <p className="muted">{query ? t('stockCount.noLinesFound') : t('stockCount.noLines')}</p>
      ) : (
        <div
          ref={listRef}
          className={`material-list${showBook ? '' : ' hide-book'}`}
          style={{ height: virtualizer.getTotalSize() }}
          aria-label={t('stockCount.linesLabel')}
          role="list"
        >
          {virtualizer.getVirtualItems().map((item) => {
            const line = lines[item.index] as MaterialCountRow;
            return (
              <div
                key={item.key}
                role="listitem"
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="material-list-item"
                style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
              >
                <MaterialLine
                  line={line}
                  entry={byTarget.get(`line:${line.id}`)}
                  canEdit={canEdit}
                  canKeepCounted={canKeepCounted && !blind}
                  canRemove={
                    !mayBeCountedInPart(line, split) &&
                    (canDelete || (canAdd && (isProvisional(line.id) || (line.version === 0 && line.quantity === null && line.updated_by === email))))
                  }
                  actions={actions}
                  blind={blind}
                  timed={item.index === 0}
                  typing={typing}
                />
              </div>
            );
          })}
        </div>
      )}

      <AddMaterialDialog
        open={adding}
        email={email}
        present={present}
        initialTerm={addTerm}
        onClose={() => {
          setAdding(false);
          setAddTerm('');
          setAddCounts(false);
        }}
        // Opened by a scan in count mode: the scanned piece is counted on the new line, as a scan of
        // a line already on the count would have been (+1 through the outbox, behind the add).
        onAdd={(material: NewMaterial) =>
          run(
            addLine(email, count.id, material).then(async (entry) => {
              if (!addCounts || !entry.undo) return;
              // Loaded with the scanner it belongs to (a chunk of its own), not with the page.
              const { countScan } = await import('../hooks/use-scan-to-count');
              await countScan(email, entry.undo as MaterialCountRow);
            }),
          )
        }
      />
      <SubmitDialog
        open={submitting}
        stockCountId={count.id}
        counted={counted}
        total={total}
        // A count being booked was checked for moved book quantities when it was submitted, and the
        // server does not check again: a book moved since (stock goes on moving while the ERP does
        // not answer) must not block finishing it, with no way to answer it (its lines are frozen).
        bookMoved={booking ? 0 : bookMoved}
        online={online}
        onClose={() => setSubmitting(false)}
        onConfirm={() => {
          setSubmitting(false);
          run(submitCount(email, count.id));
        }}
      />
    </section>
  );
}
