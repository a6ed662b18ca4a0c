/**
 * One ERP file read piece by piece (#16): rows cut by csv-stream.ts, checked by ErpRowReader,
 * valid rows encoded for the staging table's COPY (stage-rows.ts). Nothing of the file is held
 * beyond the row being read: each push answers the COPY text of the rows it completed. Only the
 * columns named in `keep` are kept per record (the upload-scope check needs plant, service order
 * and mechanic, decision 0017). Runs in the parse worker (parse-worker.ts) or, for a small file,
 * on the caller's thread.
 */
import { CsvLineStream } from '../csv/csv-stream';
import { ERP_CSV_GUESS, ErpRowReader, type CellValue, type CsvRecord, type LineError } from './csv';
import type { ErpFileType } from './formats';
import { stagingLines } from './stage-rows';

export interface ErpParseOptions {
  fileType: ErpFileType;
  /** Columns kept per record in `records` (none: no records kept). */
  keep?: readonly string[];
  /** Encode valid rows for COPY (false: only check them). */
  stage: boolean;
}

export interface ErpParseOutcome {
  /** The first errors (MAX_LISTED_ERRORS + 1 at most); errorCount says how many there were. */
  errors: LineError[];
  errorCount: number;
  lineCount: number;
  recordCount: number;
  records: CsvRecord[];
  /** The columns the header named (the file type's names): a file writes only these (apply.ts). */
  columns: string[];
}

export interface ErpParser {
  /** The next piece of the file; answers the COPY text of the rows it completed. */
  push(text: string): string;
  end(): { copy: string; outcome: ErpParseOutcome };
}

export function createErpParser({ fileType, keep = [], stage }: ErpParseOptions): ErpParser {
  const reader = new ErpRowReader(fileType, true);
  const encode = stagingLines(fileType);
  const records: CsvRecord[] = [];
  let copy = '';
  const stream = new CsvLineStream(ERP_CSV_GUESS, (cells, line) => {
    const verdict = reader.row(cells, line);
    if ('stop' in verdict) return 'stop';
    if (!('record' in verdict)) return undefined;
    // After the first error nothing will be written: stop encoding, keep checking.
    if (stage && reader.errorCount === 0) copy += encode(verdict.record);
    if (keep.length > 0) {
      const values: Record<string, CellValue> = {};
      for (const column of keep) if (column in verdict.record.values) values[column] = verdict.record.values[column]!;
      records.push({ line: verdict.record.line, values });
    }
    return undefined;
  }, (line) => reader.rowTooLong(line));
  const take = () => {
    const out = copy;
    copy = '';
    return out;
  };
  return {
    push(text) {
      stream.push(text);
      return take();
    },
    end() {
      const { lineCount } = stream.end();
      reader.finish();
      const columns = (reader.columns ?? []).flatMap((spec) => (spec ? [spec.name] : []));
      return { copy: take(), outcome: { errors: reader.errors, errorCount: reader.errorCount, lineCount, recordCount: reader.recordCount, records, columns } };
    },
  };
}
