/**
 * /count-merge/{id} (#18, decision 0033): a planner's view of a count split among counters —
 * progress per counter, every line counted by two counters with each one's quantity, each
 * variance resolved by taking one counter's quantity or sending the line to recount (never a
 * silent overwrite), and the submit, which lists open parts for the planner to confirm.
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MergeLineRow, ResolveLineBody, StockCountPartRow } from '../../../contract/stock-count-parts';
import type { StockCountRow } from '../../../contract/stock';
import { EDITABLE_COUNT_STATUSES } from '../../../domain/constants';
import { formatQuantity } from '../../../domain/quantity';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/date-formats';
import { useOnline } from '../../../lib/use-online';
import { showError } from '../../../lib/error-alert';
import { Dialog } from '../../../components/ui/dialog';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { useToastNotice } from '../../../components/ui/toast';
import {
  countPartQueries,
  recountLineBody,
  resolveMergeLine,
  submitAsPlanner,
  takeLineBody,
  useMerge,
  usePartsProgress,
  useStockCountRow,
} from '../api/count-parts';
import { stockCountQueries } from '../api/get-stock-counts';
import { PartsProgress } from '../components/count-parts';
import { SplitCountDialog } from '../components/split-count-dialog';
import { SubmitDialog } from '../components/submit-dialog';
import { LoadError } from '../../../components/ui/load-error';
import '../stock-count.css';

const lineWhatId = (materialCountId: number) => `merge-line-what-${materialCountId}`;

/**
 * "Take <name>'s" goes with its press (the line is decided): the focus goes to the line's code and
 * description, which stay, so the planner continues from the line, not from the top of the page.
 */
export function focusMergeLine(materialCountId: number, root: Pick<Document, 'getElementById'> = document) {
  root.getElementById(lineWhatId(materialCountId))?.focus();
}

/** One line counted twice: each counter's quantity, Take <name>'s and Send to recount. */
export function MergeLine({
  line,
  parts,
  editable,
  busy,
  onTake,
  onRecount,
}: {
  line: MergeLineRow;
  parts: StockCountPartRow[];
  editable: boolean;
  busy: boolean;
  onTake: (line: MergeLineRow, partId: number) => void;
  onRecount: (line: MergeLineRow) => void;
}) {
  const { t, i18n } = useTranslation();
  const quantity = (value: number) => formatQuantity(value, i18n.language);
  const name = (partId: number, counter: string) => {
    const part = parts.find((row) => row.id === partId);
    return part?.counter_name ?? counter;
  };
  const decidable = editable && (line.state === 'variance' || line.state === 'resolved');
  // The buttons name their line to a screen reader: "Take Mikko's", described by "KM123 Door roller".
  const whatId = lineWhatId(line.material_count_id);
  return (
    <li className={`merge-line merge-${line.state}`} data-merge-line={line.material_code}>
      <div className="merge-line-head">
        <span className="merge-line-what" id={whatId} tabIndex={-1}>
          <span className="material-code">{line.material_code}</span>
          <span className="material-description">{line.material_description_english}</span>
        </span>
        <span className={`status-chip merge-state-${line.state}`}>{t(`stockCount.merge.state.${line.state}`)}</span>
      </div>
      <ul className="merge-counts">
        {line.counts.map((count) => (
          <li key={count.part_id} className={line.resolved_part_id === count.part_id ? 'taken' : undefined}>
            <span className="merge-who">{name(count.part_id, count.counter)}</span>
            <strong className="merge-quantity">{count.quantity === null ? t('stockCount.merge.notCounted') : `${quantity(count.quantity)} ${line.unit}`}</strong>
            {decidable && count.quantity !== null && line.resolved_part_id !== count.part_id && (
              <button type="button" className="button small" disabled={busy} aria-describedby={whatId} onClick={() => onTake(line, count.part_id)}>
                {t('stockCount.merge.take', { who: name(count.part_id, count.counter) })}
              </button>
            )}
          </li>
        ))}
      </ul>
      <div className="merge-line-foot">
        <span className="muted small">
          {line.book_quantity !== null && t('stockCount.book', { quantity: quantity(line.book_quantity), unit: line.unit })}
          {line.state === 'resolved' && line.resolved_by && line.resolved_at && (
            <> · {t('stockCount.merge.resolvedBy', { who: line.resolved_by_name ?? line.resolved_by, time: formatDateTime(line.resolved_at) })}</>
          )}
        </span>
        {editable && line.state !== 'open' && (
          <button type="button" className="button small ghost" disabled={busy} aria-describedby={whatId} onClick={() => onRecount(line)}>
            {t('stockCount.merge.recount')}
          </button>
        )}
      </div>
    </li>
  );
}

/** Send to recount clears every counter's quantity of the line: the planner confirms it first, knowing which line. */
export function RecountDialog({ line, busy, onConfirm, onClose }: { line: MergeLineRow | null; busy: boolean; onConfirm: (line: MergeLineRow) => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={line !== null} title={t('stockCount.merge.recountTitle', { code: line?.material_code ?? '' })} onClose={onClose}>
      {line && (
        <>
          <p>{t('stockCount.merge.recountText', { code: line.material_code, description: line.material_description_english })}</p>
          <div className="dialog-actions">
            <button type="button" className="button ghost" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="button" className="button primary" disabled={busy} onClick={() => onConfirm(line)}>
              {t('stockCount.merge.recount')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

/**
 * What the merge screen offers on this count. `editable`: open by its status, online, and the
 * caller's to plan (planned_by_you) and to change (writable_by_you), so lines are decided, the
 * split edited and the count submitted: a read-only super manager, or a supervisor who only counts
 * it, was offered buttons the server refuses. `canSubmit`: also on a count left being booked
 * (decision 0053: submitted, the ERP gave no answer, e.g. a 503 to this screen's own Submit): its
 * lines are frozen, so nothing else is offered, and submitting again is how it is finished, under
 * the same ERP reference (the server skips the split's checks then). Without it the screen said
 * "send it again" and, read again, hid the only button that could. Absent flags (older servers,
 * copies) are read as yes, as everywhere.
 */
export function mergeRights(row: Pick<StockCountRow, 'status' | 'being_booked' | 'writable_by_you' | 'planned_by_you'>, online: boolean) {
  const plans = row.planned_by_you !== false && row.writable_by_you !== false;
  const editable = (EDITABLE_COUNT_STATUSES as readonly string[]).includes(row.status) && online && plans;
  // As on the count screen (countSheetRights): one who may only read the count finishes no booking.
  const booking = row.being_booked === true && row.writable_by_you !== false;
  return { editable, booking, canSubmit: editable || (booking && online) };
}

/**
 * The merge screen's Submit asks first, as the count screen does: what is booked in the ERP can no
 * longer be changed (§4). One tap booked the count. The dialog is the count screen's (SubmitDialog),
 * with the count's progress: lines without a quantity (not counted, or counters disagreeing) hold
 * the confirmation, as the server would refuse it.
 */
export function MergeSubmit({
  row,
  online,
  busy,
  confirming,
  onAsk,
  onConfirm,
  onClose,
}: {
  row: Pick<StockCountRow, 'id' | 'counted_lines' | 'total_lines'>;
  online: boolean;
  busy: boolean;
  confirming: boolean;
  onAsk: () => void;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <button type="button" className="button primary" disabled={busy} onClick={onAsk}>
        {t('stockCount.submit')}
      </button>
      {/* The merge screen reads no line's book quantity: a moved one is the server's refusal (submitBookMoved). */}
      <SubmitDialog open={confirming} stockCountId={row.id} counted={row.counted_lines} total={row.total_lines} bookMoved={0} online={online} onConfirm={onConfirm} onClose={onClose} />
    </>
  );
}

export default function CountMergePage() {
  const { t } = useTranslation();
  const stockCountId = Number(useParams().id);
  const valid = Number.isInteger(stockCountId) && stockCountId > 0;
  const online = useOnline();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const setNotice = useToastNotice();
  const count = useStockCountRow(stockCountId);
  const progress = usePartsProgress(stockCountId, valid);
  const merge = useMerge(stockCountId, valid);
  const [splitting, setSplitting] = useState(false);
  const [openParts, setOpenParts] = useState<StockCountPartRow[] | null>(null);
  /** The open parts changed between the planner's look and their confirmation: the dialog says so. */
  const [openPartsChanged, setOpenPartsChanged] = useState(false);
  const [recounting, setRecounting] = useState<MergeLineRow | null>(null);
  const [submitMessage, setSubmitMessage] = useState<string | null>(null);
  const [confirmingSubmit, setConfirmingSubmit] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: countPartQueries.all() });
  const resolve = useMutation({
    meta: { silent: true },
    mutationFn: (body: ResolveLineBody) => resolveMergeLine(body),
    onSuccess: (line, body) => {
      setRecounting(null);
      // The refusal of an earlier submit named what was to be decided: once decided, it is out of date.
      setSubmitMessage(null);
      setNotice(body.action === 'recount' ? t('stockCount.merge.sentToRecount', { code: line.material_code }) : t('stockCount.merge.taken', { code: line.material_code }));
      // The pressed "Take <name>'s" leaves with the decision: the focus goes to its line.
      if (body.action === 'take') focusMergeLine(body.materialCountId);
      void refresh();
    },
    onError: async (failure) => {
      setRecounting(null);
      // A counter's quantity changed since the screen was read (mergeChangedMeanwhile): the
      // message says so, and the line is read again as it is now.
      showError(await errorMessage(failure));
      void refresh();
    },
  });
  const submit = useMutation({
    meta: { silent: true },
    // A confirmation names the open parts the planner was shown.
    mutationFn: (confirmedOpenParts?: readonly number[]) => submitAsPlanner(stockCountId, confirmedOpenParts),
    onMutate: () => setSubmitMessage(null),
    onSuccess: (result) => {
      setOpenParts(null);
      setOpenPartsChanged(result.outcome === 'open-parts' && result.changed);
      if (result.outcome === 'submitted') {
        setNotice(t('stockCount.merge.submitted', { id: stockCountId }));
        void queryClient.invalidateQueries({ queryKey: stockCountQueries.all() });
        navigate('/stock-count');
      } else if (result.outcome === 'open-parts') {
        setOpenParts(result.openParts);
        if (result.changed) void refresh();
      } else {
        setSubmitMessage(result.message);
        void refresh();
      }
    },
    onError: async (failure) => setSubmitMessage(await errorMessage(failure)),
  });

  if (!valid) return <p className="form-error">{t('stockCount.notFound')}</p>;
  if (count.isPending || progress.isPending) return <Spinner label={t('loading.listingItems')} />;
  const row = count.data;
  if (!row || !progress.data) {
    return (
      <section className="page">
        <h1 className="page-title route-title">{t('routes.countMerge')}</h1>
        <LoadError error={progress.error} notFound={t('stockCount.notFound')} />
      </section>
    );
  }
  const parts = progress.data.parts;
  const { editable, booking, canSubmit } = mergeRights(row, online);
  const variances = merge.data?.lines.filter((line) => line.state === 'variance').length ?? progress.data.variance_lines;
  const busy = resolve.isPending || submit.isPending;

  return (
    <section className="page merge-page">
      {!online && <OfflineBanner savedAt={undefined} />}
      <header className="count-header">
        <div>
          <h1 className="page-title">{t('stockCount.merge.title', { id: row.id })}</h1>
          <p className="count-meta">
            <span className={`status-chip status-${row.status}`}>{t(`stockCount.status.${row.status}`)}</span>
            <span>
              {row.plant} / {row.storage_location}
            </span>
            {progress.data.is_blind && <span className="status-chip">{t('stockCount.parts.blind')}</span>}
            <Link to={`/mechanic-view/${row.id}`}>{t('stockCount.merge.allLines')}</Link>
          </p>
        </div>
        {canSubmit && (
          <div className="merge-actions">
            {editable && (
              <button type="button" className="button" onClick={() => setSplitting(true)}>
                {parts.length ? t('stockCount.split.edit') : t('stockCount.split.open')}
              </button>
            )}
            <MergeSubmit
              row={row}
              online={online}
              busy={busy}
              confirming={confirmingSubmit}
              onAsk={() => {
                setConfirmingSubmit(true);
                // The dialog's progress as it is now: counters may have counted since the screen was read.
                void refresh();
              }}
              onConfirm={() => {
                setConfirmingSubmit(false);
                submit.mutate(undefined);
              }}
              onClose={() => setConfirmingSubmit(false)}
            />
          </div>
        )}
      </header>

      {/* Why Submit is offered on a submitted count (the count screen says the same). */}
      {booking && !editable && (
        <p className="notice" role="status">
          {t('stockCount.booking', { id: row.id })}
        </p>
      )}
      {submitMessage && (
        <p className="form-error" role="alert">
          {submitMessage}
        </p>
      )}
      <section className="panel" aria-labelledby="merge-counters">
        <h2 id="merge-counters" className="section-title">
          {t('stockCount.parts.title')}
        </h2>
        {parts.length === 0 ? <p className="muted">{t('stockCount.merge.notSplit')}</p> : <PartsProgress parts={parts} />}
        {progress.data.lines_in_no_part > 0 && (
          <p className="notice" role="status">
            {t('stockCount.merge.linesInNoPart', { count: progress.data.lines_in_no_part })}
          </p>
        )}
      </section>

      <section className="panel" aria-labelledby="merge-lines">
        <h2 id="merge-lines" className="section-title">
          {t('stockCount.merge.linesTitle')}
        </h2>
        <p className={variances ? 'notice danger' : 'muted small'} role="status">
          {variances ? t('stockCount.merge.variances', { count: variances }) : t('stockCount.merge.noVariances')}
        </p>
        {merge.isPending && <Spinner label={t('loading.listingItems')} />}
        {merge.error && (
          <LoadError error={merge.error} />
        )}
        {merge.data && merge.data.lines.length === 0 && <p className="muted">{t('stockCount.merge.noTwice')}</p>}
        {merge.data && merge.data.lines.length > 0 && (
          <ul className="merge-lines">
            {merge.data.lines.map((line) => (
              <MergeLine
                key={line.material_count_id}
                line={line}
                parts={parts}
                editable={editable}
                busy={busy}
                onTake={(taken, partId) => resolve.mutate(takeLineBody(stockCountId, taken, partId))}
                onRecount={setRecounting}
              />
            ))}
          </ul>
        )}
      </section>

      {splitting && (
        <SplitCountDialog
          count={row}
          existing={parts}
          onClose={() => setSplitting(false)}
          onSaved={() => {
            setSplitting(false);
            setNotice(t('stockCount.split.saved', { id: row.id }));
            void refresh();
            // The planner's list shows a count's split (its part count, its status once split):
            // read again, not the one from before the split.
            void queryClient.invalidateQueries({ queryKey: stockCountQueries.all() });
          }}
        />
      )}
      <RecountDialog line={recounting} busy={busy} onConfirm={(sent) => resolve.mutate(recountLineBody(stockCountId, sent))} onClose={() => setRecounting(null)} />
      <Dialog open={openParts !== null} title={t('stockCount.merge.openPartsTitle')} onClose={() => setOpenParts(null)}>
        {openPartsChanged && (
          <p className="notice" role="alert">
            {t('stockCount.merge.openPartsChanged')}
          </p>
        )}
        <p>{t('stockCount.merge.openPartsText')}</p>
        <PartsProgress parts={openParts ?? []} />
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={() => setOpenParts(null)}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button primary" disabled={busy} onClick={() => submit.mutate((openParts ?? []).map((part) => part.id))}>
            {t('stockCount.merge.submitAnyway')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
