import { useIsFetching } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner';

/**
 * §2: an overlay labelled for listing items while any main list is querying. A list that follows
 * changes on a timer (the file dashboard, every 5 s while files are processed) is not listing
 * when it refreshes what it shows: the overlay flashed over the screen at each of its refetches.
 */
export function ListLoadingOverlay() {
  const { t } = useTranslation();
  const fetching = useIsFetching({
    predicate: (query) => query.meta?.mainList === true && !(query.meta.follow === true && query.state.data !== undefined),
  });
  if (fetching === 0) return null;
  return (
    <div className="list-loading-overlay">
      <Spinner label={t('loading.listingItems')} />
      <span>{t('loading.listingItems')}</span>
    </div>
  );
}
