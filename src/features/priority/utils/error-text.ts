/** An upload error's text as the user reads it: on screen and in the error CSV alike. */
import type { TFunction } from 'i18next';
import type { UploadLineError } from '../../../contract/priority';

/** A known error in the user's language (priority.upload.error.<code>); others as the server words them. */
export function errorText(error: UploadLineError, t: TFunction): string {
  if (error.code) return t(`priority.upload.error.${error.code}`, { ...error.params, defaultValue: error.message });
  return error.message;
}
