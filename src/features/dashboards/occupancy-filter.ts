/**
 * The front-liner dashboard's filter, kept in the address (?from=&to=&plant=&group=&email=): a
 * report left for another screen is the same report on Back (it lived in the page's state and was
 * lost). What the address says is checked against what the user may choose; the rest falls back.
 */
import dayjs from 'dayjs';
import { isCalendarDay } from '../../contract/dashboard';
import type { OccupancyFilter } from './api/frontliner';

/** What the user may choose on the page (§6 by role; plants only where stock counts are used). */
export interface FilterChoices {
  byPlant: boolean;
  byGroup: boolean;
  byEmail: boolean;
  plants: readonly string[];
  plannerGroups: readonly string[];
}

/**
 * The plants a report may be asked for: the server answers 403 "Stock counts are not used in
 * plant X" for the others, and before that it showed an empty report with no word why.
 */
export function stockCountPlants(plants: readonly string[], allowed: readonly string[]): string[] {
  return plants.filter((plant) => allowed.includes(plant));
}

/** The first view: the last 30 days of the user's first planner group, else of their first plant. */
export function defaultFilter(choices: FilterChoices, today: string = dayjs().format('YYYY-MM-DD')): OccupancyFilter {
  const range = { start_date: dayjs(today).subtract(30, 'day').format('YYYY-MM-DD'), end_date: today };
  if (choices.byGroup && choices.plannerGroups[0]) return { ...range, planner_group: choices.plannerGroups[0] };
  if (choices.byPlant && choices.plants[0]) return { ...range, plant: choices.plants[0] };
  return range;
}

/** The filter the address names; a range, plant or group the user may not choose is the default's. */
export function filterFromParams(params: URLSearchParams, choices: FilterChoices, today?: string): OccupancyFilter {
  const fallback = defaultFilter(choices, today);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const range = isCalendarDay(from) && isCalendarDay(to) && from <= to ? { start_date: from, end_date: to } : { start_date: fallback.start_date, end_date: fallback.end_date };
  const { start_date: _start, end_date: _end, ...fallbackScope } = fallback;
  const group = params.get('group') ?? '';
  const plant = params.get('plant') ?? '';
  // No keys of undefined: the filter is the report's query key.
  const scope =
    choices.byGroup && choices.plannerGroups.includes(group)
      ? { planner_group: group }
      : choices.byPlant && choices.plants.includes(plant)
        ? { plant }
        : fallbackScope;
  const email = choices.byEmail ? params.get('email')?.trim() : undefined;
  return { ...range, ...scope, ...(email ? { conducted_by: email } : {}) };
}

/** The address of a filter: filterFromParams reads it back as the same filter. */
export function filterToParams(filter: OccupancyFilter): Record<string, string> {
  return {
    from: filter.start_date,
    to: filter.end_date,
    ...(filter.planner_group ? { group: filter.planner_group } : filter.plant ? { plant: filter.plant } : {}),
    ...(filter.conducted_by ? { email: filter.conducted_by } : {}),
  };
}

