/** Request a stock transfer of a material to another storage location of its plant (§3). */
import { useUnsavedText } from '../../../lib/unsaved-text';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { StockItemRow, TransferRequestRow } from '../../../contract/stock';
import { formatQuantity } from '../../../domain/quantity';
import { errorMessage } from '../../../lib/api-client';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { requestStockTransfer, SENT_NOW, storageLocationsQuery, transferKeys } from '../api/stock-transfer';
import { MAX_TRANSFER_QUANTITY, parseTransferQuantity, type TransferQuantityProblem } from './transfer-quantity';

/** Why a typed quantity is refused, in words: the example shows a thousand and a half as the field takes it. */
export function transferQuantityError(problem: TransferQuantityProblem, t: TFunction, language: string): string {
  switch (problem) {
    case 'decimals':
      return t('stock.transferQuantityDecimals');
    case 'grouped':
      return t('stock.transferQuantityGrouped', { example: formatQuantity(1500.5, language, { inField: true }) });
    case 'tooLarge':
      return t('feedback.errors.quantityTooLarge', { max: MAX_TRANSFER_QUANTITY });
    default:
      return t('stock.transferQuantityInvalid');
  }
}

/**
 * The unrestricted stock a transfer takes from, when the caller sees it: null for a line they
 * count blind (decision 0064: its counts are hidden) or whose count is missing.
 */
export function unrestrictedAtFrom(item: StockItemRow): number | null {
  return item.blind_count_id === undefined ? item.unrestricted_count : null;
}

/** Whether a typed quantity asks for more than the unrestricted stock at `from`: said, not refused (the ERP decides). */
export function exceedsUnrestricted(quantity: string, language: string, item: StockItemRow): boolean {
  const amount = parseTransferQuantity(quantity, language);
  const stock = unrestrictedAtFrom(item);
  return amount.ok && stock !== null && amount.value > stock;
}

export function TransferDialog({ item, onClose, onDone }: { item: StockItemRow; onClose: () => void; onDone: (row: TransferRequestRow) => void }) {
  const { t, i18n } = useTranslation();
  const online = useOnline();
  const [keyOf] = useState(transferKeys);
  const [to, setTo] = useState('');
  const [quantity, setQuantity] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [invalidField, setInvalidField] = useState<'to' | 'quantity' | null>(null);
  const unsaved = to !== '' || quantity.trim() !== '';
  const release = useUnsavedText(unsaved);
  // Offline it fails at once (SENT_NOW): LoadError says there is no connection.
  const locations = useQuery(storageLocationsQuery(item.plant));
  const send = useMutation({
    meta: { silent: true },
    // Never paused (SENT_NOW): a paused request was sent later, unseen, after Cancel. Offline Send
    // is off; a connection lost meanwhile fails here, in the app's words ("No connection.").
    ...SENT_NOW,
    mutationFn: (amount: number) => {
      const request = { plant: item.plant, storageLocationFrom: item.storage_location, storageLocationTo: to, materialCode: item.material_code, quantity: amount };
      return requestStockTransfer(request, keyOf(request));
    },
    onSuccess: (row) => {
      release();
      onDone(row);
    },
    onError: async (failure) => setError(await errorMessage(failure)),
  });
  // The places it may go: the plant's other storage locations (undefined until they are read).
  const destinations = locations.data?.storage_locations.filter((l) => l.code !== item.storage_location);
  // A plant with no other storage location: said, and Send off (it ended in "All fields are mandatory!").
  const nowhere = destinations !== undefined && destinations.length === 0;
  const exceeds = exceedsUnrestricted(quantity, i18n.language, item);
  const stock = unrestrictedAtFrom(item);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!online || nowhere) return;
    const amount = parseTransferQuantity(quantity, i18n.language);
    // #19 item 16: the refused field is marked and focused, not only named in the message.
    const refuse = (field: 'to' | 'quantity', message: string) => {
      setError(message);
      setInvalidField(field);
      focusFirstInvalid(event.currentTarget as HTMLFormElement);
    };
    if (!to) return refuse('to', t('stockCount.allFieldsMandatory'));
    if (!amount.ok) return refuse('quantity', transferQuantityError(amount.problem, t, i18n.language));
    setInvalidField(null);
    send.mutate(amount.value);
  };
  const describedBy = (...ids: Array<string | false>) => ids.filter(Boolean).join(' ') || undefined;
  return (
    <Dialog open title={t('stock.transferTitle', { code: item.material_code })} onClose={onClose} unsaved={unsaved}>
      <form className="form-grid" onSubmit={submit}>
        <p className="muted">{t('stock.transferFrom', { plant: item.plant, location: item.storage_location, total: item.total_quantity === null ? '–' : formatQuantity(item.total_quantity, i18n.language), unit: item.unit })}</p>
        <label htmlFor="tr-to">{t('stock.transferTo')}</label>
        <select
          id="tr-to"
          value={to}
          disabled={nowhere}
          aria-invalid={invalidField === 'to' || undefined}
          aria-describedby={describedBy(invalidField === 'to' && 'tr-error', nowhere && 'tr-nowhere')}
          onChange={(event) => setTo(event.target.value)}
        >
          <option value="">{t('stockCount.choose')}</option>
          {destinations?.map((l) => (
            <option key={l.code} value={l.code}>
              {l.code} · {l.name}
            </option>
          ))}
        </select>
        {locations.isPending && <Spinner label={t('stock.transferLocationsLoading')} />}
        {nowhere && (
          <p id="tr-nowhere" className="notice">
            {t('stock.transferNoOtherLocation', { plant: item.plant })}
          </p>
        )}
        {/* Where the list of storage locations could not come (no connection, a plant not the
            caller's), say why: an empty list read as "choose", and Send as "all fields mandatory". */}
        {locations.error && <LoadError error={locations.error} />}
        <label htmlFor="tr-qty">{t('stock.transferQuantity', { unit: item.unit })}</label>
        <input
          id="tr-qty"
          type="text"
          inputMode="decimal"
          value={quantity}
          aria-invalid={invalidField === 'quantity' || undefined}
          aria-describedby={describedBy(invalidField === 'quantity' && 'tr-error', exceeds && 'tr-qty-warning')}
          onChange={(event) => setQuantity(event.target.value)}
        />
        {/* A warning, not a refusal: the stock may have moved since the list was read, and the
            decider (who sees the stock too) declines what cannot be moved. Never for a line
            counted blind: its stock is hidden (unrestrictedAtFrom). Present from the start and
            empty until then: a live region is read when its text comes. */}
        <p id="tr-qty-warning" role="status" className={exceeds ? 'notice' : 'visually-hidden'}>
          {exceeds && stock !== null && t('stock.transferMoreThanStock', { location: item.storage_location, stock: formatQuantity(stock, i18n.language), unit: item.unit })}
        </p>
        {!online && (
          <p id="tr-offline" className="muted">
            {t('stock.transferNeedsConnection')}
          </p>
        )}
        <FormActions error={error} errorId="tr-error" onCancel={onClose}>
          <button
            type="submit"
            className="button primary"
            disabled={send.isPending || !online || nowhere}
            aria-describedby={describedBy(!online && 'tr-offline', nowhere && 'tr-nowhere')}
          >
            {t('stock.transferSend')}
          </button>
        </FormActions>
      </form>
    </Dialog>
  );
}
