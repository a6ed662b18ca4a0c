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

describe('ERP numbers (bounded: reads turn them into doubles)', () => {
  const read = (value: string) => readErpCsv(`plant;storage_location;material_code;unrestricted_count\nFI01;V001;KM123;${value}\n`, 'STOCK');

  it('takes up to 15 digits before the point and 6 after it, leading zeros aside', () => {
    for (const value of ['0', '-3', '12.5', '999999999999999.999999', '-999999999999999', '0000000000000000042.5']) {
      expect(read(value).errors, value).toEqual([]);
      expect(read(value).records[0]!.values.unrestricted_count).toBe(value);
    }
  });

  it('refuses more, naming the line and the column, the value cut short', () => {
    const outOfRange = (value: string) => ({
      line: 2,
      message: `unrestricted_count "${value}" is out of range (at most 15 digits before the . and 6 after it)`,
      code: 'erpOutOfRange',
      params: { column: 'unrestricted_count', value },
    });
    expect(read('1000000000000000').errors).toEqual([outOfRange('1000000000000000')]);
    expect(read('1.1234567').errors).toEqual([outOfRange('1.1234567')]);
    expect(read(`1${'0'.repeat(400)}`).errors).toEqual([outOfRange(`1${'0'.repeat(39)}…`)]);
    expect(read('1e400').errors[0]!.message).toContain('is not a number');
  });
});
