/**
 * The planner's merge calls act on what the screen showed (#18, decision 0033): "Take X's" sends
 * the counter's quantity it showed, "Send to recount" every counter's, and "Submit anyway" the
 * open parts it listed, so the server refuses what changed meanwhile instead of booking it unseen.
 */
import { describe, expect, it } from 'vitest';
import { openPartIdsParam, resolveLineBody, type MergeLineRow } from '../../../contract/stock-count-parts';
import { recountLineBody, submitSearchParams, takeLineBody } from './count-parts';

const line: MergeLineRow = {
  material_count_id: 41,
  material_code: 'KM100',
  material_description_english: 'Door roller',
  unit: 'PC',
  state: 'variance',
  quantity: null,
  book_quantity: 6,
  counts: [
    { part_id: 7, counter: 'mechanic@example.com', quantity: 5, counted_by: 'mechanic@example.com', counted_at: '2026-12-01T08:00:00Z' },
    { part_id: 8, counter: 'mikko.virtanen@lift.example', quantity: 7.5, counted_by: 'mikko.virtanen@lift.example', counted_at: '2026-12-01T08:05:00Z' },
  ],
  resolved_part_id: null,
  resolved_by: null,
  resolved_by_name: null,
  resolved_at: null,
};

describe('the merge screen’s requests', () => {
  it('takes a counter’s quantity with the quantity shown, in a body the server accepts', () => {
    const body = takeLineBody(3, line, 8);
    expect(body).toEqual({ stockCountId: 3, materialCountId: 41, action: 'take', partId: 8, expectedQuantity: 7.5 });
    expect(resolveLineBody.safeParse(body).success).toBe(true);
  });

  it('sends a line to recount with every counter’s quantity shown', () => {
    const body = recountLineBody(3, { ...line, counts: [line.counts[0]!, { ...line.counts[1]!, quantity: null }] });
    expect(body).toEqual({
      stockCountId: 3,
      materialCountId: 41,
      action: 'recount',
      expectedCounts: [
        { partId: 7, quantity: 5 },
        { partId: 8, quantity: null },
      ],
    });
    expect(resolveLineBody.safeParse(body).success).toBe(true);
  });

  it('confirms open parts by naming those the planner was shown; a plain submit confirms none', () => {
    expect(submitSearchParams(3).toString()).toBe('stockCountId=3');
    expect(submitSearchParams(3, [7, 9]).toString()).toBe('stockCountId=3&confirmOpenParts=true&openPartIds=7&openPartIds=9');
    // The submit's query reads them back as the server will (repeated keys; one key is one value).
    expect(openPartIdsParam.parse(['7', '9'])).toEqual([7, 9]);
    expect(openPartIdsParam.parse('7')).toEqual([7]);
  });
});
