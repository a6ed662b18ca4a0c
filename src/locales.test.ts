/** Every text in all nine locales: a key that en-US has and another locale lacks fails here. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './domain/constants';

type Tree = { [key: string]: string | Tree };
const dir = join(__dirname, '..', 'locales');
const load = (locale: string) => JSON.parse(readFileSync(join(dir, `${locale}.json`), 'utf8')) as Tree;
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((all, [key, value]) => {
    if (typeof value === 'string') all[prefix + key] = value;
    else Object.assign(all, flatten(value, `${prefix}${key}.`));
    return all;
  }, {});
const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

const english = flatten(load('en-US'));

describe('locale files', () => {
  it('exist for exactly the nine locales of §1', () => {
    expect(readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.replace('.json', '')).sort()).toEqual([...LOCALES].sort());
  });

  describe.each(LOCALES.filter((l) => l !== 'en-US'))('%s', (locale) => {
    const texts = flatten(load(locale));
    it('has every key of en-US and no other', () => {
      expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort());
    });
    it('has no empty text and keeps every {{placeholder}}', () => {
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(english[key] ?? ''));
      }
    });
  });
});
