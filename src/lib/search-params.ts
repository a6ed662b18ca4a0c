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
