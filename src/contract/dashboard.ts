/**
 * File-processing dashboard (§3 "File dashboard detail row" / "Compact row", §7 dashboard calls)
 * and the ERP file upload (#9).
 */
import { z } from './zod';
import { FILE_PARTS_OF_DAY, FILE_STATUSES } from '../domain/constants';

/** Longest compact-view range in days, so one call stays one quick query. */
export const COMPACT_VIEW_MAX_DAYS = 366;

/** YYYY-MM-DD that is a real calendar day ("2025-02-30" is refused with a message). */
export function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC: that reads the years 0–99 as 1900–1999 ("0099-12-31" was no calendar day).
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const day = (name: string) =>
  z
    .string({ message: `${name} is required (YYYY-MM-DD)` })
    .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date as YYYY-MM-DD`), z.refine(isCalendarDay, { message: `${name} is not a calendar day` }));

export const detailedViewQuery = z.object({ date: day('date') });

/** The ERP's business day now (in the ingestion schedule's zone): the day whose files are "today's". */
export const businessDayResponse = z
  .object({ today: z.string(), timezone: z.string() })
  .register(z.globalRegistry, { id: 'BusinessDay' });
export type BusinessDay = z.infer<typeof businessDayResponse>;
export type DetailedViewQuery = z.infer<typeof detailedViewQuery>;

const daysBetween = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000);

export const compactViewQuery = z
  .object({ start_date: day('start_date'), end_date: day('end_date') })
  .check(
    z.refine((q) => q.start_date <= q.end_date, { message: 'start_date must not be after end_date', path: ['start_date'] }),
    z.refine((q) => daysBetween(q.start_date, q.end_date) < COMPACT_VIEW_MAX_DAYS, {
      message: `The range may span at most ${COMPACT_VIEW_MAX_DAYS} days`,
      path: ['end_date'],
    }),
  );
export type CompactViewQuery = z.infer<typeof compactViewQuery>;

export const fileError = z.object({
  /** Line of the file (1 = header); null when the error concerns the whole file. */
  line: z.nullable(z.int()),
  /** In English; `code` with `params` is what the app words in the reader's language (serverErrors.<code>; decision 0074). */
  message: z.string(),
  code: z.optional(z.string()),
  params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
});
export type FileError = z.infer<typeof fileError>;

export const fileStatus = z.enum(FILE_STATUSES);
export type FileStatus = z.infer<typeof fileStatus>;

export const fileRow = z
  .object({
    /** Null for an expected file that has no row yet (a slot still ahead today, or not swept). */
    id: z.nullable(z.string()),
    file_type: z.string(),
    start_date: z.nullable(z.string()),
    end_date: z.nullable(z.string()),
    file_name: z.string(),
    file_part_of_day: z.enum(FILE_PARTS_OF_DAY),
    status: fileStatus,
    errors: z.array(fileError),
    line_count: z.nullable(z.int()),
    source: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'FileDashboardRow' });
export type FileRow = z.infer<typeof fileRow>;

export const fileIdParams = z.object({ id: z.uuid({ message: 'id must be a file id (UUID)' }).check(z.toLowerCase()) });

export const detailedViewResponse = z.array(fileRow);

export const compactRow = z
  .object({
    date: z.string(),
    number_of_files: z.int(),
    number_of_processed_files: z.int(),
    number_of_errored_files: z.int(),
    number_of_missing_files: z.int(),
    number_of_in_progress_files: z.int(),
    number_of_not_processed_files: z.int(),
  })
  .register(z.globalRegistry, { id: 'FileDashboardCompactRow' });
export type CompactRow = z.infer<typeof compactRow>;

export const compactViewResponse = z.array(compactRow);

export const fileUploadQuery = z.object({
  fileName: z.string({ message: 'fileName is required' }).check(z.minLength(1, 'fileName is required'), z.maxLength(255, 'fileName is at most 255 characters')),
});

export const fileUploadResult = z
  .object({
    /** True when a file with the same content was received before: it is not processed again. */
    duplicate: z.boolean(),
    file: fileRow,
  })
  .register(z.globalRegistry, { id: 'FileUploadResult' });
export type FileUploadResult = z.infer<typeof fileUploadResult>;

/**
 * 403 of the upload call when the file is outside the uploader's scope (#20): `message` says why
 * and names the first lines; `errors` lists the lines (line null: the whole file).
 */
export const fileUploadRefusal = z
  .object({
    message: z.string(),
    code: z.optional(z.string()),
    params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
    errors: z.optional(z.array(fileError)),
  })
  .register(z.globalRegistry, { id: 'FileUploadRefusal' });
export type FileUploadRefusal = z.infer<typeof fileUploadRefusal>;

/** Largest ERP file accepted by the upload call (a 100,000-line order file is ~25 MB). */
export const FILE_UPLOAD_MAX_BYTES = 64 * 1024 * 1024;
