import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Previous / "Page n of m" / Next under a paged list. `label` replaces the page text when a screen shows a range. */
export function Pager({
  page,
  pages,
  hasPrev,
  hasNext,
  onPrevious,
  onNext,
  label,
}: {
  page: number;
  pages: number;
  hasPrev: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  label?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <nav className="pager" aria-label={t('common.pages')}>
      <button type="button" className="button" disabled={!hasPrev} onClick={onPrevious}>
        {t('common.previous')}
      </button>
      <span>{label ?? t('common.pageOf', { page, pages })}</span>
      <button type="button" className="button" disabled={!hasNext} onClick={onNext}>
        {t('common.next')}
      </button>
    </nav>
  );
}
