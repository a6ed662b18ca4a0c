/** A day's bar is named with all its numbers; "1 file", not "1 files" (the plural follows the day's files). */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompactRow } from '../../../contract/dashboard';
import { DayBars } from './day-bars';

// The plural forms the locales are to hold (files.dayLabel_one / _other).
beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { translation: { files: { dayLabel_one: '{{total}} file – {{processed}} processed', dayLabel_other: '{{total}} files – {{processed}} processed' } } } },
    interpolation: { escapeValue: false },
  });
});

const day = (date: string, files: number): CompactRow => ({
  date,
  number_of_files: files,
  number_of_processed_files: files,
  number_of_errored_files: 0,
  number_of_missing_files: 0,
  number_of_in_progress_files: 0,
  number_of_not_processed_files: 0,
});

describe('DayBars', () => {
  it('names a day of one file in the singular and a day of more in the plural', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <DayBars rows={[day('2026-12-01', 1), day('2026-12-02', 3)]} />
      </MemoryRouter>,
    );
    expect([...html.matchAll(/aria-label="([^"]*)"/g)].map((match) => match[1])).toEqual(['1 file – 1 processed', '3 files – 3 processed']);
  });
});
