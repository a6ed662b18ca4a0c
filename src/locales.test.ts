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

/** i18next plural forms differ per language (Czech has few and many, English only one and other). */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const baseKeys = (texts: Record<string, string>) => [...new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')))].sort();
const placeholderOf = (texts: Record<string, string>, key: string) => texts[key] ?? texts[`${key.replace(PLURAL, '')}_other`] ?? '';

describe('locale files', () => {
  it('exist for exactly the nine locales of §1', () => {
    expect(readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.replace('.json', '')).sort()).toEqual([...LOCALES].sort());
  });

  describe.each(LOCALES.filter((l) => l !== 'en-US'))('%s', (locale) => {
    const texts = flatten(load(locale));
    it('has every key of en-US and no other (plural forms as the language needs them)', () => {
      expect(baseKeys(texts)).toEqual(baseKeys(english));
      for (const key of Object.keys(english).filter((k) => k.endsWith('_other'))) expect(texts[key], key).toBeDefined();
      const plurals = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      for (const key of Object.keys(english).filter((k) => k.endsWith('_one'))) {
        for (const category of plurals) expect(texts[key.replace(PLURAL, `_${category}`)], `${key} (${category})`).toBeDefined();
      }
    });
    it('has no empty text and keeps every {{placeholder}}', () => {
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(placeholderOf(english, key)));
      }
    });
  });
});

describe('French typography', () => {
  it('keeps a no-break space before : ; ? ! » % and after «, so the mark never starts a line of its own', () => {
    const texts = flatten(load('fr-FR'));
    const broken = Object.entries(texts)
      .filter(([, text]) => / [:;?!»%]|« /.test(text))
      .map(([key]) => key);
    expect(broken).toEqual([]);
  });
});

describe('server refusal codes', () => {
  /** Every file under a folder (the server's sources). */
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      return entry.isDirectory() ? files(path) : entry.name.endsWith('.ts') ? [path] : [];
    });
  it('are worded in the reader’s language: every code the server sends has its serverErrors text (or, for a priority file’s rows, its upload error text)', async () => {
    const { UPLOAD_ERROR_CODES } = await import('./contract/priority');
    const worded = new Set([...baseKeys(flatten(load('en-US').serverErrors as Tree)), ...UPLOAD_ERROR_CODES]);
    const sent = new Set(
      files(join(__dirname, '..', 'server'))
        // The seed's `code: 'FI01'` are plants and materials, not refusals.
        .filter((file) => !file.includes(join('server', 'db', 'seed')))
        .flatMap((file) => {
          const text = readFileSync(file, 'utf8');
          // `code: 'x'`, `coded('x'`, and one of two by a condition: `code: a ? 'x' : 'y'`.
          const plain = [...text.matchAll(/(?:coded\(|\bcode: )'([A-Za-z][A-Za-z0-9]*)'/g)].map((match) => match[1]!);
          const chosen = [...text.matchAll(/\bcode: [^?,}\n]+\? '([A-Za-z][A-Za-z0-9]*)' : '([A-Za-z][A-Za-z0-9]*)'/g)].flatMap((match) => [match[1]!, match[2]!]);
          return [...plain, ...chosen];
        }),
    );
    // The scan finds the codes: a pattern that matched nothing would pass whatever the texts.
    expect(sent.size).toBeGreaterThan(50);
    expect([...sent].filter((code) => !worded.has(code)).sort()).toEqual([]);
  });
});
