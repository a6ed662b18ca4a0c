import { useTranslation } from 'react-i18next';
import { expectPage } from '../../lib/page-arrival';

/**
 * "Load more" under the last loaded page (§2), `page` being that page: the page it asks for takes
 * the focus once drawn (lib/page-arrival.ts), since this button leaves with the click.
 */
export function LoadMoreButton({ page, onLoadMore, label, className = 'button' }: { page: number; onLoadMore: () => void; label?: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        expectPage(page + 1);
        onLoadMore();
      }}
    >
      {label ?? t('tracking.loadMore')}
    </button>
  );
}
