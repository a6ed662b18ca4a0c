/** Stock items: a table on wide screens, cards on phones; the five counts, total, ROP and ROQ. */
import { useTranslation } from 'react-i18next';
import type { StockItemRow } from '../../../contract/stock';

const show = (value: number | null) => (value === null ? '–' : value.toLocaleString());

export function StockTable({ items, onTransfer }: { items: StockItemRow[]; onTransfer?: (item: StockItemRow) => void }) {
  const { t } = useTranslation();
  const columns = [
    ['unrestricted_count', 'stock.unrestricted'],
    ['quality_inspection_count', 'stock.qualityInspection'],
    ['blocked_count', 'stock.blocked'],
    ['restricted_count', 'stock.restricted'],
    ['transfer_count', 'stock.transfer'],
  ] as const;
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
            const low = item.total_quantity !== null && item.reorder_point !== null && item.total_quantity <= item.reorder_point;
            return (
              <tr key={item.id} className={low ? 'low-stock' : undefined}>
                <td data-label={t('stock.material')}>
                  <span className="material-code">{item.material_code}</span>
                  <span className="cell-sub">{item.material_description_english}</span>
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
                </td>
                <td className="num" data-label={t('stock.rop')}>
                  {show(item.reorder_point)}
                </td>
                <td className="num" data-label={t('stock.roq')}>
                  {show(item.reorder_quantity)}
                </td>
                {onTransfer && (
                  <td>
                    <button type="button" className="button small" onClick={() => onTransfer(item)} aria-label={t('stock.transferFor', { code: item.material_code })}>
                      {t('stock.transferAction')}
                    </button>
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
