import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchFieldTable } from '../../../components/search-field-table';
import '../tracking.css';

/** A field name of several words is joined with _ here, as the guidance's first example shows. */
const joined = (alias: string) => alias.replaceAll(' ', '_');

/**
 * An alias that may wrap after its underscores (#21): on a phone "equipment_description" breaks
 * into "equipment_" and "description" instead of widening the table past the screen.
 */
function Alias({ alias }: { alias: string }) {
  const words = joined(alias).split(/(?<=_)/);
  return (
    <>
      {words.map((word, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {word}
        </Fragment>
      ))}
    </>
  );
}

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
        renderAliases={(aliases) => (
          <code>
            {aliases.map((alias, index) => (
              <Fragment key={alias}>
                {index > 0 && ' · '}
                <Alias alias={alias} />
              </Fragment>
            ))}
          </code>
        )}
      />
    </section>
  );
}
