import { useTranslation } from 'react-i18next';
import { SearchFieldTable } from '../../../components/search-field-table';
import '../tracking.css';

/** A field name of several words is joined with _ here, as the guidance's first example shows. */
const joined = (alias: string) => alias.replaceAll(' ', '_');

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
      <SearchFieldTable
        className="alias-table"
        caption={t('tracking.guidance.fieldsCaption')}
        fieldHeader={t('tracking.guidance.field')}
        aliasHeader={t('tracking.guidance.write')}
        renderAliases={(aliases) => <code>{aliases.map(joined).join(' · ')}</code>}
      />
    </section>
  );
}
