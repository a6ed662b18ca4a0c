/**
 * §5 search help, generated from the search language itself (src/domain/search-language.ts):
 * every field with its aliases, every operator with its meaning, and examples that the unit
 * test reads back through the same parser, so the help can never teach a search that fails.
 */
import { useTranslation } from 'react-i18next';
import { OPERATORS, OPERATOR_SUFFIXES } from '../../../domain/search-language';
import { SearchFieldTable } from '../../../components/search-field-table';

/** Written as a person types them; search-help.test.ts parses each one. */
export const SEARCH_EXAMPLES = ['door motor', 'po=4500100345', 'dd>=01.11.2026', 'plant=FI01 sloc=V001', 'dl!=delivered', '"material description"=cable'] as const;

/** A field name of several words is written in quotes here, as the tips teach. */
const quoted = (alias: string) => (alias.includes(' ') ? `"${alias}"` : alias);

export function SearchHelp() {
  const { t } = useTranslation();
  return (
    <section className="panel" aria-labelledby="search-help-title">
      <h2 id="search-help-title" className="section-title">
        {t('help.search.title')}
      </h2>
      <h3>{t('help.search.freeTitle')}</h3>
      <p>{t('help.search.free')}</p>
      <h3>{t('help.search.indexedTitle')}</h3>
      <p>{t('help.search.indexed')}</p>
      <ul className="example-list">
        {SEARCH_EXAMPLES.map((example) => (
          <li key={example}>
            <code>{example}</code>
          </li>
        ))}
      </ul>
      <div className="table-wrap">
        <table className="data-table">
          <caption className="visually-hidden">{t('help.search.operatorsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('help.search.operator')}</th>
              <th scope="col">{t('help.search.meaning')}</th>
            </tr>
          </thead>
          <tbody>
            {OPERATORS.map((operator) => (
              <tr key={operator}>
                <td>
                  <code>{operator}</code>
                </td>
                <td>{t(`help.search.operators.${OPERATOR_SUFFIXES[operator].slice(1)}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="table-wrap">
        <SearchFieldTable
          className="data-table"
          caption={t('help.search.fieldsCaption')}
          fieldHeader={t('help.search.field')}
          aliasHeader={t('help.search.aliases')}
          renderAliases={(aliases) =>
            aliases.map((alias, index) => (
              <span key={alias}>
                {index > 0 && ' · '}
                <code>{quoted(alias)}</code>
              </span>
            ))
          }
        />
      </div>
      <h3>{t('help.search.tipsTitle')}</h3>
      <ul>
        <li>{t('help.search.tipWords')}</li>
        <li>{t('help.search.tipDates')}</li>
        <li>{t('help.search.tipErrors')}</li>
      </ul>
    </section>
  );
}
