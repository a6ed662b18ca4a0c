/**
 * A list's answer for screen readers (visually hidden), one for every list: always in the page, so
 * a screen reader reads it when its text changes to "25 results" or "No items found" as the answer
 * arrives; empty while there is none (`count` undefined). `capped`: the count is a lower bound
 * ("1,000+ results"). `empty`: the list's own words for no result.
 */
import { useTranslation } from 'react-i18next';

export function ResultsStatus({ count, capped = false, empty }: { count: number | undefined; capped?: boolean; empty?: string }) {
  const { t, i18n } = useTranslation();
  const said =
    count === undefined
      ? ''
      : count === 0
        ? (empty ?? t('common.noItems'))
        : capped
          ? t('common.resultCountAtLeast', { value: new Intl.NumberFormat(i18n.language).format(count) })
          : t('common.resultCount', { count });
  return (
    <p className="visually-hidden" role="status">
      {said}
    </p>
  );
}
