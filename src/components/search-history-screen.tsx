/** A search screen with the last 10 searches of its area (§9): stock, material counts, … */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface SearchHistoryScreenProps {
  title: string;
  label: string;
  placeholder: string;
  help: string;
  history: string[];
  onSearch: (term: string) => void;
  /** The search in force where the screen was opened from, to refine it rather than retype it. */
  initial?: string;
  /** The longest search the list takes: longer typing is held here, not refused by the server in English. */
  maxLength?: number;
}

export function SearchHistoryScreen({ title, label, placeholder, help, history, onSearch, initial = '', maxLength }: SearchHistoryScreenProps) {
  const { t } = useTranslation();
  const [term, setTerm] = useState(initial);
  return (
    <section className="page narrow-page">
      {/* The route's own title: on a phone the top bar shows it, so the heading is for screen readers there (#21). */}
      <h1 className="page-title route-title">{title}</h1>
      <form
        className="search-form field-first"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (term.trim()) onSearch(term);
        }}
      >
        <label className="visually-hidden" htmlFor="history-search">
          {label}
        </label>
        <input id="history-search" type="search" value={term} maxLength={maxLength} autoFocus placeholder={placeholder} onChange={(event) => setTerm(event.target.value)} />
        <button type="submit" className="button primary">
          {t('common.search')}
        </button>
      </form>
      <p className="muted small">{help}</p>
      <h2 className="section-title">{t('stockCount.recentSearches')}</h2>
      {history.length === 0 ? (
        <p className="muted">{t('stockCount.noRecentSearches')}</p>
      ) : (
        <ul className="pick-list">
          {history.map((item) => (
            <li key={item}>
              <button type="button" className="pick" onClick={() => onSearch(item)}>
                {item}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
