/**
 * An ERP file's errors read in the reader's language (decision 0074): a coded error is worded from
 * serverErrors.<code> with its values; one the app has no words for (a database's own message)
 * shows the server's English as it came.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FileRow } from '../../../contract/dashboard';
import { FileCard } from './file-list';

const locale = (name: string) => JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', `${name}.json`), 'utf8')) as Record<string, unknown>;

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'de-DE',
    fallbackLng: 'en-US',
    resources: { 'de-DE': { translation: locale('de-DE') }, 'en-US': { translation: locale('en-US') } },
    interpolation: { escapeValue: false },
  });
});

const file = (errors: FileRow['errors']): FileRow => ({
  id: '7c0d5e52-8f0a-4a55-9d0e-6d7d6a1c2b3e',
  file_type: 'STOCK',
  start_date: '2026-12-02T06:00:00.000Z',
  end_date: '2026-12-02T06:00:01.000Z',
  file_name: 'ERP_STOCK_20261202_MORNING.csv',
  file_part_of_day: 'morning',
  status: 'errored',
  errors,
  line_count: 4,
  source: 'upload',
});

describe('FileCard errors', () => {
  it('words coded errors in the reader’s language and keeps an uncoded one as the server sent it', () => {
    const html = renderToStaticMarkup(
      <FileCard
        file={file([
          { line: 3, message: 'Unknown material code "NO-SUCH" (send it in a MATERIALS file first)', code: 'erpUnknownMaterial', params: { material: 'NO-SUCH' } },
          { line: 4, message: 'reservation_quantity "x" is not a number (digits with an optional . decimal part)', code: 'erpNotNumber', params: { column: 'reservation_quantity', value: 'x' } },
          { line: null, message: '… and 7 more errors', code: 'erpMoreErrors', params: { count: 7 } },
          { line: null, message: 'value too long for type character varying(40)' },
        ])}
      />,
    );
    const german = locale('de-DE') as { serverErrors: Record<string, string> };
    const expected = [
      i18next.t('serverErrors.erpUnknownMaterial', { material: 'NO-SUCH' }),
      i18next.t('serverErrors.erpNotNumber', { column: 'reservation_quantity', value: 'x' }),
      i18next.t('serverErrors.erpMoreErrors', { count: 7 }),
    ];
    for (const text of expected) {
      expect(text).not.toMatch(/Unknown|is not a number|more errors/);
      expect(html).toContain(text.replaceAll('"', '&quot;'));
    }
    expect(german.serverErrors.erpUnknownMaterial).toContain('{{material}}');
    expect(html).toContain('value too long for type character varying(40)');
    expect(html).not.toContain('send it in a MATERIALS file first');
  });
});
