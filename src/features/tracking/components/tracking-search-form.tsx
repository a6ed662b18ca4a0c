/**
 * The §5 filter-by control: free text and indexed search (`po>=4500100000 mat=KM123`). Terms are
 * read with the shared parser as the user types; each bad term is highlighted by its index and
 * explained, and a search with a bad term is not sent.
 */
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DELIVERY_STATUS_WORDS, parseSearch, splitTerms, termErrorKey, termErrorParams } from '../../../domain/search-language';
import { useFirstScreenDrawn } from '../../../lib/after-first-screen';
import '../tracking.css';

/** Scan to find an order (#17); lazy, so the scanner and its code rules stay out of this screen's chunk. */
const ScanButton = lazy(() => import('../../../components/scan/scan-button'));

export function TrackingSearchForm({
  initial,
  onSearch,
  onInvalid,
  autoFocus = false,
  label,
}: {
  initial: string;
  onSearch: (query: string) => void;
  /** A search with a bad term was refused (nothing was searched). */
  onInvalid?: (query: string) => void;
  autoFocus?: boolean;
  label: string;
}) {
  const { t } = useTranslation();
  const scanReady = useFirstScreenDrawn();
  const id = useId();
  const [text, setText] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  // The query shown (`initial`) changes after this form's own search, or from elsewhere (Back, a
  // link). Only the latter replaces the text: what was typed after pressing Search, before the
  // list caught up (a slow phone), stays in the field (the screen used to remount the form).
  const [seen, setSeen] = useState(initial);
  /** The queries this form searched that the screen has not shown yet, oldest first. */
  const [sent, setSent] = useState<string[]>([]);
  if (initial !== seen) {
    setSeen(initial);
    const own = sent.lastIndexOf(initial);
    setSent(own >= 0 ? sent.slice(own + 1) : []);
    if (own < 0) {
      setText(initial);
      setSubmitted(false);
    }
  }
  const search = (query: string) => {
    setSent((queries) => [...queries, query]);
    onSearch(query);
  };
  const terms = useMemo(() => splitTerms(text), [text]);
  const { errors } = useMemo(() => parseSearch(text), [text]);
  const errorAt = new Map(errors.map((error) => [error.index, error]));
  const showErrors = submitted && errors.length > 0;
  // A bad delivery status lists what may be typed with each status's name in the user's language.
  const statuses = DELIVERY_STATUS_WORDS.map(([word, status]) => `${word} (${t(`tracking.deliveryStatus.${status}`, { defaultValue: status })})`).join(', ');

  return (
    <form
      className="tracking-search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        if (errors.length === 0) search(text.trim());
        else onInvalid?.(text.trim());
      }}
    >
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="search-form field-first">
        <input
          id={id}
          type="search"
          value={text}
          autoFocus={autoFocus}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('tracking.search.placeholder')}
          aria-invalid={showErrors}
          aria-describedby={showErrors ? `${id}-errors` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setSubmitted(false);
          }}
        />
        <button type="submit" className="button primary">
          {t('common.search')}
        </button>
        {/* The scanner's chunk is fetched once the first screen is drawn (#22). */}
        {scanReady && (
          <Suspense fallback={null}>
            <ScanButton
              title={t('scan.findOrderTitle')}
              onScan={(raw) => {
                void import('../../../domain/scan-codes').then(({ orderSearchFor }) => {
                  const found = orderSearchFor(raw);
                  if (!found) return;
                  setText(found);
                  setSubmitted(true);
                  if (parseSearch(found).errors.length === 0) search(found);
                });
              }}
            />
          </Suspense>
        )}
      </div>
      {terms.length > 0 && (
        <ol className="search-terms" aria-label={t('tracking.search.termsLabel')}>
          {terms.map((term, index) => (
            <li key={`${index}:${term}`} className={errorAt.has(index) ? 'search-term bad' : 'search-term'} data-term-index={index}>
              {term}
            </li>
          ))}
        </ol>
      )}
      {showErrors && (
        <ul id={`${id}-errors`} className="form-error search-errors" role="alert">
          {errors.map((error) => (
            <li key={error.index}>{t(`tracking.search.error.${termErrorKey(error)}`, { ...termErrorParams(error), statuses })}</li>
          ))}
        </ul>
      )}
    </form>
  );
}
