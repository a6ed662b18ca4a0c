/**
 * /frontliner-dashboard: stock-count tasks per person counting with a total row (§3), filtered
 * by plant, planner group or e-mail as the user's role allows (§6), over a date range.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { can, isSuperManager } from '../../../domain/permissions';
import { useProfile } from '../../../lib/profile';
import { OccupancyChart } from '../../../components/occupancy-chart';
import { getOccupancyReport, getPlants, type OccupancyFilter } from '../api/frontliner';
import { LoadError } from '../../../components/ui/load-error';
import { isCalendarDay } from '../../../contract/dashboard';
import '../dashboards.css';

type Filter = OccupancyFilter;

export default function FrontlinerDashboardPage() {
  const { t, i18n } = useTranslation();
  const profile = useProfile();
  const byPlant = can(profile.permissions, 'frontliner.byPlant');
  const byGroup = can(profile.permissions, 'frontliner.byPlannerGroup');
  const byEmail = can(profile.permissions, 'frontliner.byEmail');
  // Super managers see every plant: the server lists them.
  const allPlants = useQuery({
    queryKey: ['relationship', 'plant', null],
    queryFn: getPlants,
    enabled: isSuperManager(profile.permissions),
    staleTime: 10 * 60_000,
  });
  const plants = isSuperManager(profile.permissions) ? (allPlants.data?.plants.map((p) => p.code) ?? profile.plants) : profile.plants;
  const [draft, setDraft] = useState<Filter>({
    start_date: dayjs().subtract(30, 'day').format('YYYY-MM-DD'),
    end_date: dayjs().format('YYYY-MM-DD'),
    ...(byGroup && profile.plannerGroups[0] ? { planner_group: profile.plannerGroups[0] } : byPlant && plants[0] ? { plant: plants[0] } : {}),
  });
  const [filter, setFilter] = useState<Filter>(draft);
  const [rangeError, setRangeError] = useState<string | null>(null);
  // A super manager's plants arrive after the first render: the first one is chosen then, as it
  // is for others at once (the page showed nothing, with no word why).
  const firstPlant = byPlant && !byGroup ? plants[0] : undefined;
  useEffect(() => {
    if (!firstPlant) return;
    const choose = (f: Filter) => (f.plant || f.planner_group ? f : { ...f, plant: firstPlant });
    setDraft(choose);
    setFilter(choose);
  }, [firstPlant]);
  const report = useQuery({
    queryKey: ['occupancy', filter],
    // The call's own error: LoadError shows the server's reason under a line in the user's language.
    queryFn: () => getOccupancyReport(filter),
    enabled: Boolean(filter.plant || filter.planner_group),
    // Offline it fails at once and LoadError says so (paused, the page showed nothing).
    networkMode: 'always',
    // §8: a failure clears the data and shows the error here, and is only logged otherwise (not the global alert).
    meta: { mainList: true, silent: true },
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    // The server's checks of the dates, in the user's language (its answer is English).
    if (!isCalendarDay(draft.start_date) || !isCalendarDay(draft.end_date) || draft.start_date > draft.end_date) {
      setRangeError(t('files.rangeInvalid'));
      return;
    }
    setRangeError(null);
    setFilter({ ...draft, conducted_by: draft.conducted_by?.trim() || undefined });
  };
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const uploads = can(profile.permissions, 'fileIngestion.upload');
  if (!byPlant && !byGroup) {
    return (
      <section className="page">
        <h1 className="page-title route-title">{t('routes.frontlinerDashboard')}</h1>
        <p className="muted">{t('guard.notAllowedText')}</p>
      </section>
    );
  }
  return (
    <section className="page">
      <div className="dash-title-row">
        <h1 className="page-title route-title">{t('routes.frontlinerDashboard')}</h1>
        {/* Stock admins upload ERP files on the file dashboard's page; the Dashboard entry leads them here. */}
        {uploads && (
          <Link className="button small" to="/file-dashboard">
            {t('routes.fileDashboard')}
          </Link>
        )}
      </div>
      <form className="filter-bar" onSubmit={apply} noValidate>
        {byPlant && (
          <label>
            {t('stockCount.plant')}
            <select value={draft.plant ?? ''} onChange={(e) => setDraft({ ...draft, plant: e.target.value || undefined, planner_group: e.target.value ? undefined : draft.planner_group })}>
              <option value="">–</option>
              {plants.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        )}
        {byGroup && (
          <label>
            {t('dashboard.plannerGroup')}
            <select value={draft.planner_group ?? ''} onChange={(e) => setDraft({ ...draft, planner_group: e.target.value || undefined, plant: e.target.value ? undefined : draft.plant })}>
              <option value="">–</option>
              {profile.plannerGroups.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </label>
        )}
        {byEmail && (
          <label>
            {t('dashboard.email')}
            <input type="email" value={draft.conducted_by ?? ''} onChange={(e) => setDraft({ ...draft, conducted_by: e.target.value })} />
          </label>
        )}
        <label>
          {t('dashboard.from')}
          <input type="date" value={draft.start_date} onChange={(e) => setDraft({ ...draft, start_date: e.target.value })} />
        </label>
        <label>
          {t('dashboard.to')}
          <input type="date" value={draft.end_date} onChange={(e) => setDraft({ ...draft, end_date: e.target.value })} />
        </label>
        <button type="submit" className="button primary">
          {t('dashboard.show')}
        </button>
      </form>
      {rangeError && (
        <p className="form-error" role="alert">
          {rangeError}
        </p>
      )}
      {/* The list's loading line is the app's overlay (meta mainList): one, not two. */}
      {!filter.plant && !filter.planner_group && <p className="muted">{t(byGroup ? 'dashboard.chooseGroup' : 'dashboard.choosePlant')}</p>}
      {report.error && <LoadError error={report.error} />}
      {report.data && !report.error && (
        <>
          <div className="panel">
            <OccupancyChart report={report.data} />
          </div>
          {/* Six columns scroll sideways on a phone: the region takes the keyboard focus to scroll them. */}
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
                {[...report.data.rows, report.data.total].map((row) => (
                  <tr key={row.conducted_by} className={row === report.data.total ? 'total-row' : undefined}>
                    <td>{row === report.data.total ? t('dashboard.total') : row.conducted_by}</td>
                    <td className="num">{row.total_tasks}</td>
                    <td className="num">{row.completed_count}</td>
                    <td className="num">{row.not_completed_count}</td>
                    <td className="num">{percent.format(row.completed_percentage / 100)}</td>
                    <td className="num">{percent.format(row.not_completed_percentage / 100)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
