/** /dashboard/{date}: the ERP files of one day with their status and line-numbered errors (§2). */
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { formatDate, formatDayHeading } from '../../../lib/date-formats';
import { isCalendarDay } from '../../../contract/dashboard';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useDayFiles } from '../api/dashboard-views';
import { FileList } from '../components/file-list';
import { rangeSearch } from '../components/range-search';
import '../file-dashboard.css';

export default function DashboardDayPage() {
  const { t } = useTranslation();
  const { email } = useProfile();
  const online = useOnline();
  const date = useParams().date ?? '';
  // The overview's range came along (?from=&to=): the day steps keep it, "All days" returns to it.
  const [params] = useSearchParams();
  const search = rangeSearch(params);
  const isValid = isCalendarDay(date);
  // The business day is read again while shown (as on /file-dashboard); a past day is not.
  const view = useDayFiles(email, date, isValid);
  const step = (days: number) => dayjs(date).add(days, 'day').format('YYYY-MM-DD');
  const title = isValid ? formatDayHeading(date) : date;

  return (
    <section className="page fd-page">
      <nav className="fd-day-nav" aria-label={t('files.dayNavigation')}>
        <Link to={`/dashboard${search}`}>{t('files.allDays')}</Link>
      </nav>
      <h1 className="page-title">
        {t('routes.dashboardDetail')}: {title}
      </h1>
      {!isValid ? (
        <p className="form-error" role="alert">
          {t('files.invalidDate', { date })}
        </p>
      ) : (
        <>
          <div className="button-row fd-steps">
            <Link className="button small" to={`/dashboard/${step(-1)}${search}`} aria-label={t('files.previousDayLabel', { date: formatDate(step(-1)) })}>
              ← {t('files.previousDay')}
            </Link>
            <Link className="button small" to={`/dashboard/${step(1)}${search}`} aria-label={t('files.nextDayLabel', { date: formatDate(step(1)) })}>
              {t('files.nextDay')} →
            </Link>
          </div>
          {(view.isOfflineCopy || !online) && <OfflineBanner savedAt={view.savedAt} />}
          {view.isLoading && <Spinner label={t('loading.listingItems')} />}
          {view.error && !view.data && <LoadError error={view.error} />}
          {view.data && <FileList files={view.data} />}
        </>
      )}
    </section>
  );
}
