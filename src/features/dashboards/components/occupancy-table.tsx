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
    // Six columns scroll sideways on a phone: the region takes the keyboard focus to scroll them.
    <div className="table-wrap" tabIndex={0} role="region" aria-label={t('routes.frontlinerDashboard')}>
      <table className="data-table">
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
              <td className="num">{number(row.total_tasks)}</td>
              <td className="num">{number(row.completed_count)}</td>
              <td className="num">{number(row.not_completed_count)}</td>
              <td className="num">{percent.format(row.completed_percentage / 100)}</td>
              <td className="num">{percent.format(row.not_completed_percentage / 100)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
