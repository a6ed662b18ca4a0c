/**
 * /dashboard: the file-processing dashboard's compact view (§2, §3): for each day of a range,
 * how many ERP files were processed, errored, missing, in progress or not processed, as bars
 * read at a glance, with the numbers as a table too. A day opens /dashboard/{date}.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { formatDate } from '../../../lib/date-formats';
import { formatQuantity } from '../../../domain/quantity';
import { isCalendarDay } from '../../../contract/dashboard';
import { useProfile } from '../../../lib/profile';
import { can } from '../../../domain/permissions';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useBusinessToday, useCompactView } from '../api/dashboard-views';
import { DayBars, DayTable } from '../components/day-bars';
import { StatusLegend } from '../components/status-legend';
import { STATUS_ORDER, countOf } from '../components/file-status';
import { rangeSearch } from '../components/range-search';
import '../file-dashboard.css';

const DEFAULT_DAYS = 14;

export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { email, permissions } = useProfile();
  const online = useOnline();
  const [params, setParams] = useSearchParams();
  // The ERP schedule's day (near midnight not the device's).
  const today = useBusinessToday();
  const fromParam = params.get('from') ?? '';
  const toParam = params.get('to') ?? '';
  const end = isCalendarDay(toParam) ? toParam : today;
  const start = isCalendarDay(fromParam) && fromParam <= end ? fromParam : dayjs(end).subtract(DEFAULT_DAYS - 1, 'day').format('YYYY-MM-DD');
  const [draft, setDraft] = useState({ start, end });
  const [rangeError, setRangeError] = useState<string | null>(null);
  // A range that changes under the form is the form's too: the side bar's Dashboard (no range in
  // the address, the last 14 days again), Back, the business day answering near midnight. What is
  // typed stays until then; a complaint about the replaced draft goes with it.
  const shownKey = `${start}/${end}`;
  const [formKey, setFormKey] = useState(shownKey);
  if (formKey !== shownKey) {
    setFormKey(shownKey);
    setDraft({ start, end });
    setRangeError(null);
  }
  const view = useCompactView(email, start, end);
  const rows = view.data ? [...view.data].reverse() : [];
  // The range goes with the links to a day, whose "All days" brings it back.
  const search = rangeSearch(params);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (!isCalendarDay(draft.start) || !isCalendarDay(draft.end) || draft.start > draft.end) {
      setRangeError(t('files.rangeInvalid'));
      return;
    }
    if (dayjs(draft.end).diff(dayjs(draft.start), 'day') >= 366) {
      setRangeError(t('files.rangeTooLong'));
      return;
    }
    setRangeError(null);
    setParams({ from: draft.start, to: draft.end }, { replace: true });
  };
  const totals = STATUS_ORDER.map((status) => [status, rows.reduce((sum, row) => sum + countOf(row, status), 0)] as const);

  return (
    <section className="page fd-page">
      <div className="fd-title-row">
        <h1 className="page-title route-title">{t('routes.dashboard')}</h1>
        <span className="button-row">
          <Link className="button small" to="/file-dashboard">
            {t('routes.fileDashboard')}
          </Link>
          {/* §6: super managers search the front-liner statistics too; this is their way there. */}
          {(can(permissions, 'frontliner.byPlant') || can(permissions, 'frontliner.byEmail')) && (
            <Link className="button small" to="/frontliner-dashboard">
              {t('routes.frontlinerDashboard')}
            </Link>
          )}
        </span>
      </div>
      {(view.isOfflineCopy || !online) && <OfflineBanner savedAt={view.savedAt} />}
      <form className="filter-bar" onSubmit={apply} noValidate>
        <label>
          {t('files.from')}
          <input type="date" value={draft.start} max={draft.end} onChange={(e) => setDraft({ ...draft, start: e.target.value })} />
        </label>
        <label>
          {t('files.to')}
          <input type="date" value={draft.end} min={draft.start} onChange={(e) => setDraft({ ...draft, end: e.target.value })} />
        </label>
        <button type="submit" className="button primary">
          {t('files.show')}
        </button>
      </form>
      {rangeError && (
        <p className="form-error" role="alert">
          {rangeError}
        </p>
      )}
      {view.isLoading && <Spinner label={t('loading.listingItems')} />}
      {view.error && !view.data && <LoadError error={view.error} />}
      {view.data && (
        <>
          <div className="panel fd-summary" role="status">
            <p className="fd-summary-range">{t('files.rangeSummary', { from: formatDate(start), to: formatDate(end) })}</p>
            <ul className="fd-totals">
              {totals.map(([status, total]) => (
                <li key={status} className={total > 0 && (status === 'errored' || status === 'missing') ? 'fd-total-alert' : undefined}>
                  <span className={`fd-swatch fd-${status}`} aria-hidden="true" />
                  <span className="fd-total-number">{formatQuantity(total, i18n.language)}</span> {t(`files.status.${status}`)}
                </li>
              ))}
            </ul>
          </div>
          <div className="panel">
            <StatusLegend />
            {rows.length === 0 ? <p className="muted">{t('files.noFiles')}</p> : <DayBars rows={rows} search={search} />}
          </div>
          <details className="panel fd-table-toggle">
            <summary>{t('files.asTable')}</summary>
            <DayTable rows={rows} search={search} />
          </details>
        </>
      )}
    </section>
  );
}
