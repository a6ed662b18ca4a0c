/**
 * The compact view as a picture (§3 compact row): one row per day, a stacked bar of its files by
 * status, scaled to the busiest day, with the numbers beside it. Each row is a link to the day;
 * its accessible name says every number, so the picture is never the only way to read it.
 */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { formatDate, formatDayHeading } from '../../../lib/date-formats';
import { formatQuantity } from '../../../domain/quantity';
import type { CompactRow } from '../../../contract/dashboard';
import { STATUS_ORDER, countOf } from './file-status';

/** `search`: the overview's range (rangeSearch), carried to the day and back to the overview. */
export function DayBars({ rows, search = '' }: { rows: readonly CompactRow[]; search?: string }) {
  const { t, i18n } = useTranslation();
  // Numbers as the user's language writes them ("1.234" in German); `count` stays a number for the plural.
  const n = (value: number) => formatQuantity(value, i18n.language);
  const widest = Math.max(1, ...rows.map((r) => r.number_of_files));
  return (
    <ol className="fd-days">
      {rows.map((row) => {
        const problems = row.number_of_errored_files + row.number_of_missing_files;
        // "1 file", "2 files": the plural form follows the day's number of files.
        const label = t('files.dayLabel', {
          date: formatDayHeading(row.date),
          count: row.number_of_files,
          total: n(row.number_of_files),
          processed: n(row.number_of_processed_files),
          errored: n(row.number_of_errored_files),
          missing: n(row.number_of_missing_files),
          inProgress: n(row.number_of_in_progress_files),
          notProcessed: n(row.number_of_not_processed_files),
        });
        return (
          <li key={row.date}>
            <Link to={`/dashboard/${row.date}${search}`} className="fd-day" aria-label={label}>
              <span className="fd-day-date">
                <span className="fd-weekday">{dayjs(row.date).format('ddd')}</span> {formatDate(row.date)}
              </span>
              <span className="fd-bar" style={{ width: `${(row.number_of_files / widest) * 100}%` }} aria-hidden="true">
                {STATUS_ORDER.map((status) => {
                  const count = countOf(row, status);
                  return count > 0 ? <span key={status} className={`fd-seg fd-${status}`} style={{ flexGrow: count }} /> : null;
                })}
              </span>
              <span className={`fd-day-count${problems > 0 ? ' fd-has-problems' : ''}`} aria-hidden="true">
                {row.number_of_files === 0
                  ? '–'
                  : problems > 0
                    ? t('files.problemCount', { problems: n(problems), total: n(row.number_of_files) })
                    : row.number_of_processed_files === row.number_of_files
                      ? `✓ ${n(row.number_of_files)}`
                      : `${n(row.number_of_processed_files)}/${n(row.number_of_files)}`}
              </span>
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

/** The same numbers as a table (text alternative of the bars). */
export function DayTable({ rows, search = '' }: { rows: readonly CompactRow[]; search?: string }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatQuantity(value, i18n.language);
  return (
    <div className="table-wrap">
      <table className="data-table">
        <caption className="visually-hidden">{t('files.tableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('files.date')}</th>
            <th scope="col">{t('files.total')}</th>
            {STATUS_ORDER.map((status) => (
              <th key={status} scope="col">
                {t(`files.status.${status}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.date}>
              <th scope="row">
                <Link to={`/dashboard/${row.date}${search}`}>{formatDate(row.date)}</Link>
              </th>
              <td>{n(row.number_of_files)}</td>
              {STATUS_ORDER.map((status) => (
                <td key={status}>{n(countOf(row, status))}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
