/**
 * /frontliner-dashboard: stock-count tasks per person counting with a total row (§3), filtered
 * by plant, planner group or e-mail as the user's role allows (§6), over a date range.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can, isSuperManager } from '../../../domain/permissions';
import { useAllowedPlants, useProfile } from '../../../lib/profile';
import { OccupancyChart } from '../../../components/occupancy-chart';
import { getOccupancyReport, getPlants, type OccupancyFilter } from '../api/frontliner';
import { LoadError } from '../../../components/ui/load-error';
import { isCalendarDay } from '../../../contract/dashboard';
import { OccupancyTable } from '../components/occupancy-table';
import { filterFromParams, filterToParams, stockCountPlants, type FilterChoices } from '../occupancy-filter';
import '../dashboards.css';

type Filter = OccupancyFilter;

export default function FrontlinerDashboardPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const allowed = useAllowedPlants();
  const byPlant = can(profile.permissions, 'frontliner.byPlant');
  const byGroup = can(profile.permissions, 'frontliner.byPlannerGroup');
  const byEmail = can(profile.permissions, 'frontliner.byEmail');
  const superManager = isSuperManager(profile.permissions);
  // Super managers see every plant: the server lists them.
  const allPlants = useQuery({
    queryKey: ['relationship', 'plant', null],
    queryFn: getPlants,
    enabled: superManager,
    staleTime: 10 * 60_000,
  });
  // Until a super manager's plants are listed, the address's plant may be one of them: no report yet.
  const plantsKnown = !superManager || !allPlants.isPending;
  // Only plants that use stock counts: the others have no report (the server refuses them).
  const plants = stockCountPlants(superManager ? (allPlants.data?.plants.map((p) => p.code) ?? profile.plants) : profile.plants, allowed.stock_count_allowed_plants);
  const choices: FilterChoices = { byPlant, byGroup, byEmail, plants, plannerGroups: profile.plannerGroups };
  // The shown filter is the address's (kept on Back, as /dashboard's range); the form edits a draft.
  const [params, setParams] = useSearchParams();
  const filter = filterFromParams(params, choices);
  const filterKey = JSON.stringify(filter);
  const [draft, setDraft] = useState<Filter>(filter);
  // A filter that changes under the form (Back, a super manager's plants arriving) is the form's too.
  const [shownKey, setShownKey] = useState(filterKey);
  if (shownKey !== filterKey) {
    setShownKey(filterKey);
    setDraft(filter);
  }
  const [rangeError, setRangeError] = useState<string | null>(null);
  const report = useQuery({
    queryKey: ['occupancy', filter],
    // The call's own error: LoadError shows the server's reason under a line in the user's language.
    queryFn: () => getOccupancyReport(filter),
    enabled: plantsKnown && Boolean(filter.plant || filter.planner_group),
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
    // Read back as the page reads it: a draft with neither plant nor group shows the default one, in the form too.
    const next = filterFromParams(new URLSearchParams(filterToParams({ ...draft, conducted_by: draft.conducted_by?.trim() || undefined })), choices);
    setDraft(next);
    setParams(filterToParams(next), { replace: true });
  };
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
      {/* What the numbers count, always in sight: an empty or a small report is then no riddle. */}
      <p className="muted small">
        {t('dashboard.rules')}
        {byEmail && ` ${t('dashboard.emailRule')}`}
      </p>
      {rangeError && (
        <p className="form-error" role="alert">
          {rangeError}
        </p>
      )}
      {/* The list's loading line is the app's overlay (meta mainList): one, not two. */}
      {!filter.plant && !filter.planner_group && plantsKnown && (
        <p className="muted">{t(byGroup ? 'dashboard.chooseGroup' : plants.length === 0 ? 'dashboard.noStockCountPlants' : 'dashboard.choosePlant')}</p>
      )}
      {report.error && <LoadError error={report.error} />}
      {report.data && !report.error && (
        <>
          <div className="panel">
            {/* The rules are under the filter: the chart's empty state need not repeat them. */}
            <OccupancyChart report={report.data} showRules={false} />
          </div>
          <OccupancyTable report={report.data} />
        </>
      )}
    </section>
  );
}
