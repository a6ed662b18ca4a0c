import { describe, expect, it } from 'vitest';
import { columnOfHeader, isValidPriority, looksLikeFormula, neutraliseCell } from './priority';

describe('priority CSV rules', () => {
  it('reads the usual spellings of a column name', () => {
    expect(['Ship-to-party code', 'ship_to_party_code', 'SHIPTOPARTYCODE', 'shipToParty'].map(columnOfHeader)).toEqual(Array(4).fill('shipToPartyCode'));
    expect(columnOfHeader('Access point ID')).toBe('accessPointId');
    expect(columnOfHeader('comment')).toBeNull();
  });
  it('accepts whole priorities from 1 to 99, as the database check does', () => {
    expect([1, 50, 99].every(isValidPriority)).toBe(true);
    expect([0, 100, 1.5, Number.NaN].some(isValidPriority)).toBe(false);
  });
  it('neutralises cells a spreadsheet would evaluate', () => {
    expect(['=1+1', '+1', '-1', '@A1', '\tx'].every(looksLikeFormula)).toBe(true);
    expect(neutraliseCell('=1+1')).toBe("'=1+1");
    expect(neutraliseCell('0050010001')).toBe('0050010001');
  });
});
