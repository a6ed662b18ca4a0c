/**
 * The line-numbered CSV reading shared by ERP extracts (server/ingestion/csv.ts) and priority
 * uploads (server/priority/csv.ts): a BOM is dropped and every line ending becomes \n, so line
 * numbers count what an editor shows; the delimiter is guessed by papaparse on the first lines
 * without blank ones (it counts blank lines against a delimiter); then every row is stepped
 * through with the line it starts on (quoted cells may span lines), blank rows skipped. What a
 * row means, and every error message, stays with the caller.
 */
import Papa from 'papaparse';

export interface CsvGuess {
  /** The delimiters papaparse may choose from. */
  delimiters: string[];
  /** How many non-blank rows the guess looks at. */
  previewRows: number;
  /** Only this many characters from the start are given to the guess (default: all). */
  sampleChars?: number;
}

export interface CsvLines {
  delimiter: string;
  /** The line after the last one read: the line count + 1, or + 0 when the text ends with \n. */
  nextLine: number;
  /** True when the (normalised) text ends with a line break. */
  endsWithNewline: boolean;
}

/**
 * Calls `onRow(cells, line, parser, errors)` for every non-blank row of `text`, `line` being the
 * 1-based line it starts on and `errors` what papaparse found wrong in it (a quote never closed,
 * a stray quote); `parser.abort()` stops the reading.
 */
export function stepCsvLines(
  text: string,
  guess: CsvGuess,
  onRow: (cells: string[], line: number, parser: Papa.Parser, errors: readonly Papa.ParseError[]) => void,
): CsvLines {
  const body = (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  const sample = guess.sampleChars === undefined ? body : body.slice(0, guess.sampleChars);
  const delimiter = Papa.parse<string[]>(sample, { preview: guess.previewRows, skipEmptyLines: 'greedy', delimitersToGuess: guess.delimiters }).meta
    .delimiter;
  let line = 1;
  let consumed = 0;
  Papa.parse<string[]>(body, {
    delimiter,
    step: (result, parser) => {
      const startLine = line;
      const cursor = result.meta.cursor;
      for (let i = consumed; i < cursor; i += 1) if (body.charCodeAt(i) === 10) line += 1;
      consumed = cursor;
      const cells = result.data;
      if (cells.every((cell) => cell.trim() === '')) return;
      onRow(cells, startLine, parser, result.errors);
    },
  });
  return { delimiter, nextLine: line, endsWithNewline: body.endsWith('\n') };
}
