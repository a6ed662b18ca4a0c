/**
 * When an account expires (§4: "an expired account … is re-checked on the next call"). Its
 * expiration date is the last valid day; from the next day the user is expired. The day is the
 * calendar day of the user's plants (plants.timezone): a "last valid day" of 1 December ends at
 * midnight in Helsinki for a Helsinki mechanic, not at 02:00 (UTC's midnight). For someone whose
 * plants lie in several zones it ends when it has ended in all of them (the earliest local date);
 * for someone without a plant (a super manager) it is the UTC day. The server's SQL twin is
 * notExpiredSql (server/repositories/users.ts); a test runs both on the same fixtures.
 */

/** One formatter per zone (building one costs tens of microseconds, and the sign-in check asks on every call); null: unknown zone. */
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterOf(zone: string): Intl.DateTimeFormat | null {
  if (!formatters.has(zone)) {
    try {
      formatters.set(zone, new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }));
    } catch {
      formatters.set(zone, null);
    }
  }
  return formatters.get(zone)!;
}

/** The calendar day (YYYY-MM-DD) in `zone` at `now`; UTC for a zone this runtime does not know. */
export function dayIn(zone: string, now: Date = new Date()): string {
  const formatter = formatterOf(zone);
  if (!formatter) return now.toISOString().slice(0, 10);
  // From the parts, not a locale's pattern: no CLDR change can reorder them.
  const parts = formatter.formatToParts(now);
  const part = (type: 'year' | 'month' | 'day') => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The calendar day expiry is judged by at `now`: the earliest day among the zones of the user's plants, UTC's without any. */
export const expiryDay = (now: Date = new Date(), zones: readonly string[] = []): string =>
  zones.length === 0 ? now.toISOString().slice(0, 10) : zones.map((zone) => dayIn(zone, now)).sort()[0]!;

/** Whether an account whose last valid day is `lastDay` (null: never expires) has expired at `now`, in the zones of its plants. */
export const isPastLastDay = (lastDay: string | null | undefined, now: Date = new Date(), zones: readonly string[] = []): boolean =>
  lastDay !== null && lastDay !== undefined && lastDay !== '' && lastDay < expiryDay(now, zones);
