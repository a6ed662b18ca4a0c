/**
 * /file-dashboard (§2): hand in an ERP file (stock admins, super managers) and follow today's
 * files as they are processed (super managers of both kinds may read the dashboard, §6).
 */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatDayHeading } from '../../../lib/date-formats';
import { can } from '../../../domain/permissions';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useBusinessToday, useDayFiles } from '../api/dashboard-views';
import { FileList } from '../components/file-list';
import { UploadForm } from '../components/upload-form';
import '../file-dashboard.css';

export default function FileDashboardPage() {
  const { t } = useTranslation();
  const { email, permissions } = useProfile();
  const online = useOnline();
  const mayRead = can(permissions, 'fileDashboard.read');
  const mayUpload = can(permissions, 'fileIngestion.upload');
  // The ERP schedule's day (near midnight not the device's).
  const today = useBusinessToday();
  // Read again while shown (faster while a file is processed): empty slots turn missing, new files appear.
  const view = useDayFiles(email, today, mayRead);

  if (!mayRead && !mayUpload) {
    return (
      <section className="page">
        <h1 className="page-title route-title">{t('routes.fileDashboard')}</h1>
        <p className="muted">{t('guard.notAllowedText')}</p>
      </section>
    );
  }
  return (
    <section className="page fd-page">
      <div className="fd-title-row">
        <h1 className="page-title route-title">{t('routes.fileDashboard')}</h1>
        {mayRead && (
          <Link className="button small" to="/dashboard">
            {t('files.overview')}
          </Link>
        )}
      </div>
      {(view.isOfflineCopy || !online) && mayRead && <OfflineBanner savedAt={view.savedAt} />}
      {mayUpload && <UploadForm />}
      {mayRead && (
        <section aria-labelledby="fd-today">
          <h2 id="fd-today" className="fd-section-title">
            {t('files.today', { date: formatDayHeading(today) })}
          </h2>
          {view.isLoading && <Spinner label={t('loading.listingItems')} />}
          {/* A failure (or offline with nothing saved) is not a quiet day: it says so. */}
          {view.error && !view.data && <LoadError error={view.error} />}
          {view.data && <FileList files={view.data} level={3} />}
        </section>
      )}
    </section>
  );
}
