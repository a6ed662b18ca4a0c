/** An upload error's text as the user reads it: on screen and in the error CSV alike. */
import type { TFunction } from 'i18next';
import { CSV_DELIMITER_NAMES, type UploadErrorParams, type UploadLineError } from '../../../contract/priority';

const isDelimiterName = (value: unknown): value is (typeof CSV_DELIMITER_NAMES)[number] => (CSV_DELIMITER_NAMES as readonly unknown[]).includes(value);

/**
 * The params as the user reads them: the delimiter the file was read with (extraCells) is a name
 * the server sends ("semicolon"), worded here in the user's language.
 */
function wordedParams(params: UploadErrorParams | undefined, t: TFunction): UploadErrorParams {
  const delimiter = params?.delimiter;
  if (!isDelimiterName(delimiter)) return { ...params };
  return { ...params, delimiter: t(`priority.upload.delimiter.${delimiter}`, { defaultValue: delimiter }) };
}

/** A known error in the user's language (priority.upload.error.<code>); others as the server words them. */
export function errorText(error: UploadLineError, t: TFunction): string {
  if (error.code) return t(`priority.upload.error.${error.code}`, { ...wordedParams(error.params, t), defaultValue: error.message });
  return error.message;
}
