/** Country filter with suggestions from the server (§7 suggestions/countries), as removable chips. */
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountrySuggestions } from '../api/get-country-suggestions';
import '../priority.css';

/** The country code typed (two letters, any case, spaces around), upper case; null for anything else. */
export function countryOf(typed: string): string | null {
  const country = typed.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(country) ? country : null;
}

export function CountryFilter({ selected, onChange }: { selected: string[]; onChange: (countries: string[]) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  // Not two letters: said at the field, the text kept to correct (it was cleared without a word).
  const [invalid, setInvalid] = useState(false);
  // A removed chip takes its button with it: the focus goes to the country field, not to <body>.
  const inputRef = useRef<HTMLInputElement>(null);
  const suggestions = useCountrySuggestions(typed.trim());
  const options = (suggestions.data ?? []).filter((country) => !selected.includes(country));
  const add = (event: FormEvent) => {
    event.preventDefault();
    const country = countryOf(typed);
    if (country === null) {
      setInvalid(true);
      inputRef.current?.focus();
      return;
    }
    setInvalid(false);
    if (!selected.includes(country)) onChange([...selected, country]);
    setTyped('');
  };
  return (
    <form className="priority-countries" onSubmit={add} role="search" aria-label={t('priority.countries')}>
      <label className="field-label" htmlFor="priority-country">
        {t('priority.countryInput')}
      </label>
      <div className="priority-inline">
        <input
          ref={inputRef}
          id="priority-country"
          type="text"
          list="priority-country-options"
          autoComplete="off"
          maxLength={2}
          placeholder={t('priority.countryPlaceholder')}
          value={typed}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? 'priority-country-error' : undefined}
          onChange={(event) => {
            setTyped(event.target.value);
            setInvalid(false);
          }}
        />
        <datalist id="priority-country-options">
          {options.map((country) => (
            <option key={country} value={country} />
          ))}
        </datalist>
        <button type="submit" className="button">
          {t('priority.addCountry')}
        </button>
      </div>
      {invalid && (
        <span id="priority-country-error" className="field-error" role="alert">
          {t('priority.countryInvalid')}
        </span>
      )}
      {selected.length > 0 && (
        <ul className="priority-chips" aria-label={t('priority.selectedCountries')}>
          {selected.map((country) => (
            <li key={country}>
              <button
                type="button"
                className="priority-chip"
                aria-label={t('priority.removeCountry', { country })}
                onClick={() => {
                  onChange(selected.filter((c) => c !== country));
                  inputRef.current?.focus();
                }}
              >
                {country} <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
