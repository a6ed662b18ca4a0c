import { useTranslation } from 'react-i18next';

/**
 * A list opened on a page past its end (an old or shared address, the last row of the last page
 * removed): says so, with the way back to page 1, where the list would say it is empty.
 */
export function PastEndNotice({ page, pages, onFirstPage }: { page: number; pages: number; onFirstPage: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="notice" role="alert">
      <span>{t('tracking.invalidPage', { page, count: Math.max(1, pages) })}</span>
      <button type="button" className="button small" onClick={onFirstPage}>
        {t('tracking.firstPage')}
      </button>
    </div>
  );
}
