import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../../lib/date-formats';
import { formatQuantity } from '../../../domain/quantity';
import type { OrderDetailsItem } from '../../../contract/parts';
import '../tracking.css';

/** Every §3 item field, in the spec's order; JSON fields are shown in their own sections. */
const FIELDS = [
  'materialCode',
  'materialDescription',
  'unit',
  'deliveryDate',
  'eta',
  'deliveryStatus',
  'deliveryType',
  'deliveryAddress',
  'storageLocation',
  'addressCode',
  'trackingNumber',
  'reservationDocNumber',
  'reservationQuantity',
  'pending',
  'purchaseOrderDocNumber',
  'purchaseOrder',
  'purchaseOrderQuantity',
  'purchaseOrderConfirmationCategory',
  'purchaseOrderConfirmationQuantity',
  'purchaseOrderGoodsReceiptQuantity',
  'goodsReceiptPostedAt',
  'salesOrderDocNumber',
  'salesOrderDocNumberAtPO',
  'salesOrderScheduleLineQuantity',
  'salesOrderQuantity',
  'deliveryOrderDocNumber',
  'deliveryQuantity',
  'mainAssetNumber',
  'network',
  'costCenter',
  'actionPoint',
  'notification',
] as const satisfies ReadonlyArray<keyof OrderDetailsItem>;

const DATES = new Set<string>(['deliveryDate', 'eta']);

export function ItemFields({ item }: { item: OrderDetailsItem }) {
  const { t, i18n } = useTranslation();
  const show = (field: (typeof FIELDS)[number]) => {
    const value = item[field];
    if (value === null || value === '') return <span className="muted">{t('tracking.field.empty')}</span>;
    if (DATES.has(field)) return formatDate(String(value));
    if (field === 'goodsReceiptPostedAt') return formatDateTime(String(value));
    // The status in the user's language, as the status chip shows it (the ERP's code otherwise).
    if (field === 'deliveryStatus') return t(`tracking.deliveryStatus.${String(value)}`, { defaultValue: String(value) });
    if (field === 'deliveryType') return t(`tracking.deliveryType.${String(value)}`, { defaultValue: String(value) });
    // The quantities are the item's only numbers: "2,5" in German or Finnish, as a count shows them.
    if (typeof value === 'number') return formatQuantity(value, i18n.language);
    return String(value);
  };
  return (
    <details className="item-fields">
      <summary>{t('tracking.allFields')}</summary>
      <dl>
        {FIELDS.map((field) => (
          <div key={field}>
            <dt>{t(`tracking.field.${field}`)}</dt>
            <dd>{show(field)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
