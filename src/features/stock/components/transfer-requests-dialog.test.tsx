/** A transfer request names its quantity as the reader's language writes it, on screen and in its buttons' names. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TransferRequestRow } from '../../../contract/stock';
import { TransferRequestItem, transferWords } from './transfer-requests-dialog';

beforeAll(async () => {
  const german = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'de-DE.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'de-DE', resources: { 'de-DE': { translation: german } }, interpolation: { escapeValue: false } });
});

const row: TransferRequestRow = {
  id: '0f0e2a4c-3f7e-4a55-9d1a-2f1f3c9a7b10',
  plant: '1000',
  storage_location_from: '0001',
  storage_location_to: 'V001',
  material_code: 'KM100',
  quantity: 1234.5,
  status: 'requested',
  created: '2026-12-01T08:00:00Z',
  requested_by: 'mechanic@example.com',
  unit: 'M',
};
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('a transfer request in German', () => {
  it('names the transfer with a German number', () => {
    expect(transferWords(row, 'de-DE')).toEqual({ quantity: '1.234,5', code: 'KM100' });
    expect(transferWords({ quantity: 2.5, material_code: 'KM1' }, 'fi-FI')).toEqual({ quantity: '2,5', code: 'KM1' });
  });

  it('shows the quantity, and names its decisions, with the German number', () => {
    const html = renderToStaticMarkup(<TransferRequestItem row={row} mine={false} decide={{ disabled: false, onDecide: () => undefined }} />);
    expect(text(html)).toContain('1.234,5 M');
    const labels = [...html.matchAll(/aria-label="([^"]*)"/g)].map((match) => match[1]);
    expect(labels).toEqual([
      i18next.t('stock.transferMarkDoneFor', { quantity: '1.234,5', code: 'KM100' }),
      i18next.t('stock.transferDeclineFor', { quantity: '1.234,5', code: 'KM100' }),
    ]);
  });

  it('offers no decision to who may not decide', () => {
    expect(renderToStaticMarkup(<TransferRequestItem row={row} mine />)).not.toContain('<button');
  });
});
