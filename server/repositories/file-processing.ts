/**
 * File-processing dashboard reads (§3, §7): the file rows of a day and per-day counts.
 * Stored rows are what happened; the expected schedule fills the gaps the worker has not swept
 * yet, so the dashboard is right even between sweeps: a slot without any row counts as
 * "missing" once its deadline passed and as "not processed" while it is still ahead. Gaps are
 * only filled from the first day the queue knows up to today (no invented history or future).
 */
import { and, asc, between, eq, sql } from 'drizzle-orm';
import { FILE_PARTS_OF_DAY } from '../../src/domain/constants';
import type { CompactRow, FileError, FileRow, FileStatus } from '../../src/contract/dashboard';
import type { Db } from '../db/client';
import { fileProcessing } from '../db/schema';
import { fileNameFor } from '../ingestion/formats';
import { addDaysToDate, deadlineOf, expectedSlots, localDate, type IngestionSchedule } from '../ingestion/schedule';

type StoredRow = typeof fileProcessing.$inferSelect;

const partOrder = (part: string) => FILE_PARTS_OF_DAY.indexOf(part as (typeof FILE_PARTS_OF_DAY)[number]);

export function toFileRow(row: StoredRow): FileRow {
  return {
    id: row.id,
    file_type: row.fileType,
    start_date: row.startDate?.toISOString() ?? null,
    end_date: row.endDate?.toISOString() ?? null,
    file_name: row.fileName,
    file_part_of_day: (partOrder(row.filePartOfDay) >= 0 ? row.filePartOfDay : 'morning') as FileRow['file_part_of_day'],
    status: row.status as FileStatus,
    errors: Array.isArray(row.errors) ? (row.errors as FileError[]) : [],
    line_count: row.lineCount,
    source: row.source,
  };
}

async function firstKnownDate(db: Db): Promise<string | null> {
  const [row] = await db.select({ date: sql<string | null>`min(${fileProcessing.businessDate})::text` }).from(fileProcessing);
  return row?.date ?? null;
}

/** Expected slots of `date` that have no row at all, as virtual rows. */
function gapRows(schedule: IngestionSchedule, date: string, stored: readonly StoredRow[], now: Date, firstDate: string | null): FileRow[] {
  const today = localDate(now, schedule.timezone);
  if (date > today || firstDate === null || date < firstDate) return [];
  const taken = new Set(stored.map((r) => `${r.fileType}/${r.filePartOfDay}`));
  return expectedSlots(schedule)
    .filter((slot) => !taken.has(`${slot.fileType}/${slot.partOfDay}`))
    .map((slot) => ({
      id: null,
      file_type: slot.fileType,
      start_date: null,
      end_date: null,
      file_name: fileNameFor(slot.fileType, date, slot.partOfDay),
      file_part_of_day: slot.partOfDay,
      status: deadlineOf(schedule, date, slot.partOfDay) <= now ? 'missing' : 'not_processed',
      errors: [],
      line_count: null,
      source: null,
    }));
}

export async function detailedView(db: Db, date: string, schedule: IngestionSchedule, now: Date = new Date()): Promise<FileRow[]> {
  const stored = await db
    .select()
    .from(fileProcessing)
    .where(eq(fileProcessing.businessDate, date))
    .orderBy(asc(fileProcessing.createdAt), asc(fileProcessing.id));
  const rows = [...stored.map(toFileRow), ...gapRows(schedule, date, stored, now, await firstKnownDate(db))];
  return rows.sort(
    (a, b) => partOrder(a.file_part_of_day) - partOrder(b.file_part_of_day) || a.file_type.localeCompare(b.file_type) || (a.start_date ?? '').localeCompare(b.start_date ?? ''),
  );
}

const STATUS_FIELDS: Record<FileStatus, Exclude<keyof CompactRow, 'date' | 'number_of_files'>> = {
  processed: 'number_of_processed_files',
  errored: 'number_of_errored_files',
  missing: 'number_of_missing_files',
  in_progress: 'number_of_in_progress_files',
  not_processed: 'number_of_not_processed_files',
};

/** One row per day of the range (days without files included), oldest first. */
export async function compactView(db: Db, start: string, end: string, schedule: IngestionSchedule, now: Date = new Date()): Promise<CompactRow[]> {
  const grouped = await db
    .select({
      date: sql<string>`${fileProcessing.businessDate}::text`,
      status: fileProcessing.status,
      fileType: fileProcessing.fileType,
      part: fileProcessing.filePartOfDay,
      count: sql<number>`count(*)::int`,
    })
    .from(fileProcessing)
    .where(and(between(fileProcessing.businessDate, start, end)))
    .groupBy(fileProcessing.businessDate, fileProcessing.status, fileProcessing.fileType, fileProcessing.filePartOfDay);
  const firstDate = await firstKnownDate(db);
  const out: CompactRow[] = [];
  // Day by day from start to end, counted: past 9999-12-31 the next day's text ("+010000-01-01")
  // would still sort before the end, and the walk would never stop.
  const days = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000);
  for (let i = 0, date = start; i <= days; i += 1, date = addDaysToDate(date, 1)) {
    const row: CompactRow = {
      date,
      number_of_files: 0,
      number_of_processed_files: 0,
      number_of_errored_files: 0,
      number_of_missing_files: 0,
      number_of_in_progress_files: 0,
      number_of_not_processed_files: 0,
    };
    const ofDay = grouped.filter((g) => g.date === date);
    const add = (status: FileStatus, count: number) => {
      row[STATUS_FIELDS[status]] += count;
      row.number_of_files += count;
    };
    for (const g of ofDay) add(g.status as FileStatus, Number(g.count));
    const stand = ofDay.map((g) => ({ fileType: g.fileType, filePartOfDay: g.part }) as StoredRow);
    for (const gap of gapRows(schedule, date, stand, now, firstDate)) add(gap.status, 1);
    out.push(row);
  }
  return out;
}
