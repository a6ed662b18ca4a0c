/** Test fixtures of the count sheet's tests: a material-count line of count 27. */
import type { MaterialCountRow } from '../../../contract/stock';
import type { MergeLineRow } from '../../../contract/stock-count-parts';

export const TEST_COUNT_ID = 27;

export const testLine = (id: number, quantity: number | null = null, version = 0, code = `KM${String(id).padStart(6, '0')}`): MaterialCountRow => ({
  id,
  stock_count_id: TEST_COUNT_ID,
  material_code: code,
  material_description_english: `Part ${id}`,
  quantity,
  unit: 'PC',
  book_quantity: 5,
  book_quantity_at: null,
  book_quantity_now: 5,
  version,
  updated_by: null,
  updated_at: '2026-11-20T09:00:00.000Z',
});

/** A line of the merge screen counted differently by two counters (parts 7 and 8): 5 and `second`. */
export const testMergeLine = (second = 7): MergeLineRow => ({
  material_count_id: 41,
  material_code: 'KM100',
  material_description_english: 'Door roller',
  unit: 'PC',
  state: 'variance',
  quantity: null,
  book_quantity: 6,
  counts: [
    { part_id: 7, counter: 'mechanic@example.com', quantity: 5, counted_by: 'mechanic@example.com', counted_at: '2026-12-01T08:00:00Z' },
    { part_id: 8, counter: 'mikko.virtanen@lift.example', quantity: second, counted_by: 'mikko.virtanen@lift.example', counted_at: '2026-12-01T08:05:00Z' },
  ],
  resolved_part_id: null,
  resolved_by: null,
  resolved_by_name: null,
  resolved_at: null,
});
