/** Decision 0025: the preview explains a shared priority in the user's language. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { UploadLineError } from '../../../contract/priority';
import { errorText } from '../utils/error-text';

const load = (locale: string) => JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', `${locale}.json`), 'utf8')) as Record<string, unknown>;

async function translator(locale: string) {
  const instance = i18next.createInstance();
  await instance.init({ lng: locale, resources: { [locale]: { translation: load(locale) } }, interpolation: { escapeValue: false } });
  return instance.t;
}

const shared: UploadLineError = {
  line: 3,
  column: 'priority',
  value: '1',
  message: 'Ship-to-party 0050010001 would have 2 access points at priority 1: FI-AP-10302 and FI-AP-10231 (line 2). Give each access point of a ship-to-party its own priority.',
  code: 'priorityTaken',
  params: { shipToPartyCode: '0050010001', priority: 1, accessPointId: 'FI-AP-10302', others: 'FI-AP-10231' },
};

describe('upload error texts', () => {
  it('words a shared priority in the user’s language, naming the ship-to-party and both access points', async () => {
    for (const locale of ['de-DE', 'fi-FI', 'en-US']) {
      const text = errorText(shared, await translator(locale));
      expect(text).not.toBe(shared.message);
      for (const part of ['0050010001', 'FI-AP-10302', 'FI-AP-10231', '1']) expect(text).toContain(part);
    }
    expect(errorText(shared, await translator('de-DE'))).toMatch(/^Warenempfänger 0050010001/);
  });

  it('words the delimiter of a line with cells past the header in the user’s language, the server’s name while a language has no word', async () => {
    const extra: UploadLineError = {
      line: 4,
      column: null,
      value: null,
      message: 'This line has 1 more cell than the header; check the delimiter (the file is semicolon separated)',
      code: 'extraCells',
      params: { count: 1, delimiter: 'semicolon' },
    };
    const instance = i18next.createInstance();
    await instance.init({
      lng: 'de-DE',
      resources: {
        'de-DE': {
          translation: {
            priority: {
              upload: {
                error: { extraCells_one: 'Die Datei ist durch {{delimiter}} getrennt', extraCells_other: 'Die Datei ist durch {{delimiter}} getrennt ({{count}})' },
                delimiter: { semicolon: 'Semikolon' },
              },
            },
          },
        },
      },
      interpolation: { escapeValue: false },
    });
    expect(errorText(extra, instance.t)).toBe('Die Datei ist durch Semikolon getrennt');
    expect(errorText({ ...extra, params: { count: 2, delimiter: 'pipe' } }, instance.t)).toBe('Die Datei ist durch pipe getrennt (2)');
  });

  it('shows other errors as the server words them', async () => {
    const t = await translator('de-DE');
    expect(errorText({ line: 2, column: 'accessPointId', value: 'X', message: 'Unknown access point X' }, t)).toBe('Unknown access point X');
  });
});
