/** /search (§2): the tracking search with the last 10 searches and the §5 guidance. */
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { parseSearch, splitTerms } from '../../../domain/search-language';
import { useSearchHistory } from '../../../lib/search-history';
import { SearchGuidance } from '../components/search-guidance';
import { TrackingSearchForm } from '../components/tracking-search-form';
import { monitorSearchUrl } from '../hooks/use-monitor-state';
import '../tracking.css';

function HistoryEntry({ text, onPick }: { text: string; onPick: () => void }) {
  const { errors } = parseSearch(text);
  const bad = new Set(errors.map((error) => error.index));
  return (
    <button type="button" className="pick history-pick" onClick={onPick} disabled={bad.size > 0}>
      {splitTerms(text).map((term, index) => (
        <span key={index} className={bad.has(index) ? 'search-term bad' : 'search-term'}>
          {term}
        </span>
      ))}
    </button>
  );
}

export default function SearchPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { history, remember } = useSearchHistory('tracking');
  const go = (query: string) => {
    remember(query);
    navigate(monitorSearchUrl(query));
  };
  return (
    <section className="page narrow-page">
      <h1 className="page-title route-title">{t('routes.search')}</h1>
      <TrackingSearchForm initial="" autoFocus label={t('tracking.search.label')} onSearch={go} />
      <h2 className="section-title">{t('tracking.recentSearches')}</h2>
      {history.length === 0 ? (
        <p className="muted">{t('tracking.noRecentSearches')}</p>
      ) : (
        <ul className="pick-list">
          {history.map((item) => (
            <li key={item}>
              <HistoryEntry text={item} onPick={() => go(item)} />
            </li>
          ))}
        </ul>
      )}
      <SearchGuidance />
    </section>
  );
}
