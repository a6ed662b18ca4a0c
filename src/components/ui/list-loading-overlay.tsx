import { useIsFetching } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner';

/**
 * §2: an overlay labelled for listing items while any main list is querying: one that has nothing
 * to show yet, or one a change made stale (invalidated). A list refreshing in the background what
 * it shows (the file dashboard following files every 5 s, a refetch on coming back to the tab) is
 * not listing: the overlay flashed over the screen at each of them.
 */
export function ListLoadingOverlay() {
  const { t } = useTranslation();
  const fetching = useIsFetching({
    predicate: (query) => query.meta?.mainList === true && (query.state.data === undefined || query.state.isInvalidated),
  });
  if (fetching === 0) return null;
  return (
    <div className="list-loading-overlay">
      <Spinner label={t('loading.listingItems')} />
      <span>{t('loading.listingItems')}</span>
    </div>
  );
}
