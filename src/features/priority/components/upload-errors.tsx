/** Every failing row with its reason, and the same as a CSV to download and fix the file with. */
import { useTranslation } from 'react-i18next';
import type { UploadLineError } from '../../../contract/priority';
import { buildErrorCsv, downloadCsv } from '../utils/error-csv';
import { errorText } from '../utils/error-text';
import '../priority.css';

/** Rendering more rows than this makes the dialog slow; the CSV always has every error. */
const SHOWN = 1000;

export function UploadErrors({ errors, fileName }: { errors: UploadLineError[]; fileName: string }) {
  const { t } = useTranslation();
  if (errors.length === 0) return null;
  const base = fileName.replace(/\.csv$/i, '');
  return (
    <section aria-labelledby="priority-errors-title" className="priority-errors">
      <div className="priority-section-head">
        <h3 id="priority-errors-title" className="section-title">
          {t('priority.upload.errorsTitle', { count: errors.length })}
        </h3>
        <button type="button" className="button" onClick={() => downloadCsv(`${base}-errors.csv`, buildErrorCsv(errors, t))}>
          {t('priority.upload.downloadErrors')}
        </button>
      </div>
      <ul className="priority-error-list">
        {errors.slice(0, SHOWN).map((error, index) => (
          <li key={`${error.line}-${index}`}>
            <strong>{t('priority.upload.errorLine', { line: error.line })}</strong>
            {error.column && <span className="muted"> · {error.column}</span>}
            <span>: {errorText(error, t)}</span>
          </li>
        ))}
      </ul>
      {errors.length > SHOWN && <p className="muted small">{t('priority.upload.errorsMore', { shown: SHOWN, total: errors.length })}</p>}
    </section>
  );
}
