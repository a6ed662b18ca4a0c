/**
 * Bulk moves of ERP files with COPY (#16), on both engines:
 *
 * - The bytes of a received file go into `file_contents` in COPY's binary format: on PostgreSQL
 *   streamed from the upload's file on disk (pg-copy-streams), on PGlite as a Blob backed by that
 *   file (`COPY … FROM '/dev/blob'`). The server never holds the file as one string.
 * - They come back out, for a large file, through `COPY … TO STDOUT (FORMAT binary)` on a
 *   connection of its own (the claim and the apply hold the transaction's); a small file (or one
 *   read inside a caller's open transaction, such as the seed's) is read with a plain SELECT.
 * - Checked rows go into a temporary staging table `erp_stage` (created per file inside the
 *   applying transaction, dropped with it) by COPY FROM STDIN (PostgreSQL) or
 *   `COPY … FROM '/dev/blob'` (PGlite), and apply.ts writes from there in set-based statements.
 */
import { createReadStream, openAsBlob } from 'node:fs';
import { once } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { rowsOf, type Db, type Tx } from '../db/client';
import type { ErpFileType } from './formats';
import { stagingColumns } from './stage-rows';

type Executor = Db | Tx;

interface PgliteLike {
  query(query: string, params?: unknown[], options?: { blob?: Blob }): Promise<unknown>;
}

type RawClient = { kind: 'pg'; client: pg.PoolClient } | { kind: 'pglite'; client: PgliteLike };

/**
 * The connection under a drizzle transaction: drizzle keeps it as `session.client` (a pg pool
 * client inside a transaction, PGlite's transaction object on PGlite). COPY needs it directly.
 */
function rawClient(tx: Executor): RawClient {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  if (client instanceof pg.Client) return { kind: 'pg', client: client as pg.PoolClient };
  if (client && typeof (client as PgliteLike).query === 'function' && !(client instanceof pg.Pool)) return { kind: 'pglite', client: client as PgliteLike };
  throw new Error('COPY needs a transaction (its connection)');
}

/** The pool of a PostgreSQL database (not a transaction), for a read on a connection of its own. */
function poolOf(db: Executor): pg.Pool | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  const session = (db as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Pool && session instanceof pg.Pool ? client : null;
}

// ───────────── the bytes of a file ─────────────

const BINARY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** COPY binary header, then one tuple's start: 2 fields, the uuid, the length of the text. */
function contentTupleHead(fileId: string, contentBytes: number): Buffer {
  const head = Buffer.alloc(BINARY_SIGNATURE.length + 8 + 2 + 4 + 16 + 4);
  let at = BINARY_SIGNATURE.copy(head, 0);
  at = head.writeInt32BE(0, at); // flags
  at = head.writeInt32BE(0, at); // header extension length
  at = head.writeInt16BE(2, at); // fields
  at = head.writeInt32BE(16, at);
  at += Buffer.from(fileId.replaceAll('-', ''), 'hex').copy(head, at);
  head.writeInt32BE(contentBytes, at);
  return head;
}

const TRAILER = Buffer.from([0xff, 0xff]);

async function writeAll(stream: Writable, chunk: Buffer | string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** Streams a COPY; rejects with the database's error, resolves once the server accepted it. */
async function pgCopyIn(client: pg.PoolClient, statement: string, fill: (stream: Writable) => Promise<void>): Promise<void> {
  const stream = client.query(copyFrom(statement));
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => {});
  const finished = once(stream, 'finish');
  await Promise.race([fill(stream), failed]);
  stream.end();
  await Promise.race([finished, failed]);
}

/** Stores the bytes of file `fileId`: a text, or a file on disk of `size` bytes (already checked to be UTF-8). */
export async function storeContent(tx: Executor, fileId: string, content: { text: string } | { path: string; size: number }): Promise<void> {
  if ('text' in content) {
    await tx.execute(sql`insert into file_contents (file_id, content) values (${fileId}, ${content.text})`);
    return;
  }
  const raw = rawClient(tx);
  const statement = 'COPY file_contents (file_id, content) FROM STDIN (FORMAT binary)';
  if (raw.kind === 'pglite') {
    const blob = new Blob([new Uint8Array(contentTupleHead(fileId, content.size)), await openAsBlob(content.path), new Uint8Array(TRAILER)]);
    await raw.client.query(statement.replace('STDIN', "'/dev/blob'"), [], { blob });
    return;
  }
  await pgCopyIn(raw.client, statement, async (stream) => {
    await writeAll(stream, contentTupleHead(fileId, content.size));
    for await (const chunk of createReadStream(content.path, { highWaterMark: 1024 * 1024 })) await writeAll(stream, chunk as Buffer);
    await writeAll(stream, TRAILER);
  });
}

/** Files above this size are read back by COPY on a connection of their own (when there is a pool). */
const STREAM_READ_BYTES = 1024 * 1024;

/**
 * The stored text of a file, piece by piece. `db` is what the caller was given (a pool, or a
 * transaction of its own, such as the seed's), `tx` the applying transaction.
 */
export async function readContent(db: Executor, tx: Executor, fileId: string, sizeBytes: number): Promise<AsyncIterable<string>> {
  const pool = sizeBytes > STREAM_READ_BYTES ? poolOf(db) : null;
  if (pool) return streamContent(pool, fileId);
  // Read now, before a COPY into the staging table takes the transaction's connection.
  const [row] = rowsOf<{ content: string }>(await tx.execute(sql`select content from file_contents where file_id = ${fileId}`));
  return (async function* () {
    if (row) yield row.content;
  })();
}

/** A committed file (queued earlier), read outside the applying transaction: one connection cannot run two COPYs. */
async function* streamContent(pool: pg.Pool, fileId: string): AsyncIterable<string> {
  const client = await pool.connect();
  // A reader that stops early (a failed staging COPY, a parse error, the worker gone) leaves the
  // COPY running on this connection: pg-copy-streams cannot cancel it, and a connection returned
  // mid-COPY would hang the next query given it. Such a connection is closed, not returned.
  let ended = false;
  try {
    const stream = client.query(copyTo(`COPY (select content from file_contents where file_id = '${fileId.replace(/[^0-9a-f-]/gi, '')}') TO STDOUT (FORMAT binary)`));
    const decoder = new StringDecoder('utf8');
    // Binary COPY: 19 bytes of header, 2 (field count) + 4 (length) before the text, 2 bytes of trailer after it.
    let skip = 19 + 2 + 4;
    let held = Buffer.alloc(0);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let data = chunk;
      if (skip > 0) {
        const cut = Math.min(skip, data.length);
        skip -= cut;
        data = data.subarray(cut);
      }
      data = held.length > 0 ? Buffer.concat([held, data]) : data;
      const keep = Math.min(2, data.length);
      held = Buffer.from(data.subarray(data.length - keep));
      const text = decoder.write(data.subarray(0, data.length - keep));
      if (text) yield text;
    }
    const rest = decoder.end();
    ended = true;
    if (rest) yield rest;
  } finally {
    client.release(ended ? undefined : true);
  }
}

// ───────────── the staging table ─────────────

export const STAGING_TABLE = 'erp_stage';

/** A fresh, empty staging table for a file of this type, living until the transaction ends. */
export async function createStaging(tx: Executor, fileType: ErpFileType): Promise<void> {
  const columns = stagingColumns(fileType)
    .map((c) => `${c.name} ${c.type}`)
    .join(', ');
  await tx.execute(sql.raw(`drop table if exists ${STAGING_TABLE}`));
  await tx.execute(sql.raw(`create temp table ${STAGING_TABLE} (line integer not null, ${columns}) on commit drop`));
}

export async function dropStaging(tx: Executor): Promise<void> {
  await tx.execute(sql.raw(`drop table if exists ${STAGING_TABLE}`));
}

export interface StagingSink {
  write(copyText: string): Promise<void>;
  /** Ends the COPY (the rows are in the table once it resolves). */
  end(): Promise<void>;
}

/** A COPY into the staging table, written as the rows are read. */
export function stagingSink(tx: Executor, fileType: ErpFileType): StagingSink {
  const raw = rawClient(tx);
  const statement = `COPY ${STAGING_TABLE} (line, ${stagingColumns(fileType)
    .map((c) => c.name)
    .join(', ')}) FROM STDIN`;
  if (raw.kind === 'pglite') {
    const parts: string[] = [];
    return {
      write: async (text) => {
        parts.push(text);
      },
      end: async () => {
        if (parts.length > 0) await raw.client.query(statement.replace('STDIN', "'/dev/blob'"), [], { blob: new Blob(parts) });
      },
    };
  }
  const stream = raw.client.query(copyFrom(statement));
  let failure: Error | null = null;
  stream.on('error', (error: Error) => {
    failure = error;
  });
  const finished = new Promise<void>((resolve, reject) => {
    stream.once('finish', resolve);
    stream.once('error', reject);
  });
  finished.catch(() => {});
  return {
    write: async (text) => {
      if (failure) throw failure;
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), finished]);
    },
    end: async () => {
      stream.end();
      await finished;
    },
  };
}

/**
 * COPY text lines (each ending in \n) into `table (columns)`: streamed on PostgreSQL, one Blob on
 * PGlite. For bulk loads such as the scaled seed.
 */
export async function copyLines(tx: Executor, table: string, columns: readonly string[], lines: Iterable<string>): Promise<void> {
  const raw = rawClient(tx);
  const statement = `COPY ${table} (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN`;
  if (raw.kind === 'pglite') {
    await raw.client.query(statement.replace('STDIN', "'/dev/blob'"), [], { blob: new Blob([...lines]) });
    return;
  }
  await pgCopyIn(raw.client, statement, async (stream) => {
    let batch = '';
    for (const line of lines) {
      batch += line;
      if (batch.length >= 256 * 1024) {
        await writeAll(stream, batch);
        batch = '';
      }
    }
    if (batch) await writeAll(stream, batch);
  });
}

/** True when `tx` runs on PostgreSQL (a pg connection), false on PGlite. */
export function isPostgresTx(tx: Executor): boolean {
  return rawClient(tx).kind === 'pg';
}
