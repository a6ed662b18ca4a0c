/**
 * The stock transfer requests a caller sees (decision 0061): their own, and, for those who read a
 * plant's storage locations, the plant's. Who may update the plant's storage locations marks a
 * waiting request done or declined, once; the requester is told by a notification that opens here.
 */
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { TRANSFER_LIST_MAX, type TransferRequestRow } from '../../../contract/stock';
import { can } from '../../../domain/permissions';
import type { TransferDecision } from '../../../domain/stock';
import { formatQuantity } from '../../../domain/quantity';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/date-formats';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { LoadError } from '../../../components/ui/load-error';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { contentKeys, decideTransfer, SENT_NOW, TRANSFER_REQUESTS_KEY, useTransferRequests } from '../api/stock-transfer';
import { mayDecideTransfer } from './transfer-requests-view';

const STATUS_LABEL: Record<string, string> = {
  requested: 'stock.transferStatus.requested',
  done: 'stock.transferStatus.done',
  declined: 'stock.transferStatus.declined',
};

/** A waiting request's two decisions: done is the expected one (primary), declined beside it. */
const DECISIONS: Array<{ status: TransferDecision; className: string; label: string }> = [
  { status: 'done', className: 'primary', label: 'stock.transferMarkDone' },
  { status: 'declined', className: 'ghost', label: 'stock.transferDecline' },
];

/** A transfer as texts name it: "1,5 × KM100" in German (the quantity in the reader's language). */
export function transferWords(row: Pick<TransferRequestRow, 'quantity' | 'material_code'>, language: string) {
  return { quantity: formatQuantity(row.quantity, language), code: row.material_code };
}

/**
 * A decision button's name: its visible word first (WCAG 2.5.3: "click Mark done" works by voice),
 * then which request: quantity, material, plant and from → to (two requests of one material differ there).
 */
export function decisionName(t: TFunction, action: string, row: TransferRequestRow, language: string): string {
  return t('stock.transferDecisionFor', { action, ...transferWords(row, language), plant: row.plant, from: row.storage_location_from, to: row.storage_location_to });
}

/**
 * The unrestricted stock at the request's `from` now, in words, when the server gave it (decision
 * 0061: who decides weighs the request against it); null without it (hidden from the caller, or
 * an older server). A waiting request for more than that says so.
 */
export function fromStockText(t: TFunction, row: TransferRequestRow, language: string): { text: string; short: boolean } | null {
  const stock = row.from_unrestricted_count;
  if (stock === undefined) return null;
  const amount = stock === null ? '–' : [formatQuantity(stock, language), row.unit].filter(Boolean).join(' ');
  const short = row.status === 'requested' && stock !== null && row.quantity > stock;
  return { text: t(short ? 'stock.transferStockAtFromShort' : 'stock.transferStockAtFrom', { location: row.storage_location_from, stock: amount }), short };
}

/** One request: what moves where, its state and who decided it; the decisions, when the caller may decide. */
export function TransferRequestItem({
  row,
  mine,
  decide,
}: {
  row: TransferRequestRow;
  /** The caller requested it: "Requested at …" rather than "Requested by … at …". */
  mine: boolean;
  /** Absent when the caller may not decide this request. */
  decide?: { disabled: boolean; onDecide: (status: TransferDecision) => void };
}) {
  const { t, i18n } = useTranslation();
  const words = transferWords(row, i18n.language);
  const fromStock = fromStockText(t, row, i18n.language);
  return (
    <li className="transfer-request">
      <div className="transfer-request-line">
        <span className="dense-row-main">
          <span className="material-code">{row.material_code}</span>
          {row.material_description && <span className="dense-row-sub">{row.material_description}</span>}
          <span className="transfer-request-where">
            {t('stock.transferRoute', { plant: row.plant, from: row.storage_location_from, to: row.storage_location_to })}
          </span>
          {fromStock && <span className={fromStock.short ? 'transfer-request-stock short' : 'transfer-request-stock'}>{fromStock.text}</span>}
        </span>
        <span className="dense-row-side">
          <strong>
            {words.quantity} {row.unit && <span className="unit">{row.unit}</span>}
          </strong>
          <span className={`chip transfer-${row.status}`}>{t(STATUS_LABEL[row.status] ?? 'stock.transferStatus.requested')}</span>
        </span>
      </div>
      <p className="transfer-request-when">
        {mine
          ? t('stock.transferRequestedAt', { when: formatDateTime(row.created) })
          : t('stock.transferRequestedBy', { email: row.requested_by, when: formatDateTime(row.created) })}
        {row.decided_at && (
          <>
            <br />
            {t(row.status === 'done' ? 'stock.transferDoneBy' : 'stock.transferDeclinedBy', {
              email: row.decided_by ?? t('stock.transferSomeone'),
              when: formatDateTime(row.decided_at),
            })}
          </>
        )}
      </p>
      {decide && (
        <div className="transfer-request-actions">
          {DECISIONS.map(({ status, className, label }) => (
            <button
              key={status}
              type="button"
              className={`button small ${className}`}
              disabled={decide.disabled}
              aria-label={decisionName(t, t(label), row, i18n.language)}
              onClick={() => decide.onDecide(status)}
            >
              {t(label)}
            </button>
          ))}
        </div>
      )}
    </li>
  );
}

export function TransferRequestsDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { email, permissions, plants } = useProfile();
  const online = useOnline();
  const client = useQueryClient();
  // The outcome is set a moment after it is cleared (announced again); not after the sheet has gone.
  const announce = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(announce.current), []);
  const [error, setError] = useState<string | null>(null);
  // One Idempotency-Key per request and decision, for the dialog's life: pressed again after a
  // lost answer, the same decision is applied once.
  const [keyOf] = useState(contentKeys<{ id: string; status: TransferDecision }>);
  // Mirrored: offline the last copy shows, with when it was saved; with none saved, LoadError says
  // so. Silent: LoadError shows a failure in the dialog; the global alert would say it a second time.
  const list = useTransferRequests(email);
  // The outcome, inside the dialog: the app's toast sits behind a modal dialog (inert there).
  const [outcome, setOutcome] = useState<string | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  // The pressed button has gone with its row (now decided), or may go (decided by someone else):
  // the focus goes to what happened, in the strip at the foot of the sheet, near the thumb. Without
  // scrolling: focus() scrolled a long sheet to its top, away from the rows being decided.
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus({ preventScroll: true });
  }, [outcome]);
  useEffect(() => {
    if (error) errorRef.current?.focus({ preventScroll: true });
  }, [error]);
  const decide = useMutation({
    meta: { silent: true },
    // Never paused (SENT_NOW): a paused decision was sent later, unseen, after the sheet was closed.
    // Offline the buttons are off; a connection lost meanwhile fails here, said in the sheet.
    ...SENT_NOW,
    mutationFn: ({ row, status }: { row: TransferRequestRow; status: TransferDecision }) => decideTransfer(row.id, status, keyOf({ id: row.id, status })),
    // The same refusal twice is said (and focused) twice.
    onMutate: () => setError(null),
    onSuccess: (row) => {
      setError(null);
      const words = transferWords(row, i18n.language);
      const said = row.status === 'done' ? t('stock.transferMarkedDone', words) : t('stock.transferMarkedDeclined', words);
      // A second decision of the same words is announced again.
      setOutcome(null);
      // Only here, by the thumb: a toast of the same words showed beside the open dialog too.
      window.clearTimeout(announce.current);
      announce.current = window.setTimeout(() => setOutcome(said), 0);
    },
    // Already decided by someone else (409) or gone: the message says so, and the list shows what
    // holds now. The success of an earlier decision no longer stands beside it.
    onError: async (failure) => {
      setOutcome(null);
      setError(await errorMessage(failure));
    },
    onSettled: () => client.invalidateQueries({ queryKey: TRANSFER_REQUESTS_KEY }),
  });
  const mayDecide = (row: TransferRequestRow) => mayDecideTransfer(row, permissions, plants);
  const rows = list.data?.items ?? [];
  const waiting = rows.filter((row) => row.status === 'requested');
  const decided = rows.filter((row) => row.status !== 'requested');
  const mine = (row: TransferRequestRow) => !row.requested_by || row.requested_by.toLowerCase() === email.toLowerCase();
  const number = (value: number) => formatQuantity(value, i18n.language);

  const renderRow = (row: TransferRequestRow) => (
    <TransferRequestItem
      key={row.id}
      row={row}
      mine={mine(row)}
      decide={mayDecide(row) ? { disabled: !online || decide.isPending, onDecide: (status) => decide.mutate({ row, status }) } : undefined}
    />
  );

  return (
    <Dialog open title={t('stock.transferRequestsTitle')} onClose={onClose}>
      <div className="transfer-requests">
        {(list.isOfflineCopy || !online) && <OfflineBanner savedAt={list.savedAt} />}
        {!online && rows.some(mayDecide) && <p className="muted">{t('stock.transferDecideOnline')}</p>}
        {list.isPending && <Spinner label={t('stock.transferRequestsLoading')} />}
        {list.error && <LoadError error={list.error} />}
        {list.data && rows.length === 0 && (
          // How to ask for one only to who may (stockTransfer.request).
          <p className="muted">{t(can(permissions, 'stockTransfer.request') ? 'stock.transferRequestsEmpty' : 'stock.transferRequestsNone')}</p>
        )}
        {waiting.length > 0 && (
          <>
            <h3 className="transfer-requests-heading">{t('stock.transferWaiting', { n: number(waiting.length) })}</h3>
            <ul className="dense-list">{waiting.map(renderRow)}</ul>
          </>
        )}
        {decided.length > 0 && (
          <>
            <h3 className="transfer-requests-heading">{t('stock.transferDecided', { n: number(decided.length) })}</h3>
            <ul className="dense-list">{decided.map(renderRow)}</ul>
          </>
        )}
        {list.data?.has_more === true && <p className="muted">{t('stock.transferRequestsNewest', { max: number(TRANSFER_LIST_MAX) })}</p>}
        {/* Sticky at the foot of the sheet: a decision's outcome or refusal shows where the thumb
            is, not at the top or under up to 100 rows. */}
        <div className="transfer-requests-foot">
          <p role="status" tabIndex={-1} ref={outcomeRef} className={outcome ? 'notice success' : 'visually-hidden'}>
            {outcome}
          </p>
          {error && (
            <p role="alert" tabIndex={-1} ref={errorRef} className="form-error">
              {error}
            </p>
          )}
          <FormActions error={null} onCancel={onClose} cancelLabel={t('common.close')} />
        </div>
      </div>
    </Dialog>
  );
}
