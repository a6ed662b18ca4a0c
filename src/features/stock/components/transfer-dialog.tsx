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
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { LoadError } from '../../../components/ui/load-error';
import { getStorageLocations, requestStockTransfer, transferKeys } from '../api/stock-transfer';
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

export function TransferDialog({ item, onClose, onDone }: { item: StockItemRow; onClose: () => void; onDone: (row: TransferRequestRow) => void }) {
  const { t, i18n } = useTranslation();
  const [keyOf] = useState(transferKeys);
  const [to, setTo] = useState('');
  const [quantity, setQuantity] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [invalidField, setInvalidField] = useState<'to' | 'quantity' | null>(null);
  const unsaved = to !== '' || quantity.trim() !== '';
  const release = useUnsavedText(unsaved);
  const locations = useQuery({
    queryKey: ['relationship', 'storage_location', item.plant],
    queryFn: () => getStorageLocations(item.plant),
    staleTime: 10 * 60_000,
    // LoadError shows a failure in the dialog: not the global alert a second time.
    meta: { silent: true },
  });
  const send = useMutation({
    meta: { silent: true },
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
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
  const invalid = (field: 'to' | 'quantity') => (invalidField === field ? { 'aria-invalid': true, 'aria-describedby': 'tr-error' } : {});
  return (
    <Dialog open title={t('stock.transferTitle', { code: item.material_code })} onClose={onClose} unsaved={unsaved}>
      <form className="form-grid" onSubmit={submit}>
        <p className="muted">{t('stock.transferFrom', { plant: item.plant, location: item.storage_location, total: item.total_quantity === null ? '–' : formatQuantity(item.total_quantity, i18n.language), unit: item.unit })}</p>
        <label htmlFor="tr-to">{t('stock.transferTo')}</label>
        <select id="tr-to" value={to} {...invalid('to')} onChange={(event) => setTo(event.target.value)}>
          <option value="">{t('stockCount.choose')}</option>
          {locations.data?.storage_locations
            .filter((l) => l.code !== item.storage_location)
            .map((l) => (
              <option key={l.code} value={l.code}>
                {l.code} · {l.name}
              </option>
            ))}
        </select>
        {/* Where the list of storage locations could not come (no connection, a plant not the
            caller's), say why: an empty list read as "choose", and Send as "all fields mandatory". */}
        {locations.error && <LoadError error={locations.error} />}
        <label htmlFor="tr-qty">{t('stock.transferQuantity', { unit: item.unit })}</label>
        <input id="tr-qty" type="text" inputMode="decimal" value={quantity} {...invalid('quantity')} onChange={(event) => setQuantity(event.target.value)} />
        <FormActions error={error} errorId="tr-error" onCancel={onClose} submitLabel={t('stock.transferSend')} isPending={send.isPending} />
      </form>
    </Dialog>
  );
}
