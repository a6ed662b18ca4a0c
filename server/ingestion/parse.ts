/**
 * Reading an ERP file without stalling the server (#16). A file of up to INLINE_PARSE_BYTES is
 * read on the calling thread (a few milliseconds); a larger one in a worker thread
 * (parse-worker.ts) fed piece by piece, each piece's staging rows handed back to `onCopy` before
 * the next piece is read, so neither thread holds the file and the COPY into the staging table
 * runs while the rest is read. The event loop only moves text between the database and the
 * worker.
 */
import { Worker } from 'node:worker_threads';
import { createErpParser, type ErpParseOptions, type ErpParseOutcome } from './erp-parser';

/**
 * Files up to this size are read on the calling thread: a few tens of milliseconds. At 1 MB a
 * STOCK file of 70,000 short lines held the event loop 0.6–1.5 s on a loaded machine, twice for
 * an upload (checked at upload, read again when applied).
 */
export const INLINE_PARSE_BYTES = 128 * 1024;
/** Pieces handed to the worker are at least this long (fewer round trips). */
const PIECE_CHARS = 512 * 1024;

type Answer = { copy: string } | { copy: string; outcome: ErpParseOutcome };
type Reply = Answer | { failed: string };

function startWorker(): Worker {
  const here = import.meta.url;
  // Under tsx (development, tests) the worker is TypeScript too and needs tsx's loader; the built server runs JavaScript.
  if (!here.endsWith('.ts')) return new Worker(new URL('./parse-worker.js', here));
  const source = JSON.stringify(new URL('./parse-worker.ts', here).href);
  return new Worker(
    `(async () => { const { register } = await import('tsx/esm/api'); register(); await import(${source}); })().catch((error) => { console.error(error); process.exit(1); });`,
    { eval: true },
  );
}

async function inWorker(chunks: AsyncIterable<string>, options: ErpParseOptions, onCopy: (text: string) => Promise<void>): Promise<ErpParseOutcome> {
  const worker = startWorker();
  let pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | null = null;
  let failure: Error | null = null;
  worker.on('message', (reply: Reply) => pending?.resolve(reply));
  const fail = (error: Error) => {
    failure = error;
    pending?.reject(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the parse worker stopped (exit code ${code})`)));
  const ask = (message: object): Promise<Answer> =>
    new Promise<Reply>((resolve, reject) => {
      if (failure) return reject(failure);
      pending = { resolve, reject };
      worker.postMessage(message);
    }).then((reply) => {
      pending = null;
      if ('failed' in reply) throw new Error(`reading the file failed: ${reply.failed}`);
      return reply;
    });
  try {
    worker.postMessage({ options });
    let piece = '';
    for await (const chunk of chunks) {
      piece += chunk;
      if (piece.length < PIECE_CHARS) continue;
      const reply = await ask({ text: piece });
      piece = '';
      if (reply.copy) await onCopy(reply.copy);
    }
    if (piece) {
      const reply = await ask({ text: piece });
      if (reply.copy) await onCopy(reply.copy);
    }
    const last = await ask({ end: true });
    if (last.copy) await onCopy(last.copy);
    if (!('outcome' in last)) throw new Error('the parse worker answered without an outcome');
    return last.outcome;
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

/**
 * Reads the file given as text pieces (`sizeBytes` decides the thread), calling `onCopy` with the
 * staging rows as they are ready (when `options.stage`), and answers the checks' outcome.
 */
export async function parseErpFile(
  chunks: AsyncIterable<string>,
  sizeBytes: number,
  options: ErpParseOptions,
  onCopy: (text: string) => Promise<void> = async () => {},
): Promise<ErpParseOutcome> {
  if (sizeBytes > INLINE_PARSE_BYTES) return inWorker(chunks, options, onCopy);
  const parser = createErpParser(options);
  for await (const chunk of chunks) {
    const copy = parser.push(chunk);
    if (copy) await onCopy(copy);
  }
  const { copy, outcome } = parser.end();
  if (copy) await onCopy(copy);
  return outcome;
}

/** A text held in memory as pieces (small files, tests). */
export async function* textPieces(text: string): AsyncIterable<string> {
  yield text;
}
