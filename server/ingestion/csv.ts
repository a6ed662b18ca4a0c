/**
 * Reading an ERP extract: UTF-8 (a BOM is dropped), `;` or `,` separated (guessed from the first
 * lines), CRLF or LF, quoted cells with line breaks, blank lines skipped. Every row keeps the
 * line it starts on, so each error names a line the ERP team can find in the file. Cells are
 * checked against the column kinds of formats.ts; nothing is guessed or repaired.
 */
import { CsvLineStream } from '../csv/csv-stream';
import { coded, type Coded } from './coded';
import { CODE_MAX, FILE_COLUMNS, FREE_TEXT_MAX, isCalendarDate, isDeliveryStatus, type ColumnSpec, type ErpFileType } from './formats';

export interface LineError extends Coded {
  /** Line of the file (1 = header); null when the error is about the file as a whole. */
  line: number | null;
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
/**
 * The quantity columns are unbounded `numeric`, but reads turn them into doubles (float casts,
 * Number()): 400 digits there is Infinity or 22003 on every later read. At most 15 digits before
 * the point (exact in a double; leading zeros aside) and 6 after it (§5 quantities have 3).
 */
const BOUNDED_NUMBER = /^-?0*\d{1,15}(\.\d{1,6})?$/;
/** A runaway number as quoted in its error: cut short. */
const shown = (raw: string) => (raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
const INTEGER = /^\d{1,9}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Whether a moment falls in the years the database takes as written (an offset may carry 9999-12-31 into year 10000). */
const inYearRange = (iso: string) => {
  const year = new Date(iso).getUTCFullYear();
  return year >= 1 && year <= 9999;
};

const TEXT_KINDS = new Set<ColumnSpec['kind']>(['text', 'email', 'list']);

/** The refusal of a cell longer than `max` characters (code points; UTF-16 units are counted only past `max`). */
function longerThan(spec: ColumnSpec, raw: string, max: number): Coded | null {
  if (raw.length <= max) return null;
  const length = [...raw].length;
  return length > max ? coded('erpTooLong', { column: spec.name, value: shown(raw), length, max }, `${spec.name} "${shown(raw)}" is ${length} characters long; at most ${max} are taken`) : null;
}

function convert(spec: ColumnSpec, raw: string): { value: CellValue } | { error: Coded } {
  if (raw === '') return { value: spec.kind === 'list' ? [] : null };
  // Texts only (numbers, dates and times have shapes of their own); a list holds several codes
  // separated by |, each at most CODE_MAX (below).
  const tooLong = TEXT_KINDS.has(spec.kind) ? longerThan(spec, raw, spec.freeText || spec.kind === 'list' ? FREE_TEXT_MAX : CODE_MAX) : null;
  if (tooLong) return { error: tooLong };
  switch (spec.kind) {
    case 'text':
      return { value: raw };
    case 'email':
      // Compared with signed-in users' addresses, which are kept in lower case.
      return { value: raw.toLowerCase() };
    case 'number':
      if (!NUMBER.test(raw)) return { error: coded('erpNotNumber', { column: spec.name, value: shown(raw) }, `${spec.name} "${raw}" is not a number (digits with an optional . decimal part)`) };
      return BOUNDED_NUMBER.test(raw)
        ? { value: raw }
        : { error: coded('erpOutOfRange', { column: spec.name, value: shown(raw) }, `${spec.name} "${shown(raw)}" is out of range (at most 15 digits before the . and 6 after it)`) };
    case 'integer':
      return INTEGER.test(raw) ? { value: Number(raw) } : { error: coded('erpNotWholeNumber', { column: spec.name, value: shown(raw) }, `${spec.name} "${raw}" is not a whole number`) };
    case 'date':
      return isCalendarDate(raw) ? { value: raw } : { error: coded('erpNotDate', { column: spec.name, value: shown(raw) }, `${spec.name} "${raw}" is not a valid date (YYYY-MM-DD)`) };
    case 'timestamp':
      return TIMESTAMP.test(raw) && !Number.isNaN(Date.parse(raw)) && isCalendarDate(raw.slice(0, 10)) && inYearRange(raw)
        ? { value: new Date(raw).toISOString() }
        : { error: coded('erpNotTime', { column: spec.name, value: shown(raw) }, `${spec.name} "${raw}" is not a valid time (ISO 8601 with Z or an offset, e.g. 2025-06-11T09:30:00Z)`) };
    case 'list': {
      const codes = raw.split('|').map((part) => part.trim()).filter(Boolean);
      for (const code of codes) {
        const error = longerThan(spec, code, CODE_MAX);
        if (error) return { error };
      }
      return { value: codes };
    }
    case 'deliveryStatus':
      return isDeliveryStatus(raw)
        ? { value: raw }
        : { error: coded('erpNotDeliveryStatus', { column: spec.name, value: shown(raw) }, `${spec.name} "${raw}" is not a delivery status (Delivered, Delivery Failed, OnTheWay, ToBePickedUp, At access point)`) };
  }
}

/** A row of the file after its header, as the reader sees it. */
export type RowVerdict = { record: CsvRecord } | { invalid: true } | { header: true } | { stop: true };

/**
 * Checks rows one by one against the file type's columns (the header first). Collects every
 * error with its line; holds no rows itself, so a file of any size is checked in constant memory.
 */
export class ErpRowReader {
  readonly errors: LineError[] = [];
  /** Errors found, listed or not (only the first MAX_LISTED_ERRORS + 1 are kept when `capErrors`). */
  errorCount = 0;
  recordCount = 0;
  private header: { columns: Array<ColumnSpec | null>; width: number } | null = null;

  constructor(
    readonly fileType: ErpFileType,
    private readonly capErrors = false,
  ) {}

  /** "an ORDERS file", "a STOCK file": the file type in the messages. */
  private get aFile(): string {
    return `${/^[AEIOU]/.test(this.fileType) ? 'an' : 'a'} ${this.fileType} file`;
  }

  private fail(error: LineError): void {
    this.errorCount += 1;
    if (!this.capErrors || this.errors.length <= MAX_LISTED_ERRORS) this.errors.push(error);
  }

  /** The columns the header named, in file order (null: a column the file type does not know). */
  get columns(): ReadonlyArray<ColumnSpec | null> | null {
    return this.header?.columns ?? null;
  }

  row(cells: string[], startLine: number): RowVerdict {
    const specs = FILE_COLUMNS[this.fileType];
    if (!this.header) {
      const names = cells.map((cell) => cell.trim().toLowerCase());
      const columns = names.map((name) => specs.find((spec) => spec.name === name || spec.aliases?.includes(name)) ?? null);
      const missing = specs.filter((spec) => spec.required && !columns.includes(spec)).map((spec) => spec.name);
      if (missing.length > 0) {
        this.fail({
          line: startLine,
          ...coded('erpHeaderMissing', { columns: missing.join(', '), fileType: this.fileType }, `The header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${this.aFile}`),
        });
        return { stop: true };
      }
      // A name the file type does not have is most likely a misspelt column ("user_mail"): read as
      // absent, the column it meant would be left as it is and the file's values of it dropped
      // without a word. Refused, naming it. An empty name (a trailing separator) is no column.
      const unknown = names.filter((name, index) => name !== '' && columns[index] === null);
      if (unknown.length > 0) {
        const known = specs.map((spec) => spec.name).join(', ');
        this.fail({
          line: startLine,
          ...coded(
            'erpHeaderUnknown',
            { columns: unknown.join(', '), fileType: this.fileType, known },
            `The header names ${unknown.length > 1 ? 'columns' : 'a column'} ${this.aFile} does not have: ${unknown.join(', ')} (known columns: ${known})`,
          ),
        });
        return { stop: true };
      }
      const duplicate = names.find((name, index) => name !== '' && (names.indexOf(name) !== index || (columns[index] !== null && columns.indexOf(columns[index]!) !== index)));
      if (duplicate) {
        this.fail({ line: startLine, ...coded('erpHeaderTwice', { column: duplicate }, `The header names the column ${duplicate} twice`) });
        return { stop: true };
      }
      this.header = { columns, width: cells.length };
      return { header: true };
    }
    if (cells.length !== this.header.width) {
      this.fail({ line: startLine, ...coded('erpColumnCount', { count: cells.length, expected: this.header.width }, `Unexpected column count ${cells.length} (expected ${this.header.width})`) });
      return { invalid: true };
    }
    const values: Record<string, CellValue> = {};
    let isValid = true;
    for (let index = 0; index < cells.length; index += 1) {
      const spec = this.header.columns[index];
      if (!spec) continue;
      const raw = cells[index]!.trim();
      if (raw === '' && spec.required) {
        this.fail({ line: startLine, ...coded('erpEmptyCell', { column: spec.name }, `${spec.name} is empty`) });
        isValid = false;
        continue;
      }
      const converted = convert(spec, raw);
      if ('error' in converted) {
        this.fail({ line: startLine, ...converted.error });
        isValid = false;
      } else {
        values[spec.name] = converted.value;
      }
    }
    if (!isValid) return { invalid: true };
    this.recordCount += 1;
    return { record: { line: startLine, values } };
  }

  /** A row that never ended within ERP_CSV_GUESS.maxRowChars: reading stopped there. */
  rowTooLong(line: number): void {
    const max = ERP_CSV_GUESS.maxRowChars;
    this.fail({
      line,
      ...coded('erpRowTooLong', { max }, `The row starting on this line is longer than ${max} characters (a quote that is never closed?); the file was read no further`),
    });
  }

  /** After the last row: a file without a header or without lines is an error of its own. */
  finish(): void {
    if (!this.header && this.errorCount === 0) {
      this.fail({ line: null, ...coded('erpFileEmpty', { fileType: this.fileType }, `The file is empty; the first line must name the columns of ${this.aFile}`) });
    } else if (this.header && this.recordCount === 0 && this.errorCount === 0) {
      this.fail({ line: null, ...coded('erpNoLines', {}, 'The file has a header but no lines') });
    }
  }
}

/**
 * How ERP extracts are cut into rows (read-lines.ts / csv-stream.ts). A row is at most
 * maxRowChars characters: the longest the columns allow (FREE_TEXT_MAX, CODE_MAX) is far less.
 */
export const ERP_CSV_GUESS = { delimiters: [';', ','], previewRows: 5, sampleChars: 64 * 1024, maxRowChars: 1_000_000 };

/** Reads a whole file held as text (small files, tests); large files go through parse.ts. */
export function readErpCsv(text: string, fileType: ErpFileType): ReadResult {
  const reader = new ErpRowReader(fileType);
  const records: CsvRecord[] = [];
  const stream = new CsvLineStream(ERP_CSV_GUESS, (cells, line) => {
    const verdict = reader.row(cells, line);
    if ('record' in verdict) records.push(verdict.record);
    return 'stop' in verdict ? 'stop' : undefined;
  }, (line) => reader.rowTooLong(line));
  stream.push(text);
  const { lineCount } = stream.end();
  reader.finish();
  return { records, errors: reader.errors, lineCount };
}

/** The errors as stored: the first MAX_LISTED_ERRORS, then one line saying how many more. */
export function listedErrors(errors: readonly LineError[], total = errors.length): LineError[] {
  if (total <= MAX_LISTED_ERRORS) return [...errors];
  const more = total - MAX_LISTED_ERRORS;
  return [...errors.slice(0, MAX_LISTED_ERRORS), { line: null, ...coded('erpMoreErrors', { count: more }, `… and ${more} more errors`) }];
}
