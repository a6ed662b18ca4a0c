/**
 * The error CSV a user downloads to fix a refused file. Values come from the user's file, so
 * formula-like cells are neutralised (a leading quote) before a spreadsheet opens them.
 */
import type { TFunction } from 'i18next';
import type { UploadLineError } from '../../../contract/priority';
import { toCsvLine } from '../../../domain/priority';
import { errorText } from './error-text';

/** `t`: the messages are the ones the screen lists, in the user's language (not the server's English). */
export function buildErrorCsv(errors: readonly UploadLineError[], t: TFunction): string {
  const lines = [toCsvLine(['line', 'column', 'value', 'message']), ...errors.map((e) => toCsvLine([e.line, e.column, e.value, errorText(e, t)]))];
  // The BOM makes spreadsheet programs read the file as UTF-8.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Let the browser start the download before the address goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
