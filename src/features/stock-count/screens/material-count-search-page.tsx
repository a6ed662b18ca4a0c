/** /material-count-search/{id}: search the lines of a count, with the last 10 searches (§9). */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSearchHistory } from '../../../lib/search-history';

export default function MaterialCountSearchPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const { history, remember } = useSearchHistory('materialCount');
  const [term, setTerm] = useState('');
  const go = (value: string) => {
    remember(value);
    navigate(`/mechanic-view/${id}?q=${encodeURIComponent(value.trim())}`);
  };
  return (
    <section className="page narrow-page">
      <h1 className="page-title">{t('routes.materialCountSearch')}</h1>
      <form
        className="search-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (term.trim()) go(term);
        }}
      >
        <label className="visually-hidden" htmlFor="count-search">
          {t('stockCount.searchLabel')}
        </label>
        <input
          id="count-search"
          type="search"
          value={term}
          autoFocus
          placeholder={t('stockCount.searchPlaceholder')}
          onChange={(event) => setTerm(event.target.value)}
        />
        <button type="submit" className="button primary">
          {t('common.search')}
        </button>
      </form>
      <p className="muted small">{t('stockCount.searchHelp')}</p>
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
      <Link to={`/mechanic-view/${id}`}>{t('stockCount.backToCount', { id })}</Link>
    </section>
  );
}
