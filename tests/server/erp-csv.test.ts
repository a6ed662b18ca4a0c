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

describe('ERP cells the database could not take as they are', () => {
  const orders = (cells: Record<string, string>) => {
    const row = { service_order: '4000000001', line_number: '10', plant: 'FI01', material_code: 'KM123', material_description: 'Door roller', unit: 'PC', ...cells };
    return readErpCsv(`${Object.keys(row).join(';')}\n${Object.values(row).join(';')}\n`, 'ORDERS');
  };

  it('refuses a code longer than 200 characters, naming the line and the column (an index entry past ~2.7 kB refused the whole file, without a line)', () => {
    const code = 'E'.repeat(201);
    expect(orders({ equipment_code: code }).errors).toEqual([
      { line: 2, code: 'erpTooLong', params: { column: 'equipment_code', value: `${'E'.repeat(40)}…`, length: 201, max: 200 }, message: `equipment_code "${'E'.repeat(40)}…" is 201 characters long; at most 200 are taken` },
    ]);
    expect(orders({ equipment_code: 'E'.repeat(200) }).errors).toEqual([]);
    // Characters, not UTF-16 units: 200 emoji are 200 characters.
    expect(orders({ equipment_code: '🛗'.repeat(200) }).errors).toEqual([]);
  });

  it('takes descriptions and addresses up to 2,000 characters', () => {
    expect(orders({ equipment_description: 'd'.repeat(2000), delivery_address: 'a'.repeat(1500) }).errors).toEqual([]);
    expect(orders({ equipment_description: 'd'.repeat(2001) }).errors.map((error) => [error.line, error.params])).toEqual([[2, { column: 'equipment_description', value: `${'d'.repeat(40)}…`, length: 2001, max: 2000 }]]);
  });

  it('refuses a code in a list longer than 200 characters', () => {
    const read = readErpCsv(`plant;storage_location;material_code;planner_groups\nFI01;V001;KM123;F10|${'G'.repeat(201)}\n`, 'STOCK');
    expect(read.errors.map((error) => [error.line, error.code])).toEqual([[2, 'erpTooLong']]);
  });

  it('refuses a time an offset carries past the year 9999, naming the line (the database refused the file without one)', () => {
    const deliveries = (occurredAt: string) =>
      readErpCsv(`service_order;line_number;tracking_number;carrier;event_status;event_description;occurred_at\n4000000001;10;TRK1;DHL;OK;Delivered;${occurredAt}\n`, 'DELIVERIES');
    expect(deliveries('9999-12-31T23:59:59-05:00').errors.map((error) => [error.line, error.code])).toEqual([[2, 'erpNotTime']]);
    expect(deliveries('9999-12-31T18:00:00-05:00').errors).toEqual([]);
    expect(deliveries('0001-01-01T00:30:00+01:00').errors.map((error) => [error.line, error.code])).toEqual([[2, 'erpNotTime']]);
  });
});

describe('a quote that is never closed', () => {
  it('stops reading at a row longer than a million characters, naming its line, and still counts the file’s lines', async () => {
    const { createErpParser } = await import('../../server/ingestion/erp-parser');
    const parser = createErpParser({ fileType: 'MATERIALS', stage: true });
    parser.push('material_code;description_english;unit\nKM1;Door roller;PC\nKM2;"Guide shoe;PC\n');
    const line = 'KM3;Rope;PC\n';
    // 2.4 MB after the open quote, in 12 kB pieces.
    for (let i = 0; i < 200; i += 1) parser.push(line.repeat(1000));
    const { outcome } = parser.end();
    expect(outcome.errors).toEqual([
      {
        line: 3,
        code: 'erpRowTooLong',
        params: { max: 1_000_000 },
        message: 'The row starting on this line is longer than 1000000 characters (a quote that is never closed?); the file was read no further',
      },
    ]);
    expect(outcome.lineCount).toBe(3 + 200 * 1000);
    expect(outcome.recordCount).toBe(1);
  });
});
