/**
 * When an account expires (§4: "an expired account … is re-checked on the next call"). Its
 * expiration date is the last valid day; from the next day the user is expired. The day is the UTC
 * calendar date, on the server and in the app alike: the expiration dialog warned by the device's
 * local date, so around midnight it could say "loses access at once" for a day the server still
 * counted as valid (or the other way round).
 */

/** The calendar day (YYYY-MM-DD) expiry is judged by at `now`: the UTC date. */
export const expiryDay = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

/** Whether an account whose last valid day is `lastDay` (null: never expires) has expired at `now`. */
export const isPastLastDay = (lastDay: string | null | undefined, now: Date = new Date()): boolean =>
  lastDay !== null && lastDay !== undefined && lastDay !== '' && lastDay < expiryDay(now);
