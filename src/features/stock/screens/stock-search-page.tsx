/** /stock-management-search: search stock, with the last 10 searches (§9). */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSearchHistory } from '../../../lib/search-history';

export default function StockSearchPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tab = params.get('tab') ?? 'my_stock';
  const { history, remember } = useSearchHistory('stock');
  const [term, setTerm] = useState('');
  const go = (value: string) => {
    remember(value);
    navigate(`/stock-management?tab=${encodeURIComponent(tab)}&q=${encodeURIComponent(value.trim())}`);
  };
  return (
    <section className="page narrow-page">
      <h1 className="page-title">{t('routes.stockManagementSearch')}</h1>
      <form
        className="search-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (term.trim()) go(term);
        }}
      >
        <label className="visually-hidden" htmlFor="stock-search">
          {t('stock.searchLabel')}
        </label>
        <input id="stock-search" type="search" value={term} autoFocus placeholder={t('stock.searchPlaceholder')} onChange={(event) => setTerm(event.target.value)} />
        <button type="submit" className="button primary">
          {t('common.search')}
        </button>
      </form>
      <p className="muted small">{t('stock.searchHelp')}</p>
      <h2 className="section-title">{t('stockCount.recentSearches')}</h2>
      {history.length === 0 ? (
        <p className="muted">{t('stockCount.noRecentSearches')}</p>
      ) : (
        <ul className="pick-list">
          {history.map((item) => (
            <li key={item}>
              <button type="button" className="pick" onClick={() => go(item)}>
                {item}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
