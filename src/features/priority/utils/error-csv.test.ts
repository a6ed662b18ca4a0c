import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { buildErrorCsv } from './error-csv';
import { errorText } from './error-text';

async function translator(locale: string) {
  const resources = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', `${locale}.json`), 'utf8')) as Record<string, unknown>;
  const instance = i18next.createInstance();
  await instance.init({ lng: locale, resources: { [locale]: { translation: resources } }, interpolation: { escapeValue: false } });
  return instance.t;
}

describe('error CSV', () => {
  it('neutralises formula cells and quotes cells with separators, quotes or line breaks', async () => {
    const t = await translator('en-US');
    const csv = buildErrorCsv([
      { line: 2, column: 'shipToPartyCode', value: '=HYPERLINK("http://evil","x")', message: 'looks like a formula' },
      { line: 3, column: 'priority', value: '+4', message: 'Priority must be a whole number from 1 to 99' },
      { line: 4, column: 'accessPointId', value: '@SUM(A1)', message: 'a, b' },
      { line: 5, column: null, value: '-1', message: 'two\nlines' },
    ], t);
    expect(csv.split('\r\n')).toEqual([
      '\uFEFFline,column,value,message',
      `2,shipToPartyCode,"'=HYPERLINK(""http://evil"",""x"")",looks like a formula`,
      "3,priority,'+4,Priority must be a whole number from 1 to 99",
      `4,accessPointId,'@SUM(A1),"a, b"`,
      `5,,'-1,"two\nlines"`,
      '',
    ]);
  });

  it('writes each message as the screen lists it, in the user’s language', async () => {
    const t = await translator('de-DE');
    const csv = buildErrorCsv(
      [
        { line: 2, column: 'shipToPartyCode', value: '0050010009', message: 'Ship-to-party number 0050010009 is unknown or not one of yours', code: 'notYours', params: { shipToPartyCode: '0050010009' } },
        { line: 3, column: 'accessPointId', value: 'X', message: 'Unknown access point X' },
      ],
      t,
    );
    const [, first, second] = csv.split('\r\n');
    expect(first).toContain(t('priority.upload.error.notYours', { shipToPartyCode: '0050010009' }));
    expect(first).not.toContain('not one of yours');
    // Without a code the server's words, as on screen.
    expect(second).toBe('3,accessPointId,X,Unknown access point X');
  });

  it('names the delimiter as the screen does, in the user’s language', async () => {
    const t = await translator('de-DE');
    const extra = { line: 4, column: null, value: null, message: 'English', code: 'extraCells' as const, params: { count: 1, delimiter: 'tab' } };
    const [, line] = buildErrorCsv([extra], t).split('\r\n');
    const delimiter = t('priority.upload.delimiter.tab', { defaultValue: 'tab' });
    expect(line).toContain(t('priority.upload.error.extraCells', { count: 1, delimiter }));
    expect(line).toContain(errorText(extra, t));
  });
});
