/**
 * Reading an ERP extract: UTF-8 (a BOM is dropped), `;` or `,` separated (guessed from the first
 * lines), CRLF or LF, quoted cells with line breaks, blank lines skipped. Every row keeps the
 * line it starts on, so each error names a line the ERP team can find in the file. Cells are
 * checked against the column kinds of formats.ts; nothing is guessed or repaired.
 */
import { stepCsvLines } from '../csv/read-lines';
import { FILE_COLUMNS, isCalendarDate, isDeliveryStatus, type ColumnSpec, type ErpFileType } from './formats';

export interface LineError {
  /** Line of the file (1 = header); null when the error is about the file as a whole. */
  line: number | null;
  message: string;
}

export type CellValue = string | number | string[] | null;

export interface CsvRecord {
  line: number;
  values: Record<string, CellValue>;
}

export interface ReadResult {
  records: CsvRecord[];
  errors: LineError[];
  /** Lines of the file, header and blank lines included. */
  lineCount: number;
}

/** More errors than this are counted, not listed: the first ones already say what is wrong. */
export const MAX_LISTED_ERRORS = 200;

const NUMBER = /^-?\d+(\.\d+)?$/;
const INTEGER = /^\d{1,9}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

function convert(spec: ColumnSpec, raw: string): { value: CellValue } | { error: string } {
  if (raw === '') return { value: spec.kind === 'list' ? [] : null };
  switch (spec.kind) {
    case 'text':
      return { value: raw };
    case 'number':
      return NUMBER.test(raw) ? { value: raw } : { error: `${spec.name} "${raw}" is not a number (digits with an optional . decimal part)` };
    case 'integer':
      return INTEGER.test(raw) ? { value: Number(raw) } : { error: `${spec.name} "${raw}" is not a whole number` };
    case 'date':
      return isCalendarDate(raw) ? { value: raw } : { error: `${spec.name} "${raw}" is not a valid date (YYYY-MM-DD)` };
    case 'timestamp':
      return TIMESTAMP.test(raw) && !Number.isNaN(Date.parse(raw)) && isCalendarDate(raw.slice(0, 10))
        ? { value: new Date(raw).toISOString() }
        : { error: `${spec.name} "${raw}" is not a valid time (ISO 8601 with Z or an offset, e.g. 2025-06-11T09:30:00Z)` };
    case 'list':
      return { value: raw.split('|').map((part) => part.trim()).filter(Boolean) };
    case 'deliveryStatus':
      return isDeliveryStatus(raw) ? { value: raw } : { error: `${spec.name} "${raw}" is not a delivery status (Delivered, Delivery Failed, OnTheWay, ToBePickedUp, At access point)` };
  }
}

export function readErpCsv(text: string, fileType: ErpFileType): ReadResult {
  const specs = FILE_COLUMNS[fileType];
  const errors: LineError[] = [];
  const records: CsvRecord[] = [];
  let header: { columns: Array<ColumnSpec | null>; width: number } | null = null;

  const read = stepCsvLines(text, { delimiters: [';', ','], previewRows: 5, sampleChars: 64 * 1024 }, (cells, startLine, parser) => {
    if (!header) {
      const names = cells.map((cell) => cell.trim().toLowerCase());
      const columns = names.map((name) => specs.find((spec) => spec.name === name) ?? null);
      const missing = specs.filter((spec) => spec.required && !names.includes(spec.name)).map((spec) => spec.name);
      if (missing.length > 0) {
        errors.push({
          line: startLine,
          message: `The header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of a ${fileType} file`,
        });
        parser.abort();
        return;
      }
      const duplicate = names.find((name, index) => name !== '' && names.indexOf(name) !== index);
      if (duplicate) {
        errors.push({ line: startLine, message: `The header names the column ${duplicate} twice` });
        parser.abort();
        return;
      }
      header = { columns, width: cells.length };
      return;
    }
    if (cells.length !== header.width) {
      errors.push({ line: startLine, message: `Unexpected column count ${cells.length} (expected ${header.width})` });
      return;
    }
    const values: Record<string, CellValue> = {};
    let isValid = true;
    for (let index = 0; index < cells.length; index += 1) {
      const spec = header.columns[index];
      if (!spec) continue;
      const raw = cells[index]!.trim();
      if (raw === '' && spec.required) {
        errors.push({ line: startLine, message: `${spec.name} is empty` });
        isValid = false;
        continue;
      }
      const converted = convert(spec, raw);
      if ('error' in converted) {
        errors.push({ line: startLine, message: converted.error });
        isValid = false;
      } else {
        values[spec.name] = converted.value;
      }
    }
    if (isValid) records.push({ line: startLine, values });
  });

  if (!header && errors.length === 0) errors.push({ line: null, message: `The file is empty; the first line must name the columns of a ${fileType} file` });
  else if (header && records.length === 0 && errors.length === 0) errors.push({ line: null, message: 'The file has a header but no lines' });
  return { records, errors, lineCount: read.endsWithNewline ? read.nextLine - 1 : read.nextLine };
}

/** The errors as stored: the first MAX_LISTED_ERRORS, then one line saying how many more. */
export function listedErrors(errors: readonly LineError[]): LineError[] {
  if (errors.length <= MAX_LISTED_ERRORS) return [...errors];
  return [...errors.slice(0, MAX_LISTED_ERRORS), { line: null, message: `… and ${errors.length - MAX_LISTED_ERRORS} more errors` }];
}
