/** The printed count sheet gives each line's book quantity as the reader's language writes numbers. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { PrintSheetLines } from './print-count-page';

beforeAll(async () => {
  const french = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'fr-FR.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'fr-FR', resources: { 'fr-FR': { translation: french } }, interpolation: { escapeValue: false } });
});

describe('the printed count sheet', () => {
  it('prints the book quantity in the reader’s language, and a dash where there is none', () => {
    const html = renderToStaticMarkup(
      <PrintSheetLines
        lines={[
          { material_code: 'KM100', material_description_english: 'Door roller', unit: 'M', bin: 'A-01', book_quantity: 1234.5 },
          { material_code: 'KM200', material_description_english: 'Cable', unit: 'PC', bin: null, book_quantity: null },
        ]}
      />,
    );
    const books = [...html.matchAll(/<td class="num print-book"[^>]*>([\s\S]*?)<\/td>/g)].map((match) => match[1]!.replace(/<!-- -->/g, ''));
    expect(books).toEqual(['1\u202f234,5 M', '– PC']);
  });
});
