/** Date arithmetic for the seed: every date is an offset from the seed's `now`. */

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export const addHours = (date: Date, hours: number): Date => new Date(date.getTime() + hours * HOUR);
export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY);
export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);
export const maxDate = (a: Date, b: Date): Date => (a > b ? a : b);
export const minDate = (a: Date, b: Date): Date => (a < b ? a : b);
