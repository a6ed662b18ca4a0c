/** The front-liner report as a table (§3): a row per person counting and the total row. */
import { useTranslation } from 'react-i18next';
import type { OccupancyReport } from '../../../contract/stock';
import { formatQuantity } from '../../../domain/quantity';

export function OccupancyTable({ report }: { report: OccupancyReport }) {
  const { t, i18n } = useTranslation();
  // With nobody to list the table was a lone bold "Total 0 0 0 % 0 %": the chart says why instead.
  if (report.rows.length === 0) return null;
  // Counts and percentages as the user's language writes them ("1.234", "33,3 %").
  const number = (value: number) => formatQuantity(value, i18n.language);
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  return (
    // On a phone each person is a block of labelled figures (its six columns ran off the screen,
    // only the names showing); wider, a table whose region takes the focus to scroll it if need be.
    <div className="table-wrap" tabIndex={0} role="region" aria-label={t('routes.frontlinerDashboard')}>
      <table className="data-table occupancy-table">
        <caption className="visually-hidden">{t('routes.frontlinerDashboard')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('dashboard.conductedBy')}</th>
            <th scope="col" className="num">{t('dashboard.totalTasks')}</th>
            <th scope="col" className="num">{t('dashboard.completed')}</th>
            <th scope="col" className="num">{t('dashboard.notCompleted')}</th>
            <th scope="col" className="num">{t('dashboard.completedPercent')}</th>
            <th scope="col" className="num">{t('dashboard.notCompletedPercent')}</th>
          </tr>
        </thead>
        <tbody>
          {[...report.rows, report.total].map((row) => (
            <tr key={row.conducted_by} className={row === report.total ? 'total-row' : undefined}>
              <td>{row === report.total ? t('dashboard.total') : row.conducted_by}</td>
              <td className="num" data-label={t('dashboard.totalTasks')}>{number(row.total_tasks)}</td>
              <td className="num" data-label={t('dashboard.completed')}>{number(row.completed_count)}</td>
              <td className="num" data-label={t('dashboard.notCompleted')}>{number(row.not_completed_count)}</td>
              <td className="num" data-label={t('dashboard.completedPercent')}>{percent.format(row.completed_percentage / 100)}</td>
              <td className="num" data-label={t('dashboard.notCompletedPercent')}>{percent.format(row.not_completed_percentage / 100)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
