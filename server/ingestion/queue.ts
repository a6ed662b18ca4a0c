/**
 * The ERP file queue (#9) lives in the database, so every replica sees the same work:
 *
 * 1. registerFile: the bytes are stored (file_contents) with a file_processing row in status
 *    not_processed, in one transaction. The SHA-256 of the content is unique per slot (type,
 *    business date, part of day): a file already received for its slot (by any replica, from the
 *    inbox or an upload) is reported as a duplicate and never processed again; the same bytes for
 *    another slot are that slot's file (decision 0073). A late file takes over its slot's
 *    "missing" row.
 * 2. claimNext: one UPDATE picks the oldest waiting file with FOR UPDATE SKIP LOCKED and marks it
 *    in_progress with a lease (claimed_by, claimed_at), visible on the dashboard at once.
 * 3. processClaimed: ONE transaction locks the row (FOR UPDATE), reads, checks and applies the
 *    file, and writes the final status (processed or errored, with line-numbered errors) and
 *    deletes the stored bytes. A bad file changes nothing but its own row. An uploaded file is
 *    also checked against its uploader's current scope (upload-scope.ts); inbox files are trusted.
 *
 * A process that dies mid-file loses its transaction: PostgreSQL rolls it back and releases the
 * row lock, so nothing is half-applied, and the row stays in_progress with an old claimed_at.
 * While a live process applies a file its row lock is the heartbeat: another replica's claim
 * (SKIP LOCKED) passes over it however long it takes. A row that is in_progress, unlocked and
 * older than the lease belongs to a dead process and is claimed again. On PGlite (one process,
 * one connection) the same SQL runs unchanged.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, eq, getTableColumns, lt, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../db/client';
import { fileProcessing } from '../db/schema';
import { applyStaged } from './apply';
import { listedErrors, type LineError } from './csv';
import { parseErpFile } from './parse';
import type { ReceivedFile } from './received';
import { createStaging, dropStaging, readContent, stagingSink, storeContent } from './staging';
import { ERP_FILE_TYPES, fileNameFor, isRefusal, parseFileName, type ErpFileType, type FileNameParts } from './formats';
import { coded, type Coded } from './coded';
import { currentUploader, linesOutsideScope } from './upload-scope';
import { addDaysToDate, deadlineOf, expectedSlots, localDate, partOfDayAt, type IngestionSchedule, type Slot } from './schedule';

type Executor = Db | Tx;
export type FileRow = typeof fileProcessing.$inferSelect;
export type FileSource = 'inbox' | 'upload' | 'seed';

export class FileNameRefusal extends Error {
  constructor(readonly refusal: Coded) {
    super(refusal.message);
  }
}

export const checksumOf = (content: string): string => createHash('sha256').update(content).digest('hex');

export interface RegisterInput {
  fileName: string;
  /** The file as text (small files, the seed, tests) or on disk (uploads, the inbox). */
  content: string | ReceivedFile;
  source: FileSource;
  uploadedBy?: string | null;
  now?: Date;
  /**
   * When the file came (an inbox file's inode change time). An errored row of the same bytes and
   * slot registered since is this very file, still lying in the inbox (its move to failed/ did not
   * happen yet, or failed): it is not queued again at every tick. Absent (uploads): always a new sending.
   */
  sentAt?: Date;
  /** Row id; the deterministic seed passes its own. */
  id?: string;
}

export interface RegisterResult {
  file: FileRow;
  duplicate: boolean;
}

/** A file's slot: its type, business date and part of the day. */
type FileSlot = Pick<FileNameParts, 'fileType' | 'businessDate' | 'partOfDay'>;

/** The rows of a slot (decision 0073: a file is a duplicate only within its slot). */
const inSlot = (slot: FileSlot) =>
  and(eq(fileProcessing.fileType, slot.fileType), eq(fileProcessing.businessDate, slot.businessDate), eq(fileProcessing.filePartOfDay, slot.partOfDay))!;

/** The row holding these bytes: in the slot when there is one, else any, the oldest first. */
async function holding(db: Executor, checksum: string, slot: FileSlot | null): Promise<FileRow | undefined> {
  const [existing] = await db
    .select()
    .from(fileProcessing)
    .where(and(eq(fileProcessing.checksum, checksum), slot ? inSlot(slot) : undefined))
    .orderBy(asc(fileProcessing.createdAt))
    .limit(1);
  return existing;
}

/**
 * The row already holding these bytes, for the slot when the file's name gives one (decision
 * 0073), else (a name refused) any; locked against another replica receiving the same bytes.
 */
async function lockChecksum(tx: Executor, checksum: string, slot: FileSlot | null): Promise<FileRow | undefined> {
  // Two replicas receiving the same bytes at once: the second waits here, then sees the first.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${checksum}))`);
  return holding(tx, checksum, slot);
}

/** file_processing columns by SQL name → property, to read rows of raw statements. */
const COLUMNS = Object.entries(getTableColumns(fileProcessing)).map(([key, column]) => [key, column.name, column.columnType] as const);

function fromSql(raw: Record<string, unknown>): FileRow {
  const row: Record<string, unknown> = {};
  for (const [key, name, type] of COLUMNS) {
    const value = raw[name];
    row[key] = type === 'PgTimestamp' && value !== null && value !== undefined && !(value instanceof Date) ? new Date(String(value)) : value;
  }
  const date = row.businessDate;
  // pg reads a date as local midnight: format it back with local fields.
  if (date instanceof Date) row.businessDate = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  return row as FileRow;
}

/**
 * Queues a received file in ONE statement: the row, its bytes, and the hand-over of its slot's
 * "missing" row. ON CONFLICT on the checksum and the slot makes a second copy for the same slot
 * (even one arriving at the same moment at another replica, which waits for the first to commit)
 * a duplicate; the same bytes for another slot are a file of their own (decision 0073). A file whose
 * name breaks the naming rule is refused (FileNameRefusal).
 */
export async function registerFile(db: Executor, input: RegisterInput): Promise<RegisterResult> {
  const parts = parseFileName(input.fileName);
  if (isRefusal(parts)) throw new FileNameRefusal(parts);
  const checksum = typeof input.content === 'string' ? checksumOf(input.content) : input.content.checksum;
  const now = (input.now ?? new Date()).toISOString();
  const content = input.content;
  const inserted = await db.transaction(async (tx) => {
    // The same bytes as a file that errored are sent again: queued again (what it named may exist
    // now, such as the materials a STOCK file needs; or it failed for want of a connection). The
    // errored row stays on the dashboard as it was; only the checksum passes to the new one.
    await tx
      .update(fileProcessing)
      .set({ checksum: null })
      .where(and(eq(fileProcessing.checksum, checksum), inSlot(parts), eq(fileProcessing.status, 'errored'), input.sentAt ? lt(fileProcessing.createdAt, input.sentAt) : undefined));
    const [row] = rowsOf(
      await tx.execute(sql`
      with new_file as (
        insert into file_processing (id, file_type, file_name, business_date, file_part_of_day, status, checksum, errors, source, uploaded_by, created_at)
        values (${input.id ?? randomUUID()}, ${parts.fileType}, ${input.fileName}, ${parts.businessDate}, ${parts.partOfDay}, 'not_processed', ${checksum},
          '[]'::jsonb, ${input.source}, ${input.uploadedBy ?? null}, ${now}::timestamptz)
        on conflict (checksum, file_type, business_date, file_part_of_day) do nothing
        returning *
      ), handed_over as (
        delete from file_processing m using new_file n
        where m.status = 'missing' and m.business_date = n.business_date and m.file_type = n.file_type and m.file_part_of_day = n.file_part_of_day
      )
      select * from new_file`),
    );
    // The bytes by COPY, in the same transaction: a file is never queued without them.
    if (row) await storeContent(tx, String(row.id), typeof content === 'string' ? { text: content } : { path: content.path, size: content.size });
    return row;
  });
  if (inserted) return { file: fromSql(inserted), duplicate: false };
  const existing = await holding(db, checksum, parts);
  if (!existing) throw new Error(`registerFile: ${input.fileName} neither inserted nor found`);
  return { file: existing, duplicate: true };
}

/** An inbox file that cannot be queued (bad name, bytes that are not text, too large): an errored row, so the dashboard shows it. */
export async function recordRefusedFile(
  db: Executor,
  input: { fileName: string; content: string | ReceivedFile; reason: Coded; schedule: IngestionSchedule; now?: Date; source: FileSource },
): Promise<RegisterResult> {
  const now = input.now ?? new Date();
  const checksum = typeof input.content === 'string' ? checksumOf(input.content) : input.content.checksum;
  const typeGuess = /^ERP_([A-Z]+)_/i.exec(input.fileName)?.[1]?.toUpperCase();
  // A file refused for its bytes (not UTF-8, NUL bytes, too large) under a good name is its slot's:
  // the same bytes the next day are that day's refused file, not a duplicate that leaves its slot
  // "missing" (decision 0073). A file refused for its name has no slot: the moment it was seen.
  const named = parseFileName(input.fileName);
  const slot = isRefusal(named) ? null : named;
  return db.transaction(async (tx) => {
    const existing = await lockChecksum(tx, checksum, slot);
    if (existing) return { file: existing, duplicate: true };
    const [file] = await tx
      .insert(fileProcessing)
      .values({
        id: randomUUID(),
        fileType: slot?.fileType ?? (typeGuess && (ERP_FILE_TYPES as readonly string[]).includes(typeGuess) ? typeGuess : 'UNKNOWN'),
        fileName: input.fileName.slice(0, 255),
        businessDate: slot?.businessDate ?? localDate(now, input.schedule.timezone),
        filePartOfDay: slot?.partOfDay ?? partOfDayAt(input.schedule, now),
        status: 'errored',
        checksum,
        errors: [{ line: null, ...input.reason }],
        startDate: now,
        endDate: now,
        source: input.source,
        createdAt: now,
      })
      .returning();
    // The file came, refused: its slot is no longer "missing".
    if (slot) {
      await tx.delete(fileProcessing).where(and(eq(fileProcessing.status, 'missing'), inSlot(slot)));
    }
    return { file: file!, duplicate: false };
  });
}

export interface ClaimOptions {
  workerId: string;
  leaseSeconds: number;
  now?: Date;
}

/**
 * Claims the oldest waiting file (or one a dead process left behind); null when there is none, or
 * while another worker holds a file under a live lease. Files are applied one at a time and in
 * the order they came, whichever replica applies them: a MIDDAY file applied before the MORNING
 * one still running elsewhere would have the morning's values written over it, a STOCK file could
 * run ahead of the MATERIALS file it needs, and two files writing the same items could deadlock.
 * The claims take turns (a transaction advisory lock), so two replicas asking at once cannot each
 * see the other's file as not yet in progress; processClaimed also applies under a lock of its
 * own, for a file that outlives its lease while still being applied.
 */
export async function claimNext(db: Executor, { workerId, leaseSeconds, now = new Date() }: ClaimOptions): Promise<FileRow | null> {
  const staleBefore = new Date(now.getTime() - leaseSeconds * 1000).toISOString();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('erp_file_claims'))`);
    const result = await tx.execute(sql`
      update file_processing set status = 'in_progress', claimed_by = ${workerId}, claimed_at = ${now.toISOString()}::timestamptz,
        start_date = ${now.toISOString()}::timestamptz, end_date = null
      where id = (
        select id from file_processing
        where (status = 'not_processed' or (status = 'in_progress' and claimed_at < ${staleBefore}::timestamptz))
          and not exists (select 1 from file_processing busy where busy.status = 'in_progress' and busy.claimed_at >= ${staleBefore}::timestamptz)
        order by created_at, id
        limit 1
        for update skip locked)
      returning *`);
    const [claimed] = rowsOf(result);
    return claimed ? fromSql(claimed) : null;
  });
}

export interface ProcessHooks {
  /** Called inside the file's transaction after the lines were applied, before the commit (tests). */
  beforeCommit?: (file: FileRow) => Promise<void> | void;
}

export interface ProcessOptions {
  workerId: string;
  clock?: () => Date;
  hooks?: ProcessHooks;
}

class Rollback extends Error {
  constructor(
    readonly errors: LineError[],
    readonly count: number,
  ) {
    super('rollback');
  }
}

/** The columns the upload-scope check reads (decision 0017). */
export const SCOPE_COLUMNS = ['plant', 'service_order', 'user_email', 'ship_to_party'];

/** A database error's own words (English, as PostgreSQL wrote them) in a coded sentence. */
const dbRefusal = (error: unknown): Coded => {
  const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
  return coded('erpDatabaseRefused', { detail }, `The database refused the file: ${detail}`);
};

/**
 * Processes a file this worker claimed, in one transaction. Returns the final row, or null when
 * the claim was lost (the lease expired and another worker took the file).
 */
export async function processClaimed(db: Executor, fileId: string, options: ProcessOptions): Promise<FileRow | null> {
  try {
    return await applyClaimed(db, fileId, options);
  } catch (error) {
    // A failure of the moment (a deadlock, a lost connection, the database shutting down): nothing
    // was written, and the file is not errored. It goes back to the queue to be tried at the next
    // turn; when even that cannot be written, its lease runs out and it is claimed again.
    if (isTransient(error)) {
      await db
        .execute(
          sql`update file_processing set status = 'not_processed', claimed_by = null, claimed_at = null, start_date = null
            where id = ${fileId} and status = 'in_progress' and claimed_by = ${options.workerId}`,
        )
        .catch(() => {});
    }
    throw error;
  }
}

/**
 * SQLSTATE classes of failures that say nothing of the file: 08 connection, 40 transaction
 * rollback (deadlock, serialization), 53 insufficient resources (disk full, too many connections),
 * 57 operator intervention (shutdown). pg's errors carry the code; a socket closed under pg has none but its text.
 */
const FILE_SIZED = new Set(['57014', '53400', '53200']);

export function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // Not what the same file would meet again at every try, which would hold every later file back
  // for good: 57014 (a statement cancelled, as by a statement_timeout an operator set), 53400 (its
  // sorts spilled past temp_file_limit), 53200 (out of memory for it). Those error the file.
  if (typeof code === 'string' && /^(08|40|53|57)/.test(code) && !FILE_SIZED.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|ECONNRESET|ECONNREFUSED|Client has encountered a connection error/i.test(message);
}

async function applyClaimed(db: Executor, fileId: string, { workerId, clock = () => new Date(), hooks }: ProcessOptions): Promise<FileRow | null> {
  return db.transaction(async (tx) => {
    // One file applied at a time across replicas (claimNext), also past a lease.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('erp_file_apply'))`);
    const [locked] = rowsOf(
      await tx.execute(
        sql`select f.*, octet_length(c.content) as content_bytes from file_processing f left join file_contents c on c.file_id = f.id where f.id = ${fileId} for update of f`,
      ),
    );
    if (!locked) return null;
    const file = fromSql(locked);
    if (file.status !== 'in_progress' || file.claimedBy !== workerId) return null;
    const contentBytes = locked.content_bytes === null || locked.content_bytes === undefined ? null : Number(locked.content_bytes);
    let errors: LineError[];
    let errorCount = 0;
    let lineCount: number | null = null;
    if (contentBytes === null) {
      errors = [{ line: null, ...coded('erpContentNotStored', {}, 'The content of the file was not stored; send the file again') }];
    } else if (!(ERP_FILE_TYPES as readonly string[]).includes(file.fileType)) {
      errors = [{ line: null, ...coded('erpFileTypeUnknown', { type: file.fileType, fileName: file.fileName, types: ERP_FILE_TYPES.join(', ') }, `Unknown file type ${file.fileType}`) }];
    } else {
      const fileType = file.fileType as ErpFileType;
      const isUpload = file.source === 'upload';
      try {
        // A savepoint: a file that fails half-way leaves nothing behind but its errored row.
        await tx.transaction(async (savepoint) => {
          const pieces = await readContent(db, savepoint, fileId, contentBytes);
          await createStaging(savepoint, fileType);
          // Read off the event loop for a large file; rows go into the staging table by COPY as they are read.
          const sink = stagingSink(savepoint, fileType);
          let parsed;
          try {
            parsed = await parseErpFile(pieces, contentBytes, { fileType, stage: true, keep: isUpload ? SCOPE_COLUMNS : [] }, (copy) => sink.write(copy));
          } finally {
            await sink.end();
          }
          lineCount = parsed.lineCount;
          if (parsed.errorCount > 0) throw new Rollback(parsed.errors, parsed.errorCount);
          if (isUpload) {
            // Checked again here, in the applying transaction: the uploader's rights and the orders as they are now (0017).
            const uploader = await currentUploader(savepoint, file.uploadedBy);
            const outside = 'message' in uploader ? [{ line: null, ...uploader }] : await linesOutsideScope(savepoint, uploader, fileType, parsed.records);
            if (outside.length > 0) throw new Rollback(outside, outside.length);
          }
          const outcome = await applyStaged(savepoint, fileType, clock(), new Set(parsed.columns));
          if (outcome.errorCount > 0) throw new Rollback(outcome.errors, outcome.errorCount);
          await dropStaging(savepoint);
        });
        errors = [];
      } catch (error) {
        if (error instanceof Rollback) {
          errors = error.errors;
          errorCount = error.count;
        } else if (isTransient(error)) throw error;
        else errors = [{ line: null, ...dbRefusal(error) }];
      }
    }
    await hooks?.beforeCommit?.(file);
    const status = errors.length > 0 ? 'errored' : 'processed';
    const [done] = rowsOf(
      await tx.execute(sql`
        with done as (
          update file_processing set status = ${status}, end_date = ${clock().toISOString()}::timestamptz, line_count = ${lineCount},
            errors = ${JSON.stringify(listedErrors(errors, Math.max(errorCount, errors.length)))}::jsonb
          where id = ${fileId} returning *
        ), dropped as (delete from file_contents where file_id = ${fileId}),
        -- A sweep that ran while the file was being received (its row not yet committed) may have
        -- written its slot "missing" meanwhile: the file has come, so that row goes (as registerFile's).
        handed_over as (
          delete from file_processing m using done d
          where m.status = 'missing' and m.business_date = d.business_date and m.file_type = d.file_type and m.file_part_of_day = d.file_part_of_day
        )
        select * from done`),
    );
    return done ? fromSql(done) : null;
  });
}

/** Claims and processes waiting files until none is left; returns the final rows. */
export async function processPending(db: Executor, options: ProcessOptions & { leaseSeconds: number; limit?: number }): Promise<FileRow[]> {
  const done: FileRow[] = [];
  const clock = options.clock ?? (() => new Date());
  for (let i = 0; i < (options.limit ?? Number.POSITIVE_INFINITY); i += 1) {
    const claimed = await claimNext(db, { workerId: options.workerId, leaseSeconds: options.leaseSeconds, now: clock() });
    if (!claimed) break;
    const row = await processClaimed(db, claimed.id, options);
    if (row) done.push(row);
  }
  return done;
}

/** How far back the sweep looks for slots that never got a file. */
export const SWEEP_DAYS = 31;

/**
 * Writes a "missing" row for every expected slot whose deadline has passed without any file,
 * from the first day the queue knows (at most SWEEP_DAYS back) to today. Two replicas sweeping at
 * once cannot write a slot twice (partial unique index, ON CONFLICT DO NOTHING).
 */
export async function sweepMissing(db: Executor, schedule: IngestionSchedule, now: Date = new Date(), ids: () => string = randomUUID): Promise<number> {
  return sweep(db, schedule, now, ids, null);
}

/**
 * sweepMissing for a polling worker: a sweep whose slots (first day, number of passed deadlines)
 * are those of this sweeper's last successful sweep writes nothing new (a slot's row only ever
 * gives way to a file of the same slot), so it stops after the one `min()` query.
 */
export function missingSweeper(db: Executor, schedule: IngestionSchedule): () => Promise<number> {
  const memo: SweepMemo = { lastRange: null };
  return () => sweep(db, schedule, new Date(), randomUUID, memo);
}

interface SweepMemo {
  lastRange: string | null;
}

async function sweep(db: Executor, schedule: IngestionSchedule, now: Date, ids: () => string, memo: SweepMemo | null): Promise<number> {
  const today = localDate(now, schedule.timezone);
  const [first] = await db.select({ date: sql<string | null>`min(${fileProcessing.businessDate})::text` }).from(fileProcessing);
  const earliest = addDaysToDate(today, -SWEEP_DAYS);
  const from = first?.date && first.date > earliest ? first.date : first?.date ? earliest : today;
  // Only today's deadlines can be ahead of now (an earlier day's ended before today began in the
  // schedule's zone): each poll places today's slots alone, and the rest only when it writes.
  const passed: Array<{ date: string; slot: Slot }> = [];
  for (let date = from; date <= today; date = addDaysToDate(date, 1)) {
    for (const slot of expectedSlots(schedule)) {
      if (date === today && deadlineOf(schedule, date, slot.partOfDay) > now) continue;
      passed.push({ date, slot });
    }
  }
  const range = `${from}|${passed.length}`;
  if (passed.length === 0 || memo?.lastRange === range) return 0;
  const slots = passed.map(({ date, slot }) => ({
    id: ids(),
    file_type: slot.fileType,
    file_name: fileNameFor(slot.fileType, date, slot.partOfDay),
    business_date: date,
    file_part_of_day: slot.partOfDay,
    created_at: deadlineOf(schedule, date, slot.partOfDay).toISOString(),
  }));
  const result = await db.execute(sql`
    insert into file_processing (id, file_type, file_name, business_date, file_part_of_day, status, errors, created_at)
    select s.id, s.file_type, s.file_name, s.business_date, s.file_part_of_day, 'missing', '[]'::jsonb, s.created_at
    from json_to_recordset(${JSON.stringify(slots)}::json) as s(id uuid, file_type text, file_name text, business_date date, file_part_of_day text, created_at timestamptz)
    where not exists (select 1 from file_processing f where f.business_date = s.business_date and f.file_type = s.file_type and f.file_part_of_day = s.file_part_of_day)
    on conflict do nothing
    returning id`);
  const rows = Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
  if (memo) memo.lastRange = range;
  return rows.length;
}
