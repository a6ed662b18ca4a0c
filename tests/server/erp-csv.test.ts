import { describe, expect, it } from 'vitest';
import { readErpCsv } from '../../server/ingestion/csv';

describe('ERP STOCK file columns (#19 item 7)', () => {
  it('reads §3’s quantity_inspection_count as the ERP’s quality_inspection_count column', () => {
    for (const name of ['quality_inspection_count', 'quantity_inspection_count', 'Quantity_Inspection_Count']) {
      const read = readErpCsv(`plant;storage_location;material_code;${name}\nFI01;V001;KM123;4\n`, 'STOCK');
      expect(read.errors).toEqual([]);
      expect(read.records[0]!.values).toMatchObject({ quality_inspection_count: '4' });
    }
  });

  it('refuses a header naming the column under both names', () => {
    const read = readErpCsv('plant;storage_location;material_code;quality_inspection_count;quantity_inspection_count\nFI01;V001;KM123;4;5\n', 'STOCK');
    expect(read.records).toEqual([]);
    expect(read.errors[0]!.message).toMatch(/twice/);
  });
});
