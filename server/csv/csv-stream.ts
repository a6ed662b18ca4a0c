/**
 * The line-numbered CSV reading of read-lines.ts, fed piece by piece: a file of any size is read
 * in chunks (never whole), each row reported with the line it starts on. Same rules: a BOM is
 * dropped, CRLF / CR become LF (so line numbers count what an editor shows), quoted cells may
 * span lines and double their quotes, blank rows are skipped. The delimiter is guessed by
 * papaparse on the first rows (as read-lines.ts does) once `sampleChars` have arrived or the
 * input ends. A quote that does not open a cell is kept as text; text after a closing quote is
 * kept too (as papaparse does).
 */
import Papa from 'papaparse';
import type { CsvGuess } from './read-lines';

export interface CsvStreamEnd {
  delimiter: string;
  /** Lines of the input, header and blank lines included (a final line break ends the last line). */
  lineCount: number;
}

export class CsvLineStream {
  private buffer = '';
  private line = 1;
  private newlines = 0;
  private lastChar = '';
  private delimiter: string | null = null;
  private pendingCr = false;
  private started = false;
  private stopped = false;

  constructor(
    private readonly guess: CsvGuess & { sampleChars: number; maxRowChars?: number },
    private readonly onRow: (cells: string[], line: number) => void | 'stop',
    /**
     * A row still unfinished past `guess.maxRowChars` characters (a quote never closed swallows
     * the rest of the file): reading stops there, the lines are still counted. Without a cap the
     * unfinished row was read again from its start at every piece (the work grew with the
     * square of the file) and held whole.
     */
    private readonly onRowTooLong?: (line: number) => void,
  ) {}

  /** Adds the next piece of text. */
  push(chunk: string): void {
    if (chunk.length === 0) return;
    let text = chunk;
    if (!this.started) {
      this.started = true;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    if (this.pendingCr) text = `\r${text}`;
    this.pendingCr = text.endsWith('\r');
    if (this.pendingCr) text = text.slice(0, -1);
    text = text.replace(/\r\n?/g, '\n');
    this.count(text);
    // After a stop the lines are still counted (lineCount is the whole input's), not read.
    if (this.stopped) return;
    this.buffer += text;
    if (this.delimiter === null) {
      if (this.buffer.length < this.guess.sampleChars) return;
      this.delimiter = this.guessDelimiter(this.buffer.slice(0, this.guess.sampleChars));
    }
    this.drain(false);
    const max = this.guess.maxRowChars;
    if (max !== undefined && !this.stopped && this.buffer.length > max) {
      this.stopped = true;
      this.buffer = '';
      this.onRowTooLong?.(this.line);
    }
  }

  /** The input ended: reads the last row. */
  end(): CsvStreamEnd {
    if (this.pendingCr) {
      this.pendingCr = false;
      this.count('\n');
      this.buffer += '\n';
    }
    if (this.delimiter === null) this.delimiter = this.guessDelimiter(this.buffer);
    if (!this.stopped) this.drain(true);
    return { delimiter: this.delimiter, lineCount: this.lastChar === '\n' ? this.newlines : this.newlines + 1 };
  }

  private count(text: string): void {
    if (text.length === 0) return;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.newlines += 1;
    this.lastChar = text[text.length - 1]!;
  }

  private guessDelimiter(sample: string): string {
    return Papa.parse<string[]>(sample, { preview: this.guess.previewRows, skipEmptyLines: 'greedy', delimitersToGuess: this.guess.delimiters }).meta.delimiter;
  }

  /** Reads every complete row of the buffer (and, at the end, the rest). */
  private drain(final: boolean): void {
    const text = this.buffer;
    const delimiter = this.delimiter!;
    let pos = 0;
    while (pos < text.length && !this.stopped) {
      const row = readRow(text, pos, delimiter, final);
      if (!row) break;
      const startLine = this.line;
      this.line += row.newlines;
      pos = row.next;
      if (row.cells.every((cell) => cell.trim() === '')) continue;
      if (this.onRow(row.cells, startLine) === 'stop') this.stopped = true;
    }
    this.buffer = text.slice(pos);
  }
}

interface Row {
  cells: string[];
  /** Index after the row's line break. */
  next: number;
  /** Line breaks the row spans, its own included. */
  newlines: number;
}

function newlinesIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

/** One row from `start`, or null when its end has not arrived yet (and `final` is false). */
function readRow(text: string, start: number, delimiter: string, final: boolean): Row | null {
  const cells: string[] = [];
  let pos = start;
  let newlines = 0;
  for (;;) {
    if (text[pos] === '"') {
      let value = '';
      let from = pos + 1;
      let close: number;
      for (;;) {
        close = text.indexOf('"', from);
        if (close === -1) {
          if (!final) return null;
          // An unclosed quote takes the rest of the text.
          value += text.slice(from);
          newlines += newlinesIn(text, from, text.length);
          return { cells: [...cells, value], next: text.length, newlines };
        }
        if (text[close + 1] === '"') {
          value += text.slice(from, close + 1);
          from = close + 2;
          continue;
        }
        if (close + 1 >= text.length && !final) return null; // a doubled quote may follow
        value += text.slice(from, close);
        break;
      }
      newlines += newlinesIn(text, pos, close);
      pos = close + 1;
      // Anything between the closing quote and the next delimiter or line break is kept.
      const d = text.indexOf(delimiter, pos);
      const n = text.indexOf('\n', pos);
      const end = n === -1 ? (d === -1 ? -1 : d) : d === -1 ? n : Math.min(d, n);
      if (end === -1) {
        if (!final) return null;
        cells.push(value + text.slice(pos));
        return { cells, next: text.length, newlines };
      }
      cells.push(value + text.slice(pos, end));
      if (end === n && (d === -1 || n < d)) return { cells, next: n + 1, newlines: newlines + 1 };
      pos = end + delimiter.length;
      continue;
    }
    const d = text.indexOf(delimiter, pos);
    const n = text.indexOf('\n', pos);
    if (n === -1 && !final) return null;
    if (d !== -1 && (n === -1 || d < n)) {
      cells.push(text.slice(pos, d));
      pos = d + delimiter.length;
      continue;
    }
    if (n === -1) {
      cells.push(text.slice(pos));
      return { cells, next: text.length, newlines };
    }
    cells.push(text.slice(pos, n));
    return { cells, next: n + 1, newlines: newlines + 1 };
  }
}
