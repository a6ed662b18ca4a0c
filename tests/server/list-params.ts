/**
 * §5 required list parameters (decision 0024): tests that vary one or two parameters send the
 * others with these values, the ones the PWA sends for a first page.
 */
export const TRACKING_LIST_DEFAULTS = { query: '', page: '1', status: 'all', myOrders: 'false', maxResults: '20' } as const;

/** `query` ("status=arrived&page=2" or an object) with every required tracking parameter it lacks. */
export function trackingListQuery(query: string | Record<string, string | number> = ''): string {
  const given = new URLSearchParams(typeof query === 'string' ? query : Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  for (const [key, value] of Object.entries(TRACKING_LIST_DEFAULTS)) if (!given.has(key)) given.set(key, value);
  return given.toString();
}
