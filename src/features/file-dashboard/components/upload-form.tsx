/** Upload of an ERP extract by stock admins and super managers (#9): queued, then processed. */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { HTTPError } from 'ky';
import { fileUploadRefusal, type FileError, type FileUploadResult } from '../../../contract/dashboard';
import { errorMessage, wordedError } from '../../../lib/api-client';
import { useUploadedFile, useUploadErpFile } from '../api/upload-erp-file';
import { FileCard } from './file-list';
import { FilePicker } from '../../../components/ui/file-picker';

export function UploadForm() {
  const { t } = useTranslation();
  const inputId = useId();
  const hintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<FileUploadResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The lines a refusal names (a 403 for lines outside the uploader's plants), each worded.
  const [refusedLines, setRefusedLines] = useState<FileError[]>([]);
  const upload = useUploadErpFile();
  // The file is followed here to processed or errored, with its errors by line (#16 review: an
  // uploader who does not read the file dashboard saw "queued" and never the outcome).
  const followed = useUploadedFile(result?.file.id ?? null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError(t('files.chooseFirst'));
      return;
    }
    setError(null);
    setRefusedLines([]);
    setResult(null);
    try {
      setResult(await upload.mutateAsync(file));
    } catch (failure) {
      setError(await errorMessage(failure));
      setRefusedLines(await refusedLinesOf(failure));
    }
  };

  return (
    <form className="panel fd-upload" onSubmit={submit} noValidate>
      <h2 className="fd-section-title">{t('files.uploadTitle')}</h2>
      <p className="muted" id={hintId}>
        {t('files.uploadHint')}
      </p>
      <FilePicker id={inputId} label={t('files.chooseFile')} accept=".csv,text/csv" describedBy={hintId} file={file} onChange={setFile} />
      <div className="button-row">
        <button type="submit" className="button primary" disabled={upload.isPending}>
          {upload.isPending ? t('files.uploading') : t('files.upload')}
        </button>
      </div>
      <div aria-live="polite">
        {result && (
          <p className={result.duplicate ? 'fd-notice fd-notice-warning' : 'fd-notice fd-notice-ok'}>
            {result.duplicate
              ? // Another uploader's file is not named (nor shown): only that the content came before.
                result.file.id === null
                ? t('files.duplicateUnnamed', { name: file?.name ?? result.file.file_name })
                : t('files.duplicate', { name: file?.name ?? '', original: result.file.file_name })
              : t('files.queued', { name: result.file.file_name })}
          </p>
        )}
        {followed.data && (
          <ul className="fd-files fd-followed" aria-label={t('files.uploadedFile')}>
            <FileCard file={followed.data} />
          </ul>
        )}
      </div>
      {error && (
        <div className="form-error" role="alert">
          <p>{error}</p>
          {refusedLines.length > 0 && (
            <ul className="fd-refused-lines">
              {refusedLines.map((line, index) => (
                <li key={index}>
                  <span className="fd-error-line">{line.line === null ? t('files.wholeFile') : t('files.line', { line: line.line })}</span>
                  <span>{wordedError(line)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}

/** The lines a refused upload names (its body's `errors`), or none. */
async function refusedLinesOf(failure: unknown): Promise<FileError[]> {
  if (!(failure instanceof HTTPError)) return [];
  const body: unknown = await failure.response
    .clone()
    .json()
    .catch(() => null);
  const parsed = fileUploadRefusal.safeParse(body);
  return parsed.success ? (parsed.data.errors ?? []) : [];
}
