/**
 * The ingestion worker of one server process (#9), started by server/start.ts. Each tick:
 * 1. sweeps the schedule (missing slots),
 * 2. queues the *.csv files of INBOX_DIR (files younger than 2 s may still be being written;
 *    ERP writers should write under another name and rename),
 * 3. claims and processes waiting files (from the inbox, uploads, or left by a dead process),
 * 4. moves each inbox file whose row is final to INBOX_DIR/done or INBOX_DIR/failed.
 * Ticks never overlap; `wake()` runs one at once (after an upload). Any number of processes may
 * run a worker on one PostgreSQL and even share one inbox folder: the database decides who
 * processes what (see queue.ts), the folder moves tolerate a file already moved by another.
 */
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { fileProcessing } from '../db/schema';
import { FileNameRefusal, missingSweeper, processPending, recordRefusedFile, registerFile, type FileRow } from './queue';
import type { IngestionSchedule } from './schedule';
import { HasNul, inspectFile, NOT_UTF8, NotUtf8, type ReceivedFile } from './received';
import { coded } from './coded';
import { isRefusal, parseFileName } from './formats';
import { FILE_PARTS_OF_DAY } from '../../src/domain/constants';

export interface IngestionSettings {
  inboxDir: string | undefined;
  schedule: IngestionSchedule;
  leaseSeconds: number;
  pollSeconds: number;
  /** Default INBOX_MAX_BYTES (tests pass a small one). */
  inboxMaxBytes?: number;
}

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface IngestionWorker {
  readonly workerId: string;
  start(): void;
  /** Runs a tick as soon as possible (a file was uploaded). */
  wake(): void;
  /** One full tick; resolves when done (tests and the CLI). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

const SETTLE_MS = 2000;
/**
 * The largest inbox file taken (its bytes are one value in file_contents, which PostgreSQL holds
 * to 1 GB). A larger one is recorded as errored, saying so, and moved to failed/: read and hashed
 * on every tick it would never be queued, nor shown on the dashboard (decision 0072).
 */
export const INBOX_MAX_BYTES = 512 * 1024 * 1024;

/** Which file of a day's batch goes first: the materials a STOCK file names, the items a DELIVERIES file names. */
const TYPE_ORDER = ['MATERIALS', 'STOCK', 'ORDERS', 'DELIVERIES'];

/**
 * The inbox's files in the order they must be applied when several wait at once (a batch, or the
 * files of an outage): by business day, part of the day (morning, midday, evening), then type
 * (TYPE_ORDER), then name. Alphabetical order applied DELIVERIES before the ORDERS file creating
 * its items, and a day's EVENING before its MORNING file, whose values then stood. A name that
 * breaks the naming rule goes last (it is only recorded as refused).
 */
export function inboxOrder(names: string[]): string[] {
  // One key per name, compared as text: the date is fixed-width, the indexes are single digits.
  const key = (name: string) => {
    const parts = parseFileName(name);
    return isRefusal(parts) ? `1 ${name}` : `0 ${parts.businessDate} ${FILE_PARTS_OF_DAY.indexOf(parts.partOfDay)} ${TYPE_ORDER.indexOf(parts.fileType)} ${name}`;
  };
  return names
    .map((name) => ({ name, key: key(name) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((entry) => entry.name);
}

async function moveAside(inboxDir: string, name: string, folder: 'done' | 'failed'): Promise<void> {
  const target = join(inboxDir, folder);
  await mkdir(target, { recursive: true });
  let destination = join(target, name);
  try {
    await stat(destination);
    destination = join(target, `${name.replace(/\.csv$/i, '')}.${Date.now()}.csv`);
  } catch {
    // Free name: keep it.
  }
  try {
    await rename(join(inboxDir, name), destination);
  } catch (error) {
    // Another process moved it first.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export function createIngestionWorker(db: Db, settings: IngestionSettings, log: Logger): IngestionWorker {
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const sweepMissing = missingSweeper(db, settings.schedule);
  let lastStamp = 0;
  /** A registration time after this worker's last one: files of one scan keep its order, not a random id's. */
  const nextStamp = () => {
    lastStamp = Math.max(Date.now(), lastStamp + 1);
    return new Date(lastStamp);
  };

  async function scanInbox(inboxDir: string): Promise<Map<string, string>> {
    const waiting = new Map<string, string>(); // file name → row id
    let names: string[];
    try {
      names = inboxOrder((await readdir(inboxDir, { withFileTypes: true })).filter((e) => e.isFile() && /\.csv$/i.test(e.name) && !e.name.startsWith('.')).map((e) => e.name));
    } catch (error) {
      log.warn({ err: error, inboxDir }, 'cannot read the inbox');
      return waiting;
    }
    for (const name of names) {
      const path = join(inboxDir, name);
      try {
        const info = await stat(path);
        if (Date.now() - info.mtimeMs < SETTLE_MS) continue;
        const maxBytes = settings.inboxMaxBytes ?? INBOX_MAX_BYTES;
        if (info.size > maxBytes) {
          const checksum = createHash('sha256').update(`too large:${name}:${info.size}:${info.mtimeMs}`).digest('hex');
          const mb = Math.floor(maxBytes / (1024 * 1024));
          const reason = coded('erpInboxTooLarge', { mb }, `The file is larger than ${mb} MB; split it into smaller files and send them again.`);
          const { file } = await recordRefusedFile(db, { fileName: name, content: { path, checksum, size: info.size }, reason, schedule: settings.schedule, source: 'inbox' });
          waiting.set(name, file.id);
          continue;
        }
        // Read where it lies (checksum, encoding), then stored by COPY: never held whole in memory (#16).
        let content: ReceivedFile;
        try {
          content = await inspectFile(path);
        } catch (error) {
          if (error instanceof HasNul) {
            // Recorded as errored (the dashboard shows why) and moved to failed/ below; queued,
            // its COPY would fail on every tick (22021).
            const { file } = await recordRefusedFile(db, { fileName: name, content: { path, checksum: error.checksum, size: error.size }, reason: error.refusal, schedule: settings.schedule, source: 'inbox' });
            waiting.set(name, file.id);
            continue;
          }
          if (!(error instanceof NotUtf8)) throw error;
          const reason = NOT_UTF8;
          const { file } = await recordRefusedFile(db, { fileName: name, content: await readFile(path, 'latin1'), reason, schedule: settings.schedule, source: 'inbox' });
          waiting.set(name, file.id);
          continue;
        }
        try {
          // Queued in the order of the scan (claimNext applies by created_at): each a moment after the last.
          // The inode's change time says when the file came into the folder (a copy keeping its mtime still moves it).
          const { file, duplicate } = await registerFile(db, { fileName: name, content, source: 'inbox', now: nextStamp(), sentAt: new Date(Math.max(info.ctimeMs, info.mtimeMs)) });
          if (duplicate) log.info({ file: name, status: file.status }, 'inbox file already received');
          waiting.set(name, file.id);
        } catch (error) {
          if (!(error instanceof FileNameRefusal)) throw error;
          const { file } = await recordRefusedFile(db, { fileName: name, content, reason: error.refusal, schedule: settings.schedule, source: 'inbox' });
          waiting.set(name, file.id);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // moved by another process
        log.error({ err: error, file: name }, 'cannot queue inbox file');
      }
    }
    return waiting;
  }

  async function settleInbox(inboxDir: string, waiting: Map<string, string>): Promise<void> {
    if (waiting.size === 0) return;
    const rows = await db.select({ id: fileProcessing.id, status: fileProcessing.status }).from(fileProcessing).where(inArray(fileProcessing.id, [...waiting.values()]));
    const statusOf = new Map(rows.map((r) => [r.id, r.status]));
    for (const [name, id] of waiting) {
      const status = statusOf.get(id);
      if (status === 'processed') await moveAside(inboxDir, name, 'done');
      else if (status === 'errored') await moveAside(inboxDir, name, 'failed');
      // Still queued or in progress elsewhere: the next tick looks again.
    }
  }

  async function tick(): Promise<void> {
    await sweepMissing();
    const waiting = settings.inboxDir ? await scanInbox(settings.inboxDir) : new Map<string, string>();
    const done: FileRow[] = await processPending(db, { workerId, leaseSeconds: settings.leaseSeconds });
    for (const file of done) {
      log.info({ file: file.fileName, status: file.status, lines: file.lineCount, errors: (file.errors as unknown[]).length }, 'ERP file processed');
    }
    if (settings.inboxDir) await settleInbox(settings.inboxDir, waiting);
  }

  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await tick();
        } catch (error) {
          log.error({ err: error }, 'ingestion tick failed');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    workerId,
    start() {
      if (timer) return;
      timer = setInterval(() => void run(), settings.pollSeconds * 1000);
      timer.unref();
      void run();
    },
    wake() {
      if (!stopped) void run();
    },
    tick: run,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
