/** #19 item 19: counts read as the language says them ("1 row read", not "1 rows read"). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

const load = (locale: string) => JSON.parse(readFileSync(join(__dirname, '..', '..', 'locales', `${locale}.json`), 'utf8')) as Record<string, unknown>;

async function translator(locale: string) {
  const instance = i18next.createInstance();
  await instance.init({ lng: locale, resources: { [locale]: { translation: load(locale) } }, interpolation: { escapeValue: false } });
  return instance.t;
}

describe('plurals', () => {
  it('says one and many in English', async () => {
    const t = await translator('en-US');
    const summary = (rows: number, changed: number, errors: number) =>
      t('priority.upload.summary', {
        rows: t('priority.upload.rowsRead', { count: rows }),
        changed: t('priority.upload.willChange', { count: changed }),
        unchanged: t('priority.upload.unchangedCount', { count: 0 }),
        errors: t('priority.upload.errorCount', { count: errors }),
      });
    expect(summary(1, 1, 1)).toBe('1 row read: 1 will change, 0 unchanged, 1 error.');
    expect(summary(2, 2, 0)).toBe('2 rows read: 2 will change, 0 unchanged, 0 errors.');
    expect(t('priority.upload.apply', { count: 1 })).toBe('Apply 1 change');
    expect(t('priority.upload.apply', { count: 3 })).toBe('Apply 3 changes');
    expect(t('stock.summary', { items: t('stock.itemCount', { count: 1, value: '1' }), locations: t('stock.locationCount', { count: 1, value: '1' }) })).toBe(
      '1 item in 1 storage location',
    );
    expect(t('stock.locationCount', { count: 4, value: '4' })).toBe('4 storage locations');
  });

  it('uses the Czech forms for 1, 2–4 and 5 or more', async () => {
    const t = await translator('cs-CZ');
    expect([1, 3, 5].map((count) => t('stock.locationCount', { count, value: String(count) }))).toEqual(['1 sklad', '3 sklady', '5 skladů']);
    expect([1, 2, 7].map((count) => t('priority.upload.apply', { count }))).toEqual(['Použít 1 změnu', 'Použít 2 změny', 'Použít 7 změn']);
  });

  it('uses the singular in German and French', async () => {
    expect((await translator('de-DE'))('priority.upload.rowsRead', { count: 1 })).toBe('1 Zeile gelesen');
    expect((await translator('fr-FR'))('stock.itemCount', { count: 1, value: '1' })).toBe('1 article');
  });
});
