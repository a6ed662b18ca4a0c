/** The front-liner filter: only plants that use stock counts, and the address reads back as the same filter. */
import { describe, expect, it } from 'vitest';
import { defaultFilter, filterFromParams, filterToParams, stockCountPlants, type FilterChoices } from './occupancy-filter';

const choices: FilterChoices = { byPlant: true, byGroup: false, byEmail: true, plants: ['1000', '2000'], plannerGroups: [] };
const TODAY = '2026-12-15';

describe('stockCountPlants', () => {
  it('offers only the plants of stock_count_allowed_plants, in the user’s order', () => {
    expect(stockCountPlants(['3000', '1000', '2000'], ['2000', '1000'])).toEqual(['1000', '2000']);
    expect(stockCountPlants(['3000'], ['1000'])).toEqual([]);
  });
});

describe('the filter in the address', () => {
  it('defaults to the first plant that uses stock counts, the last 30 days', () => {
    const plants = stockCountPlants(['3000', '1000'], ['1000']);
    expect(defaultFilter({ ...choices, plants }, TODAY)).toEqual({ start_date: '2026-11-15', end_date: TODAY, plant: '1000' });
    expect(filterFromParams(new URLSearchParams(), { ...choices, plants }, TODAY).plant).toBe('1000');
  });

  it('reads back what it wrote: range, plant or group, e-mail', () => {
    const byPlant = { start_date: '2026-01-01', end_date: '2026-01-31', plant: '2000', conducted_by: 'anna@example.com' };
    expect(filterFromParams(new URLSearchParams(filterToParams(byPlant)), choices, TODAY)).toEqual(byPlant);
    const groups: FilterChoices = { ...choices, byGroup: true, plannerGroups: ['P01', 'P02'] };
    const byGroup = { start_date: '2026-02-01', end_date: '2026-02-01', planner_group: 'P02' };
    expect(filterFromParams(new URLSearchParams(filterToParams(byGroup)), groups, TODAY)).toEqual(byGroup);
  });

  it('falls back for what the user may not choose: a plant without stock counts, a broken range, another’s e-mail filter', () => {
    const params = new URLSearchParams({ from: '2026-03-10', to: '2026-03-01', plant: '3000', email: 'anna@example.com' });
    expect(filterFromParams(params, { ...choices, byEmail: false }, TODAY)).toEqual({ start_date: '2026-11-15', end_date: TODAY, plant: '1000' });
  });
});
