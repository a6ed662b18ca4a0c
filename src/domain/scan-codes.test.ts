import { describe, expect, it } from 'vitest';
import { cleanCode, countSheetUrl, indexMaterials, matchMaterial, materialKey, orderSearchFor, parseGs1, readScan } from './scan-codes';
import { parseSearch } from './search-language';

const GS = '\u001d';
const lines = indexMaterials(['KM123456', '12345678', '00012345', 'M-100']);
const find = (raw: string) => matchMaterial(readScan(raw), lines);

describe('material codes from scans', () => {
  it('matches a plain code whatever its case and blanks', () => {
    expect(find('KM123456')).toBe('KM123456');
    expect(find(' km123456\n')).toBe('KM123456');
    expect(find('m-100')).toBe('M-100');
  });

  it('matches numeric codes with or without leading zeros (SAP padding, EAN-13, UPC-A, GTIN-14)', () => {
    expect(find('000000000012345678')).toBe('12345678');
    expect(find('0012345678')).toBe('12345678');
    expect(find('12345')).toBe('00012345');
    expect(find('00000000012345')).toBe('00012345');
    expect(materialKey('0000')).toBe('0');
    // Zeros inside a code that has letters are part of it.
    expect(find('0KM123456')).toBeNull();
  });

  it('strips a symbology identifier and control characters a decoder leaves', () => {
    expect(cleanCode(']C0KM123456\r')).toBe('KM123456');
    expect(find(']E012345678')).toBe('12345678');
  });

  it('reads GS1 element strings: AI 240 before 01, with FNC1 separators or brackets', () => {
    const gs1 = `]C10109501101530003${GS}240KM123456${GS}10LOT7`;
    expect(parseGs1(gs1)).toEqual(
      new Map([
        ['01', '09501101530003'],
        ['240', 'KM123456'],
        ['10', 'LOT7'],
      ]),
    );
    expect(find(gs1)).toBe('KM123456');
    expect(find('(01)09501101530003(240)KM123456')).toBe('KM123456');
    // Fixed-length AIs need no separator: 17 (date) then 91 (internal).
    expect(find(`]d201095011015300031726123191M-100`)).toBe('M-100');
    // Only a GTIN: its number without zero padding is the material.
    expect(find(`${GS}010000000001234517261231`)).toBe('00012345');
    expect(readScan('(01)00000012345678').kind).toBe('material');
    expect(find('(01)00000012345678')).toBe('12345678');
  });

  it('keeps the order of the GS1 candidates: 240, 241, internal 91–99, then GTIN', () => {
    expect(readScan(`${GS}0100000012345678${GS}241CUST-1${GS}240KM9`)).toEqual({ kind: 'material', candidates: ['KM9', 'CUST-1', '00000012345678'] });
  });

  it('a GS1 string without any material AI is not a material', () => {
    expect(readScan('(10)LOT1(17)261231')).toEqual({ kind: 'empty' });
  });

  it('reads the QR of our count sheets (absolute or relative) as the count', () => {
    expect(readScan(countSheetUrl('https://parts.example.com/', 42))).toEqual({ kind: 'count', stockCountId: 42 });
    expect(readScan('/mechanic-view/7?q=x')).toEqual({ kind: 'count', stockCountId: 7 });
    // Somebody else's address that merely contains the path is a code, not our count.
    expect(readScan('https://parts.example.com/x/mechanic-view/7').kind).toBe('material');
  });

  it('unknown codes match nothing; the first candidate is what to offer to add', () => {
    const reading = readScan('KM999999');
    expect(matchMaterial(reading, lines)).toBeNull();
    expect(reading).toEqual({ kind: 'material', candidates: ['KM999999'] });
    expect(readScan('   ')).toEqual({ kind: 'empty' });
    expect(matchMaterial(readScan(''), lines)).toBeNull();
  });
});

describe('scan to find an order', () => {
  it.each([
    ['4500111273', 'po=4500111273'],
    ['4500111273/00020', 'po=4500111273/00020'],
    ['4001200345', 'so=4001200345'],
    ['8000400123', 'do=8000400123'],
    ['JJFI12345678901234567', 'tn=JJFI12345678901234567'],
    ['JJD123456789012345678', 'tn=JJD123456789012345678'],
    ['1Z999AA10123456784', 'tn=1Z999AA10123456784'],
    ['RR123456789FI', 'tn=RR123456789FI'],
    ['12345678901234', 'tn=12345678901234'],
    ['(00)340123450000000017', 'tn=340123450000000017'],
    [`]C1400${'4500111273'}`, 'po=4500111273'],
    ['KM123456', 'KM123456'],
  ])('%s → %s', (raw, search) => {
    expect(orderSearchFor(raw)).toBe(search);
    expect(parseSearch(search).errors).toEqual([]);
  });
});
