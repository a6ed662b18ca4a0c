/** The "sent" notice's status region is in the page before sending: a status added with its text is often not read. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import FeedbackPage from './feedback-page';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

describe('the feedback screen', () => {
  it('has an empty status region before anything is sent', () => {
    expect(renderToStaticMarkup(<FeedbackPage />)).toMatch(/<p class="visually-hidden" role="status"><\/p>/);
  });
});
