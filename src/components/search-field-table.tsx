/**
 * §5: every search field with the aliases a person may type, straight from the search language,
 * so the search screen's guidance and the help page list the same fields. Each screen words its
 * own caption and headers and shows the aliases its text teaches (quoted or joined with _).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_FIELDS } from '../domain/search-language';

export function SearchFieldTable({
  className,
  caption,
  fieldHeader,
  aliasHeader,
  renderAliases,
}: {
  className: string;
  caption: string;
  fieldHeader: string;
  aliasHeader: string;
  renderAliases: (aliases: readonly string[]) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <table className={className}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{fieldHeader}</th>
          <th scope="col">{aliasHeader}</th>
        </tr>
      </thead>
      <tbody>
        {SEARCH_FIELDS.map((field) => (
          <tr key={field.key}>
            <td>{t(`tracking.searchField.${field.key}`)}</td>
            <td>{renderAliases(field.aliases)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
