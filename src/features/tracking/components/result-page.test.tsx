/** The status monitor's answer for screen readers: one status, always in the page, whose text changes. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResultsStatus } from './result-page';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const status = (text: string) => `<p class="visually-hidden" role="status">${text}</p>`;

describe('ResultsStatus', () => {
  it('is in the page, empty, before the answer arrives', () => {
    expect(renderToStaticMarkup(<ResultsStatus count={undefined} />)).toBe(status(''));
  });

  it('says how many results the answer has, or that there are none', () => {
    expect(renderToStaticMarkup(<ResultsStatus count={25} />)).toBe(status(i18next.t('common.resultCount', { count: 25 })));
    expect(renderToStaticMarkup(<ResultsStatus count={0} />)).toBe(status('No items found'));
  });

  it('says a capped count is a lower bound', () => {
    expect(renderToStaticMarkup(<ResultsStatus count={1000} capped />)).toBe(status(i18next.t('common.resultCountAtLeast', { value: '1,000' })));
  });
});
