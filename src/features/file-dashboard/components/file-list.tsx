/**
 * The file rows of one day (§3 detail row), grouped by part of the day, each with its status,
 * times, line count and its errors with the line of the file they concern.
 */
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/date-formats';
import { wordedError } from '../../../lib/api-client';
import { formatQuantity } from '../../../domain/quantity';
import type { FileRow } from '../../../contract/dashboard';
import { FILE_PARTS_OF_DAY } from '../../../domain/constants';

export function FileCard({ file }: { file: FileRow }) {
  const { t, i18n } = useTranslation();
  // The house's moment format (decision 0020): a file of the day processed after midnight shows its date.
  const time = (iso: string | null) => (iso ? formatDateTime(iso) : '–');
  return (
    <li className={`fd-file fd-file-${file.status}`}>
      <div className="fd-file-head">
        <span className={`fd-chip fd-${file.status}`}>{t(`files.status.${file.status}`)}</span>
        <span className="fd-file-type">{file.file_type}</span>
      </div>
      <p className="fd-file-name">{file.file_name}</p>
      {file.start_date === null && file.line_count === null ? (
        <p className="fd-expected">{t(file.status === 'missing' ? 'files.neverArrived' : file.id === null ? 'files.notYetArrived' : 'files.waiting')}</p>
      ) : (
        <dl className="fd-file-facts">
          <div>
            <dt>{t('files.started')}</dt>
            <dd>{time(file.start_date)}</dd>
          </div>
          <div>
            <dt>{t('files.finished')}</dt>
            <dd>{time(file.end_date)}</dd>
          </div>
          <div>
            <dt>{t('files.lines')}</dt>
            {/* "12.345" in German, "12,345" in English: the user's way of writing a number. */}
            <dd>{file.line_count === null ? '–' : formatQuantity(file.line_count, i18n.language)}</dd>
          </div>
        </dl>
      )}
      {file.errors.length > 0 && (
        <div className="fd-errors">
          <p className="fd-errors-title">{t('files.errorsTitle', { n: formatQuantity(file.errors.length, i18n.language) })}</p>
          <ul>
            {file.errors.map((error, index) => (
              <li key={index}>
                <span className="fd-error-line">{error.line === null ? t('files.wholeFile') : t('files.line', { line: error.line })}</span>
                {/* The server's English, worded in the reader's language where the app knows its code. */}
                <span>{wordedError(error)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}

/** `level`: the parts' heading level, one below the heading the list sits under. */
export function FileList({ files, level = 2 }: { files: readonly FileRow[]; level?: 2 | 3 }) {
  const { t } = useTranslation();
  const Heading = level === 3 ? 'h3' : 'h2';
  if (files.length === 0) return <p className="muted">{t('files.noFilesDay')}</p>;
  return (
    <>
      {FILE_PARTS_OF_DAY.map((part) => {
        const ofPart = files.filter((f) => f.file_part_of_day === part);
        if (ofPart.length === 0) return null;
        return (
          <section key={part} className="fd-part" aria-labelledby={`fd-part-${part}`}>
            <Heading id={`fd-part-${part}`} className="fd-part-title">
              {t(`files.part.${part}`)}
            </Heading>
            <ul className="fd-files">
              {ofPart.map((file, index) => (
                <FileCard key={file.id ?? `${file.file_name}-${index}`} file={file} />
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}
