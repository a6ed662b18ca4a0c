import { describe, expect, it } from 'vitest';
import { buildErrorCsv } from './error-csv';

describe('error CSV', () => {
  it('neutralises formula cells and quotes cells with separators, quotes or line breaks', () => {
    const csv = buildErrorCsv([
      { line: 2, column: 'shipToPartyCode', value: '=HYPERLINK("http://evil","x")', message: 'looks like a formula' },
      { line: 3, column: 'priority', value: '+4', message: 'Priority must be a whole number from 1 to 99' },
      { line: 4, column: 'accessPointId', value: '@SUM(A1)', message: 'a, b' },
      { line: 5, column: null, value: '-1', message: 'two\nlines' },
    ]);
    expect(csv.split('\r\n')).toEqual([
      '\uFEFFline,column,value,message',
      `2,shipToPartyCode,"'=HYPERLINK(""http://evil"",""x"")",looks like a formula`,
      "3,priority,'+4,Priority must be a whole number from 1 to 99",
      `4,accessPointId,'@SUM(A1),"a, b"`,
      `5,,'-1,"two\nlines"`,
      '',
    ]);
  });
});
