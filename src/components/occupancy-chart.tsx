/**
 * Front-liner statistics drawn: a bar per person (completed vs not), and the total; beside each
 * bar the completed and the not completed counts with their percentages (§2 dashboard).
 */
import { useTranslation } from 'react-i18next';
import type { OccupancyReport } from '../contract/stock';
import { formatQuantity } from '../domain/quantity';

/** `showRules`: with nobody to list, also say what is counted (a page that shows it under its filter passes false). */
export function OccupancyChart({ report, showRules = true }: { report: OccupancyReport; showRules?: boolean }) {
  const { t, i18n } = useTranslation();
  // "33,3 %" in German and French, "33.3%" in English: the language's own way.
  const percent = (value: number) => new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);
  // The bar's label: numbers of the language too; each text places its own % sign ("33,3 %").
  const number = (value: number) => formatQuantity(value, i18n.language);
  const percentNumber = (value: number) => number(Math.round(value * 10) / 10);
  const max = Math.max(1, ...report.rows.map((row) => row.total_tasks));
  // "No items found" said nothing of why: no counts of the range, and what the range counts.
  if (report.rows.length === 0) {
    return (
      <p className="muted">
        {t('dashboard.noTasks')}
        {showRules && ` ${t('dashboard.rules')}`}
      </p>
    );
  }
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
              {/* The whole address on hover, where a narrow column still cuts it. */}
              <span className="occupancy-who" title={isTotal ? undefined : row.conducted_by}>
                {isTotal ? t('dashboard.total') : row.conducted_by}
              </span>
              <span
                className="occupancy-bar"
                role="img"
                aria-label={t('dashboard.barLabel', {
                  completed: number(row.completed_count),
                  completedPercent: percentNumber(row.completed_percentage),
                  notCompleted: number(row.not_completed_count),
                  notCompletedPercent: percentNumber(row.not_completed_percentage),
                  total: number(row.total_tasks),
                })}
              >
                <span className="occupancy-track" style={{ width: `${scale}%` }}>
                  <span className="done" style={{ width: `${row.completed_percentage}%` }} />
                </span>
              </span>
              {/* The bar's label says the same to screen readers; the swatches match the legend. */}
              <span className="occupancy-figures" aria-hidden="true">
                <span className="legend done">
                  {number(row.completed_count)} · {percent(row.completed_percentage)}
                </span>
                <span className="legend open">
                  {number(row.not_completed_count)} · {percent(row.not_completed_percentage)}
                </span>
                <span className="muted">Σ {number(row.total_tasks)}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
