/** Test fixtures of the count sheet's tests: a material-count line of count 27. */
import type { MaterialCountRow } from '../../../contract/stock';

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
