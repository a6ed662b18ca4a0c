import { isCalendarDay } from '../../../contract/dashboard';

/**
 * The overview's range (?from=&to=) as it goes along the links to a day and back: "All days"
 * dropped it and showed the last 14 days again. Only a valid range; '' without one.
 */
export function rangeSearch(params: URLSearchParams): string {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (!isCalendarDay(from) || !isCalendarDay(to) || from > to) return '';
  return `?${new URLSearchParams({ from, to }).toString()}`;
}
