/**
 * Checked ERP rows as lines of PostgreSQL's COPY text format, for the staging table of one file
 * (staging.ts). Pure functions: they run in the parse worker thread (parse-worker.ts) as well as
 * on the main thread for small files. The staging table has a column `line` (the file line the
 * row starts on, for error messages) and one typed column per column of the file type; a column
 * the file does not have is NULL (a list: empty).
 */
import type { CellValue, CsvRecord } from './csv';
import { FILE_COLUMNS, type CellKind, type ErpFileType } from './formats';

const SQL_TYPES: Record<CellKind, string> = {
  text: 'text',
  number: 'numeric',
  integer: 'integer',
  date: 'date',
  timestamp: 'timestamptz',
  list: 'text[]',
  deliveryStatus: 'text',
  email: 'text',
};

/** The staging columns of a file type, after `line`. */
export const stagingColumns = (fileType: ErpFileType): ReadonlyArray<{ name: string; type: string }> =>
  FILE_COLUMNS[fileType].map((spec) => ({ name: spec.name, type: SQL_TYPES[spec.kind] }));

/** A value escaped for COPY's text format (backslash, tab, line breaks). */
const escapeCopy = (value: string): string => (/[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : value);

/** A text[] literal: every element quoted, its quotes and backslashes escaped. */
const arrayLiteral = (values: readonly string[]): string => `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;

function cell(value: CellValue | undefined, kind: CellKind): string {
  if (kind === 'list') return escapeCopy(arrayLiteral(Array.isArray(value) ? value : []));
  if (value === null || value === undefined) return '\\N';
  return escapeCopy(String(value));
}

/** Encodes records of one file type as COPY text lines (each ends with \n). */
export function stagingLines(fileType: ErpFileType): (record: CsvRecord) => string {
  const specs = FILE_COLUMNS[fileType];
  return (record) => {
    let out = String(record.line);
    for (const spec of specs) out += `\t${cell(record.values[spec.name], spec.kind)}`;
    return `${out}\n`;
  };
}
