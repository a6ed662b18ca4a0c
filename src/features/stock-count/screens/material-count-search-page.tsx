/** /material-count-search/{id}: search the lines of a count, with the last 10 searches (§9). */
import { lazy, Suspense } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSearchHistory } from '../../../lib/search-history';
import { SearchHistoryScreen } from '../../../components/search-history-screen';
import { STOCK_QUERY_MAX_LENGTH } from '../../../contract/stock';
// Its own rules (the Scan button and the way back spaced as a row): opened first, no other count screen brought them.
import '../stock-count.css';

/** Lazy (#17): the scanner is its own chunk. */
const ScanButton = lazy(() => import('../../../components/scan/scan-button'));

export default function MaterialCountSearchPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { history, remember } = useSearchHistory('materialCount');
  return (
    <>
      <SearchHistoryScreen
        title={t('routes.materialCountSearch')}
        label={t('stockCount.searchLabel')}
        placeholder={t('stockCount.searchPlaceholder')}
        help={t('stockCount.searchHelp')}
        history={history}
        initial={params.get('q') ?? ''}
        maxLength={STOCK_QUERY_MAX_LENGTH}
        onSearch={(value) => {
          remember(value);
          navigate(`/mechanic-view/${id}?q=${encodeURIComponent(value.trim())}`);
        }}
      />
      <div className="page narrow-page count-search-extras">
        <Suspense fallback={null}>
          <ScanButton title={t('scan.findLineTitle', { id })} onScan={(code) => navigate(`/mechanic-view/${id}?scan=${encodeURIComponent(code)}`)} />
        </Suspense>
        <Link className="button ghost" to={`/mechanic-view/${id}`}>
          {t('stockCount.backToCount', { id })}
        </Link>
      </div>
    </>
  );
}
