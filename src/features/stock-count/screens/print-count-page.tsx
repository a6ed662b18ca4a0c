/** The printable count sheet of a count (§ print count sheet): lines by bin, with space to write. */
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatDeadline } from '../../../lib/date-formats';
import { Spinner } from '../../../components/ui/spinner';
import { getPrintSheet, type PrintSheet } from '../api/get-print-sheet';
import { formatQuantity } from '../../../domain/quantity';
import { countSheetUrl } from '../../../domain/scan-codes';
import { Code128, QrCode } from '../components/print-codes';
import { LoadError } from '../../../components/ui/load-error';
import '../stock-count.css';
import '../print-codes.css';

export default function PrintCountPage() {
  const { t } = useTranslation();
  const stockCountId = Number(useParams().id);
  const sheet = useQuery({
    queryKey: ['print-count', stockCountId],
    queryFn: () => getPrintSheet(stockCountId),
    // Offline it fails at once and LoadError says there is no connection (paused, it spun forever).
    networkMode: 'always',
  });
  if (sheet.isPending) return <Spinner label={t('loading.listingItems')} />;
  if (!sheet.data) return <LoadError error={sheet.error} notFound={t('stockCount.notFound')} />;
  const { stock_count: count, lines } = sheet.data;
  return (
    <section className="page print-sheet">
      <div className="page-head no-print">
        <h1 className="page-title">{t('stockCount.printTitle', { id: count.id })}</h1>
        <button type="button" className="button primary" onClick={() => window.print()}>
          {t('stockCount.printNow')}
        </button>
      </div>
      <div className="print-count-head">
        <div>
          <h2 className="print-only">{t('stockCount.printTitle', { id: count.id })}</h2>
          <p className="count-meta">
        <span>
          {count.plant} / {count.storage_location}
        </span>
        <span>{t(`stockCount.type.${count.type}`, { defaultValue: count.type })}</span>
        <span>{count.conducted_by ? t('stockCount.conductedBy', { who: count.conducted_by }) : t('stockCount.unassigned')}</span>
        {count.should_be_done_at && <span>{t('stockCount.deadline', { date: formatDeadline(count.should_be_done_at) })}</span>}
          </p>
        </div>
        <figure className="print-count-qr">
          <QrCode text={countSheetUrl(window.location.origin, count.id)} label={t('scan.printCountQr', { id: count.id })} />
          <figcaption>{t('scan.printCountQr', { id: count.id })}</figcaption>
        </figure>
      </div>
      <PrintSheetLines lines={lines} />
    </section>
  );
}

/** The sheet's lines: bin, material, its barcode, the book quantity in the reader's language, space to write the count. */
export function PrintSheetLines({ lines }: { lines: PrintSheet['lines'] }) {
  const { t, i18n } = useTranslation();
  // A table on paper and on wide screens; on a phone each line is a card (print-codes.css). Should
  // it scroll sideways after all (a very long code), it is focusable and named so keyboards can scroll it too.
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={t('stockCount.printCaption')}>
      <table className="data-table">
        <caption className="visually-hidden">{t('stockCount.printCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('stockCount.printBin')}</th>
            <th scope="col">{t('stock.material')}</th>
            <th scope="col">{t('scan.printCode')}</th>
            <th scope="col" className="num">
              {t('stockCount.printBook')}
            </th>
            <th scope="col">{t('stockCount.printCounted')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.material_code}>
              <td className="print-bin" data-label={t('stockCount.printBin')}>
                {line.bin ?? '–'}
              </td>
              <td className="print-material">
                <span className="material-code">{line.material_code}</span>
                <span className="cell-sub">{line.material_description_english}</span>
              </td>
              <td className="print-code-cell">
                <Code128 text={line.material_code} label={t('scan.printLineBarcode', { code: line.material_code })} />
              </td>
              <td className="num print-book" data-label={t('stockCount.printBook')}>
                {line.book_quantity === null ? '–' : formatQuantity(line.book_quantity, i18n.language)} {line.unit}
              </td>
              <td className="write-in" aria-label={t('stockCount.printCounted')} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
