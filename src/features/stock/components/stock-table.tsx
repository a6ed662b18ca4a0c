/**
 * Stock items: a table on wide screens; on phones one dense row per item — code, description,
 * total with its unit and the reorder state — that opens on tap to the five counts, the
 * location, ROP, ROQ and the transfer (#21).
 */
import { useTranslation } from 'react-i18next';
import type { StockItemRow } from '../../../contract/stock';
import { toThousandths } from '../../../domain/stock';
import { useIsNarrow } from '../../../lib/use-media-query';
import '../stock.css';

// `== null`: a page saved on the device before #19 item 7 lacks quantity_inspection_count.
// Numbers as the app's language writes them (1 234,5 in Finnish), not the browser's.
const shows = (locale: string) => (value: number | null | undefined) => (value == null ? '–' : value.toLocaleString(locale));

const columns = [
  ['unrestricted_count', 'stock.unrestricted'],
  ['quantity_inspection_count', 'stock.qualityInspection'],
  ['blocked_count', 'stock.blocked'],
  ['restricted_count', 'stock.restricted'],
  ['transfer_count', 'stock.transfer'],
] as const;

/**
 * At or below the reorder point: "Reorder". The total to the thousandths quantities have (§5, toThousandths): a
 * page saved before the server rounded it held 3.3000000000000003 for 1.1 + 2.2, above a ROP of 3.3.
 */
const isLow = (item: StockItemRow) =>
  item.total_quantity !== null && item.reorder_point !== null && toThousandths(item.total_quantity) <= item.reorder_point;

/** The id of a row's visible reason why its stock is hidden (a blind count), which its chip points at. */
const blindWhyId = (item: StockItemRow) => `stock-blind-why-${item.id}`;

/** "Blind count 12": the counts are hidden; why is said in the row (blindWhyId), not only in a tooltip no phone shows. */
function BlindChip({ item }: { item: StockItemRow }) {
  const { t } = useTranslation();
  if (item.blind_count_id === undefined) return null;
  return (
    <span className="chip" aria-describedby={blindWhyId(item)}>
      {t('stock.hiddenBlind', { id: item.blind_count_id })}
    </span>
  );
}

/** Transfer is offered on rows of a plant the caller may transfer in (the server refuses the others). */
interface TransferProps {
  onTransfer?: (item: StockItemRow) => void;
  canTransfer?: (item: StockItemRow) => boolean;
  /** Offline: the Transfer buttons stay, disabled, with the reason beside them (a request needs the server). */
  transferOffline?: boolean;
}

/** A row's Transfer button; offline disabled and saying why. 44 px high on phones (stock.css). */
function TransferButton({ item, onTransfer, offline }: { item: StockItemRow; onTransfer: (item: StockItemRow) => void; offline: boolean }) {
  const { t } = useTranslation();
  const reasonId = `stock-transfer-offline-${item.id}`;
  return (
    <span className="stock-transfer">
      <button
        type="button"
        className="button small stock-transfer-action"
        disabled={offline}
        aria-describedby={offline ? reasonId : undefined}
        onClick={() => onTransfer(item)}
        // The name starts with the visible word (WCAG 2.5.3, speech input: "click Transfer"), then
        // says which row's: one material may be listed at several storage locations.
        aria-label={t('stock.transferActionFor', { action: t('stock.transferAction'), code: item.material_code, plant: item.plant, location: item.storage_location })}
      >
        {t('stock.transferAction')}
      </button>
      {offline && (
        <span id={reasonId} className="stock-transfer-offline">
          {t('sync.noConnection')}
        </span>
      )}
    </span>
  );
}

function StockRows({ items, onTransfer, canTransfer, transferOffline = false }: { items: StockItemRow[] } & TransferProps) {
  const { t, i18n } = useTranslation();
  const show = shows(i18n.language);
  return (
    <ul className="dense-list stock-rows" aria-label={t('stock.tableCaption')}>
      {items.map((item) => {
        const low = isLow(item);
        return (
          <li key={item.id} className={low ? 'low-stock' : undefined}>
            <details className="dense-row">
              <summary>
                <span className="dense-row-main">
                  <span className="material-code">{item.material_code}</span>
                  <span className="dense-row-sub">{item.material_description_english}</span>
                </span>
                <span className="dense-row-side">
                  <strong>
                    {show(item.total_quantity)} <span className="unit">{item.unit}</span>
                  </strong>
                  {low && <span className="chip warning">{t('stock.belowRop')}</span>}
                  <BlindChip item={item} />
                </span>
              </summary>
              <div className="dense-row-details">
                <p className="dense-row-where">
                  {item.plant} / {item.storage_location} · {item.bin ? t('stock.bin', { bin: item.bin }) : t('stock.noBin')}
                </p>
                {item.blind_count_id !== undefined && (
                  <p id={blindWhyId(item)} className="dense-row-where">
                    {t('stock.hiddenBlindWhy')}
                  </p>
                )}
                <dl className="count-grid">
                  {columns.map(([key, label]) => (
                    <div key={key}>
                      <dt>{t(label)}</dt>
                      <dd>{show(item[key])}</dd>
                    </div>
                  ))}
                  <div>
                    <dt>{t('stock.rop')}</dt>
                    <dd>{show(item.reorder_point)}</dd>
                  </div>
                  <div>
                    <dt>{t('stock.roq')}</dt>
                    <dd>{show(item.reorder_quantity)}</dd>
                  </div>
                </dl>
                {onTransfer && (canTransfer?.(item) ?? true) && <TransferButton item={item} onTransfer={onTransfer} offline={transferOffline} />}
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}

export function StockTable({ items, onTransfer, canTransfer, transferOffline = false }: { items: StockItemRow[] } & TransferProps) {
  const { t, i18n } = useTranslation();
  const show = shows(i18n.language);
  const narrow = useIsNarrow();
  if (narrow) return <StockRows items={items} onTransfer={onTransfer} canTransfer={canTransfer} transferOffline={transferOffline} />;
  return (
    <div className="table-wrap">
      <table className="data-table stock-table">
        <caption className="visually-hidden">{t('stock.tableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('stock.material')}</th>
            <th scope="col">{t('stock.location')}</th>
            {columns.map(([, label]) => (
              <th scope="col" className="num" key={label}>
                {t(label)}
              </th>
            ))}
            <th scope="col" className="num">
              {t('stock.total')}
            </th>
            <th scope="col" className="num">
              {t('stock.rop')}
            </th>
            <th scope="col" className="num">
              {t('stock.roq')}
            </th>
            {onTransfer && (
              <th scope="col">
                <span className="visually-hidden">{t('stock.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const low = isLow(item);
            return (
              <tr key={item.id} className={low ? 'low-stock' : undefined}>
                <td data-label={t('stock.material')}>
                  <span className="material-code">{item.material_code}</span>
                  <span className="cell-sub">{item.material_description_english}</span>
                  {item.blind_count_id !== undefined && (
                    <span id={blindWhyId(item)} className="cell-sub">
                      {t('stock.hiddenBlindWhy')}
                    </span>
                  )}
                </td>
                <td data-label={t('stock.location')}>
                  {item.plant} / {item.storage_location}
                  <span className="cell-sub">{item.bin ? t('stock.bin', { bin: item.bin }) : t('stock.noBin')}</span>
                </td>
                {columns.map(([key, label]) => (
                  <td className="num" data-label={t(label)} key={key}>
                    {show(item[key])}
                  </td>
                ))}
                <td className="num strong" data-label={t('stock.total')}>
                  {show(item.total_quantity)} <span className="unit">{item.unit}</span>
                  {low && <span className="chip warning">{t('stock.belowRop')}</span>}
                  <BlindChip item={item} />
                </td>
                <td className="num" data-label={t('stock.rop')}>
                  {show(item.reorder_point)}
                </td>
                <td className="num" data-label={t('stock.roq')}>
                  {show(item.reorder_quantity)}
                </td>
                {onTransfer && (
                  <td>
                    {(canTransfer?.(item) ?? true) && <TransferButton item={item} onTransfer={onTransfer} offline={transferOffline} />}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
