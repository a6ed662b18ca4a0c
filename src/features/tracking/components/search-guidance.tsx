import { useTranslation } from 'react-i18next';
import { SEARCH_FIELDS } from '../../../domain/search-language';

/** §5 guidance: how to write free-text and indexed searches, with every field and its aliases. */
export function SearchGuidance() {
  const { t } = useTranslation();
  return (
    <section className="search-guidance" aria-labelledby="search-guidance-title">
      <h2 id="search-guidance-title" className="section-title">
        {t('tracking.guidance.title')}
      </h2>
      <p>{t('tracking.guidance.words')}</p>
      <p>{t('tracking.guidance.indexed')}</p>
      <p>{t('tracking.guidance.multiWord')}</p>
      <p>{t('tracking.guidance.dates')}</p>
      <table className="alias-table">
        <caption className="visually-hidden">{t('tracking.guidance.fieldsCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('tracking.guidance.field')}</th>
            <th scope="col">{t('tracking.guidance.write')}</th>
          </tr>
        </thead>
        <tbody>
          {SEARCH_FIELDS.map((field) => (
            <tr key={field.key}>
              <td>{t(`tracking.searchField.${field.key}`)}</td>
              <td>
                <code>{field.aliases.map((alias) => (alias.includes(' ') ? alias.replaceAll(' ', '_') : alias)).join(' · ')}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
