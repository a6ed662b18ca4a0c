import { useIsFetching } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner';

/** §2: an overlay labelled for listing items while any main list is querying. */
export function ListLoadingOverlay() {
  const { t } = useTranslation();
  const fetching = useIsFetching({ predicate: (query) => query.meta?.mainList === true });
  if (fetching === 0) return null;
  return (
    <div className="list-loading-overlay">
      <Spinner label={t('loading.listingItems')} />
      <span>{t('loading.listingItems')}</span>
    </div>
  );
}
