/** The /stock-count dashboard reports a plant that uses stock counts, never one the server refuses. */
import { describe, expect, it } from 'vitest';
import { dashboardFilter } from './stock-count-page';

const planner = ['stock_admin'];

describe('the stock count dashboard’s plant', () => {
  it('is the first of the user’s plants in stock_count_allowed_plants', () => {
    expect(dashboardFilter(planner, ['3000', '1000'], [], ['1000', '2000'])?.plant).toBe('1000');
  });

  it('is none when no plant of the user uses stock counts', () => {
    expect(dashboardFilter(planner, ['3000'], [], ['1000'])).toBeNull();
  });
});
