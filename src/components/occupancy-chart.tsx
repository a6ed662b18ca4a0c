/** Front-liner statistics drawn: a bar per person (completed vs not), and the total. */
import { useTranslation } from 'react-i18next';
import type { OccupancyReport } from '../contract/stock';

export function OccupancyChart({ report }: { report: OccupancyReport }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...report.rows.map((row) => row.total_tasks));
  if (report.rows.length === 0) return <p className="muted">{t('common.noItems')}</p>;
  return (
    <figure className="occupancy">
      <figcaption className="occupancy-legend">
        <span className="legend done">{t('dashboard.completed')}</span>
        <span className="legend open">{t('dashboard.notCompleted')}</span>
      </figcaption>
      <ul className="occupancy-rows">
        {[...report.rows, report.total].map((row) => {
          const isTotal = row === report.total;
          const scale = isTotal ? 100 : (row.total_tasks / max) * 100;
          return (
            <li key={row.conducted_by} className={isTotal ? 'total' : undefined}>
              <span className="occupancy-who">{isTotal ? t('dashboard.total') : row.conducted_by}</span>
              <span
                className="occupancy-bar"
                role="img"
                aria-label={t('dashboard.barLabel', { completed: row.completed_count, total: row.total_tasks, percent: row.completed_percentage })}
              >
                <span className="occupancy-track" style={{ width: `${scale}%` }}>
                  <span className="done" style={{ width: `${row.completed_percentage}%` }} />
                </span>
              </span>
              <span className="occupancy-figures">
                {row.completed_count}/{row.total_tasks} · {row.completed_percentage}%
              </span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
