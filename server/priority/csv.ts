/**
 * Reading a priority CSV the way people really save them: UTF-8 with or without a BOM (Excel
 * adds one), ; or , or tab separated (guessed by papaparse from the first lines), CRLF or LF,
 * quoted cells with line breaks in them, blank lines anywhere. Each row keeps the line of the
 * file it starts on, so every error names a line the user can find in their editor.
 * Anything we cannot read at all is a refusal (CsvRefusal → 422), never a guess.
 */
import { stepCsvLines } from '../csv/read-lines';
import { PRIORITY_UPLOAD_MAX_ROWS } from '../../src/domain/constants';
import {
  columnOfHeader,
  PRIORITY_CSV_COLUMNS,
  type PriorityCsvColumn,
  type PriorityUploadKind,
} from '../../src/domain/priority';
import type { CsvDelimiterName, UploadErrorCode, UploadLineError } from '../../src/contract/priority';

/**
 * A whole file refused. `code` and `params` let the browser word it in the user's language
 * (serverErrors.<code>, as every coded HttpError); `message` stays the English fallback.
 */
export class CsvRefusal extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly params: Record<string, string | number> = {},
    readonly errors: UploadLineError[] = [],
  ) {
    super(message);
  }

  /** The extra fields of the 422 body: the code the browser words, and every error with its line. */
  get body() {
    return { code: this.code, params: this.params, errors: this.errors };
  }
}

const fileError = (line: number, message: string, code: UploadErrorCode): UploadLineError => ({ line, column: null, value: null, message, code, params: {} });

/** Strict UTF-8: a file saved as Latin-1 or UTF-16 is refused with the line of the first bad byte. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // 0x0A is never part of a multi-byte UTF-8 sequence, so lines can be checked one by one.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i += 1) {
      if (i < bytes.length && bytes[i] !== 0x0a) continue;
      try {
        decoder.decode(bytes.subarray(start, i));
      } catch {
        const message = `The file is not UTF-8 text (line ${line} has bytes that are not UTF-8). Save it as "CSV UTF-8" and upload it again.`;
        throw new CsvRefusal(message, 'csvNotUtf8AtLine', { line }, [fileError(line, 'Bytes that are not UTF-8 text', 'notUtf8')]);
      }
      line += 1;
      start = i + 1;
    }
    throw new CsvRefusal('The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.', 'csvNotUtf8');
  }
}

export interface CsvRow {
  /** Line of the file where the row starts (1-based, header included). */
  line: number;
  cells: Partial<Record<PriorityCsvColumn, string>>;
  /** Non-empty cells beyond the header's columns: usually a wrong delimiter on this line. */
  extraCells: number;
}

export interface ParsedCsv {
  /** A name, not the character: the browser words it in the user's language (priority.upload.delimiter.<name>). */
  delimiter: CsvDelimiterName;
  rows: CsvRow[];
}

const DELIMITERS = [';', ',', '\t', '|'];
const DELIMITER_NAMES: Record<string, CsvDelimiterName> = { ';': 'semicolon', ',': 'comma', '\t': 'tab', '|': 'pipe' };

/** Parses the text of an upload of `kind`; throws CsvRefusal when there is nothing usable. */
export function parsePriorityCsv(text: string, kind: PriorityUploadKind): ParsedCsv {
  const { required, optional } = PRIORITY_CSV_COLUMNS[kind];
  // Filled in by the row callback; an object so TypeScript does not narrow it to null.
  const state: { header: { line: number; columns: (PriorityCsvColumn | null)[] } | null; refusal: CsvRefusal | null } = {
    header: null,
    refusal: null,
  };
  const rows: CsvRow[] = [];

  const read = stepCsvLines(text, { delimiters: DELIMITERS, previewRows: 10 }, (cells, startLine, parser) => {
    const header = state.header;
    if (!header) {
      const columns = cells.map(columnOfHeader);
      state.header = { line: startLine, columns };
      const missing = required.filter((column) => !columns.includes(column));
      if (missing.length > 0) {
        const found = cells.map((cell) => cell.trim()).join(' | ');
        state.refusal = new CsvRefusal(
          `The header on line ${startLine} lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. ` +
            `Required: ${required.join(', ')}, separated by ; or , (found: ${found.slice(0, 200)}).`,
          // count: the languages' plural forms of "column(s)".
          'csvMissingColumns',
          { line: startLine, columns: missing.join(', '), count: missing.length, required: required.join(', '), found: found.slice(0, 200) },
          missing.map((column) => ({ line: startLine, column, value: null, message: `Column ${column} is missing from the header`, code: 'missingColumn' as const, params: { column } })),
        );
        parser.abort();
      }
      return;
    }
    if (rows.length >= PRIORITY_UPLOAD_MAX_ROWS) {
      state.refusal = new CsvRefusal(
        `The file has more than ${PRIORITY_UPLOAD_MAX_ROWS.toLocaleString('en-US')} rows; split it into files of at most ${PRIORITY_UPLOAD_MAX_ROWS.toLocaleString('en-US')} rows.`,
        // A number, not the English "20,000": each language formats it ({{max, number}}).
        'csvTooManyRows',
        { max: PRIORITY_UPLOAD_MAX_ROWS },
      );
      parser.abort();
      return;
    }
    const row: CsvRow = { line: startLine, cells: {}, extraCells: 0 };
    cells.forEach((cell, index) => {
      const column = header.columns[index];
      if (index >= header.columns.length) {
        if (cell.trim() !== '') row.extraCells += 1;
      } else if (column && (required.includes(column) || optional.includes(column)) && row.cells[column] === undefined) {
        row.cells[column] = cell.trim();
      }
    });
    rows.push(row);
  });

  if (state.refusal) throw state.refusal;
  if (!state.header) {
    throw new CsvRefusal(`The file is empty. The first line must name the columns: ${required.join(', ')}.`, 'csvEmpty', { columns: required.join(', ') });
  }
  if (rows.length === 0) {
    throw new CsvRefusal('The file has a header but no rows.', 'csvNoRows', {}, [fileError(read.nextLine, 'No rows after the header', 'noRows')]);
  }
  // papaparse reads with one of DELIMITERS, or its default "," when it cannot tell.
  return { delimiter: DELIMITER_NAMES[read.delimiter] ?? 'comma', rows };
}
