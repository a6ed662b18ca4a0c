import { useTranslation } from 'react-i18next';
import { PastEndNotice } from '../../../components/ui/past-end-notice';

/**
 * The monitor's notice for a page past the list's end. Past the count's cap (docs/decisions/0021)
 * the pages it can tell are a lower bound, and "this list has 50 pages" was not true: it says
 * "at least" then, in the shared notice's form (components/ui/past-end-notice.tsx).
 */
export function MonitorPastEndNotice({ page, pages, atLeast, onFirstPage }: { page: number; pages: number; atLeast: boolean; onFirstPage: () => void }) {
  const { t } = useTranslation();
  if (!atLeast) return <PastEndNotice page={page} pages={pages} onFirstPage={onFirstPage} />;
  return (
    <div className="notice" role="alert">
      <span>{t('tracking.invalidPageAtLeast', { page, count: Math.max(1, pages) })}</span>
      <button type="button" className="button small" onClick={onFirstPage}>
        {t('tracking.firstPage')}
      </button>
    </div>
  );
}
