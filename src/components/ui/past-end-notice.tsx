import { useTranslation } from 'react-i18next';

/**
 * A list opened on a page past its end (an old or shared address, the last row of the last page
 * removed): says so, with the way back to page 1, where the list would say it is empty. Past the
 * count's cap (docs/decisions/0021) the pages it can tell are a lower bound (`atLeast`), and "this
 * list has 50 pages" was not true: it says "at least" then.
 */
export function PastEndNotice({ page, pages, atLeast = false, onFirstPage }: { page: number; pages: number; atLeast?: boolean; onFirstPage: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="notice" role="alert">
      <span>{t(atLeast ? 'tracking.invalidPageAtLeast' : 'tracking.invalidPage', { page, count: Math.max(1, pages) })}</span>
      <button type="button" className="button small" onClick={onFirstPage}>
        {t('tracking.firstPage')}
      </button>
    </div>
  );
}
