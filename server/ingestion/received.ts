/**
 * A received ERP file on disk (#16): an upload is streamed to a temporary file (never held whole
 * in memory) while its SHA-256 is computed and its bytes are checked to be UTF-8 text without NUL
 * bytes; an inbox file is read the same way where it lies. queue.ts then stores the bytes by COPY
 * (staging.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coded, type Coded } from './coded';

/** A received file kept on disk (an upload streamed there), with what was learnt while writing it. */
export interface ReceivedFile {
  path: string;
  size: number;
  checksum: string;
}

export class FileTooLarge extends Error {}
export class NotUtf8 extends Error {}

/**
 * NUL bytes are valid UTF-8 but no PostgreSQL text can hold one (22021 at the COPY): refused here,
 * with the line of the first one (a UTF-16 export has one after every character). The message is
 * the refusal's, for the upload's 422 and the inbox file's error alike.
 */
export class HasNul extends Error {
  constructor(
    readonly line: number,
    /** Of the bytes as received, so the inbox records the refused file once. */
    readonly checksum: string,
    readonly size: number,
  ) {
    super(`The file contains NUL bytes (the first on line ${line}), which text cannot hold: a UTF-16 or binary export? Export it from the ERP system as UTF-8 text and send it again.`);
  }

  get refusal(): Coded {
    return coded('erpHasNul', { line: this.line }, this.message);
  }
}

/** What a file that is not UTF-8 is told (the upload's 422, the inbox file's error). */
export const NOT_UTF8: Coded = coded('erpNotUtf8', {}, 'The file is not UTF-8 text. Export it from the ERP system as UTF-8 and send it again.');

const UPLOAD_DIR = join(tmpdir(), 'partstrack-uploads');

interface Checker {
  add(chunk: Buffer): void;
  /** Throws NotUtf8 when the bytes were not UTF-8, HasNul when they hold a NUL byte. */
  finish(): { checksum: string; size: number };
}

function checker(maxBytes: number): Checker {
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let size = 0;
  let isUtf8 = true;
  // Lines are counted (0x0A is never inside a multi-byte character) only until the first NUL.
  let line = 1;
  let nulLine: number | null = null;
  return {
    add(chunk) {
      size += chunk.length;
      if (size > maxBytes) throw new FileTooLarge(`larger than ${maxBytes} bytes`);
      hash.update(chunk);
      if (isUtf8) {
        try {
          decoder.decode(chunk, { stream: true });
        } catch {
          isUtf8 = false;
        }
      }
      if (nulLine === null) {
        const nul = chunk.indexOf(0);
        const before = nul < 0 ? chunk : chunk.subarray(0, nul);
        for (let at = before.indexOf(0x0a); at >= 0; at = before.indexOf(0x0a, at + 1)) line += 1;
        if (nul >= 0) nulLine = line;
      }
    },
    finish() {
      if (isUtf8) {
        try {
          decoder.decode();
        } catch {
          isUtf8 = false;
        }
      }
      if (!isUtf8) throw new NotUtf8('not UTF-8');
      const checksum = hash.digest('hex');
      if (nulLine !== null) throw new HasNul(nulLine, checksum, size);
      return { checksum, size };
    },
  };
}

/** Streams a request body to a temporary file; the caller removes it (`discard`). */
export async function saveUpload(body: AsyncIterable<Buffer | string>, maxBytes: number): Promise<ReceivedFile> {
  await mkdir(UPLOAD_DIR, { recursive: true });
  const path = join(UPLOAD_DIR, `${randomUUID()}.csv`);
  const out = createWriteStream(path);
  const check = checker(maxBytes);
  try {
    for await (const piece of body) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
      check.add(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    return { path, ...check.finish() };
  } catch (error) {
    out.destroy();
    await discard(path);
    throw error;
  }
}

/** A file already on disk (the inbox), read once for its checksum and its encoding. */
export async function inspectFile(path: string, maxBytes = Number.POSITIVE_INFINITY): Promise<ReceivedFile> {
  const check = checker(maxBytes);
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) check.add(chunk as Buffer);
  return { path, ...check.finish() };
}

/** Pieces of a UTF-8 file on disk, as text. */
export async function* filePieces(path: string): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) yield decoder.decode(chunk as Buffer, { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

export async function discard(path: string): Promise<void> {
  await rm(path, { force: true });
}
