/** /stock-management-search: search stock, with the last 10 searches (§9). */
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSearchHistory } from '../../../lib/search-history';
import { SearchHistoryScreen } from '../../../components/search-history-screen';
import { STOCK_QUERY_MAX_LENGTH } from '../../../contract/stock';

export default function StockSearchPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tab = params.get('tab') ?? 'my_stock';
  const { history, remember } = useSearchHistory('stock');
  return (
    <SearchHistoryScreen
      title={t('routes.stockManagementSearch')}
      label={t('stock.searchLabel')}
      placeholder={t('stock.searchPlaceholder')}
      help={t('stock.searchHelp')}
      history={history}
      initial={params.get('q') ?? ''}
      maxLength={STOCK_QUERY_MAX_LENGTH}
      onSearch={(value) => {
        remember(value);
        navigate(`/stock-management?tab=${encodeURIComponent(tab)}&q=${encodeURIComponent(value.trim())}`);
      }}
    />
  );
}
