/** Query strings the way §7 reads them: arrays as repeated keys, no key for an empty value. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** `{ countries: ['FI','DE'] }` → `countries=FI&countries=DE` (§7 query arrays). */
export function toSearchParams(query: Record<string, QueryValue>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((item) => params.append(key, String(item)));
    else params.append(key, String(value));
  }
  return params;
}

/** The most pages "Load more" adds below the first on one screen (the address keeps at most this many). */
export const MAX_MORE_PAGES = 20;

/** A whole number of the address (a page, the pages loaded below it), at least `min`; anything else reads as `fallback`. */
export function wholeParam(value: string | null, fallback: number, min: number): number {
  const number = Number(value);
  return value !== null && value !== '' && Number.isInteger(number) && number >= min ? number : fallback;
}
