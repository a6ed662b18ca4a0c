/** The days link with the overview's range, and their numbers are written as the user's language writes them. */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompactRow, FileRow } from '../../../contract/dashboard';
import { DayBars, DayTable } from './day-bars';
import { FileCard } from './file-list';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'de-DE',
    resources: { 'de-DE': { translation: { files: { dayLabel_one: '{{total}} Datei', dayLabel_other: '{{total}} Dateien – {{processed}} verarbeitet' } } } },
    interpolation: { escapeValue: false },
  });
});

const day: CompactRow = {
  date: '2026-12-01',
  number_of_files: 1200,
  number_of_processed_files: 1100,
  number_of_errored_files: 0,
  number_of_missing_files: 0,
  number_of_in_progress_files: 100,
  number_of_not_processed_files: 0,
};
const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);
const RANGE = '?from=2026-11-01&to=2026-12-31';

describe('the days of the overview', () => {
  it('link to the day with the range, so “All days” can come back to it', () => {
    for (const html of [render(<DayBars rows={[day]} search={RANGE} />), render(<DayTable rows={[day]} search={RANGE} />)]) {
      expect(html).toContain(`href="/dashboard/2026-12-01${RANGE.replace(/&/g, '&amp;')}"`);
    }
  });

  it('write their numbers in the user’s number format', () => {
    const bars = render(<DayBars rows={[day]} />);
    expect(bars).toContain('aria-label="1.200 Dateien – 1.100 verarbeitet"');
    expect(bars).toContain('1.100/1.200');
    const cells = [...render(<DayTable rows={[day]} />).matchAll(/<td>([^<]*)<\/td>/g)].map((match) => match[1]);
    expect(cells).toEqual(['1.200', '1.100', '0', '0', '100', '0']);
  });

  it('write a file’s line count in the user’s number format', () => {
    const file: FileRow = {
      id: 'f1',
      file_type: 'STOCK',
      start_date: '2026-12-01T06:00:00Z',
      end_date: '2026-12-01T06:01:00Z',
      file_name: 'ERP_STOCK_20261201_MORNING.csv',
      file_part_of_day: 'morning',
      status: 'processed',
      errors: [],
      line_count: 12345,
      source: null,
    };
    expect(renderToStaticMarkup(<FileCard file={file} />)).toContain('<dd>12.345</dd>');
  });
});
