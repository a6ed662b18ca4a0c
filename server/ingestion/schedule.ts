/**
 * The expected schedule of ERP files (#9): which file types arrive in which parts of the day,
 * and by when (local time of the schedule's time zone). A slot whose deadline has passed without
 * a file is "missing"; a slot still ahead today is "not processed" yet. Configured with
 * INGESTION_SCHEDULE (inline JSON or the path of a JSON file); see README.md "ERP files".
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { FILE_PARTS_OF_DAY } from '../../src/domain/constants';
import { ERP_FILE_TYPES, type ErpFileType, type PartOfDay } from './formats';

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time as HH:MM (24 h)');
const part = z.enum(FILE_PARTS_OF_DAY);

/** An IANA time zone as the runtime names it (europe/helsinki → Europe/Helsinki); null when it is none. */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return zone ? new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone : null;
  } catch {
    return null;
  }
}

const scheduleSchema = z.strictObject({
  timezone: z.string().refine((zone) => canonicalTimeZone(zone) !== null, 'an IANA time zone such as Europe/Helsinki'),
  deadlines: z.strictObject({ morning: time, midday: time, evening: time }),
  files: z.partialRecord(z.enum(ERP_FILE_TYPES), z.array(part)),
});

export type IngestionSchedule = z.infer<typeof scheduleSchema>;

export const DEFAULT_SCHEDULE: IngestionSchedule = {
  timezone: 'UTC',
  deadlines: { morning: '08:00', midday: '14:00', evening: '20:00' },
  files: {
    ORDERS: ['morning', 'midday', 'evening'],
    DELIVERIES: ['morning', 'midday', 'evening'],
    STOCK: ['morning'],
    MATERIALS: ['morning'],
  },
};

/** Reads INGESTION_SCHEDULE: inline JSON (starts with "{") or a path to a JSON file. */
export function parseSchedule(value: string | undefined): IngestionSchedule {
  if (value === undefined || value.trim() === '') return DEFAULT_SCHEDULE;
  const trimmed = value.trim();
  let text = trimmed;
  if (!trimmed.startsWith('{')) {
    try {
      text = readFileSync(trimmed, 'utf8');
    } catch {
      throw new Error(`INGESTION_SCHEDULE: cannot read the file ${trimmed}`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('INGESTION_SCHEDULE: not valid JSON');
  }
  const parsed = scheduleSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`INGESTION_SCHEDULE: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

export interface Slot {
  fileType: ErpFileType;
  partOfDay: PartOfDay;
}

/** Expected files of one day, in part-of-day order, then file-type order. */
export function expectedSlots(schedule: IngestionSchedule): Slot[] {
  return FILE_PARTS_OF_DAY.flatMap((partOfDay) =>
    ERP_FILE_TYPES.filter((fileType) => schedule.files[fileType]?.includes(partOfDay)).map((fileType) => ({ fileType, partOfDay })),
  );
}

/**
 * One formatter per time zone and kind, made once. Making an Intl.DateTimeFormat with a zone took
 * ~100 µs here, two per deadline, and the missing-file sweep placed 32 days × 8 slots on every
 * poll: ~60 ms of the event loop every 10 s on every replica (the sweep now places today's slots
 * alone, queue.ts). A formatter holds no data, only the zone's rules: every replica's is the same.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'parts' | 'date', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let made = formatters.get(key);
  if (!made) {
    made =
      kind === 'parts'
        ? new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
        : new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(key, made);
  }
  return made;
}

/** Milliseconds the zone is ahead of UTC at `instant`. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = formatter('parts', timeZone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant of `date` at `hhmm` local time in the schedule's zone. */
export function zonedInstant(date: string, hhmm: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = hhmm.split(':').map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let instant = wall - zoneOffset(wall, timeZone);
  instant = wall - zoneOffset(instant, timeZone); // once more across a DST change
  return new Date(instant);
}

export function deadlineOf(schedule: IngestionSchedule, date: string, partOfDay: PartOfDay): Date {
  return zonedInstant(date, schedule.deadlines[partOfDay], schedule.timezone);
}

/** The calendar day of `instant` in the schedule's zone (YYYY-MM-DD). */
export function localDate(instant: Date, timeZone: string): string {
  return formatter('date', timeZone).format(instant);
}

export function addDaysToDate(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The part of the day a file received at `instant` belongs to, when its name does not say. */
export function partOfDayAt(schedule: IngestionSchedule, instant: Date): PartOfDay {
  const date = localDate(instant, schedule.timezone);
  if (instant <= deadlineOf(schedule, date, 'morning')) return 'morning';
  if (instant <= deadlineOf(schedule, date, 'midday')) return 'midday';
  return 'evening';
}
