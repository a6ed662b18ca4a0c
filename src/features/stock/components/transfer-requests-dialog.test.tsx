/**
 * A transfer request names its quantity as the reader's language writes it, on screen and in its
 * buttons' names, which start with their visible words and say the plant and from → to; it shows
 * the unrestricted stock at `from` where the server gives it.
 */
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
    const buttons = [...html.matchAll(/<button[^>]*aria-label="([^"]*)"[^>]*>([^<]*)<\/button>/g)].map((match) => ({ name: match[1]!, visible: match[2]! }));
    expect(buttons.map((button) => button.visible)).toEqual([i18next.t('stock.transferMarkDone'), i18next.t('stock.transferDecline')]);
    const where = { plant: '1000', from: '0001', to: 'V001' };
    expect(buttons.map((button) => button.name)).toEqual([
      i18next.t('stock.transferDecisionFor', { action: i18next.t('stock.transferMarkDone'), quantity: '1.234,5', code: 'KM100', ...where }),
      i18next.t('stock.transferDecisionFor', { action: i18next.t('stock.transferDecline'), quantity: '1.234,5', code: 'KM100', ...where }),
    ]);
    for (const { name, visible } of buttons) {
      // WCAG 2.5.3: the name starts with the words shown ("Ablehnen" said by voice finds it) …
      expect(name.startsWith(visible), name).toBe(true);
      // … and tells this request from another of the same material elsewhere.
      for (const part of ['1.234,5', 'KM100', '1000', '0001', 'V001']) expect(name, name).toContain(part);
    }
  });

  it('shows the unrestricted stock at `from` with the German number, marked when a waiting request asks for more', () => {
    const shown = (extra: Partial<TransferRequestRow>) => text(renderToStaticMarkup(<TransferRequestItem row={{ ...row, ...extra }} mine={false} />));
    expect(shown({ from_unrestricted_count: 2000.25 })).toContain(i18next.t('stock.transferStockAtFrom', { location: '0001', stock: '2.000,25 M' }));
    const short = renderToStaticMarkup(<TransferRequestItem row={{ ...row, from_unrestricted_count: 1000 }} mine={false} />);
    expect(short).toContain(`<span class="transfer-request-stock short">${i18next.t('stock.transferStockAtFromShort', { location: '0001', stock: '1.000 M' })}</span>`);
    // Decided: no longer weighed against the stock of now.
    expect(shown({ from_unrestricted_count: 1000, status: 'done' })).toContain(i18next.t('stock.transferStockAtFrom', { location: '0001', stock: '1.000 M' }));
    // A count missing is unknown, not 0; hidden from the caller (absent), nothing is said.
    expect(shown({ from_unrestricted_count: null })).toContain(i18next.t('stock.transferStockAtFrom', { location: '0001', stock: '–' }));
    expect(shown({})).not.toContain(i18next.t('stock.transferStockAtFrom', { location: '0001', stock: '' }).trim());
  });

  it('offers no decision to who may not decide', () => {
    expect(renderToStaticMarkup(<TransferRequestItem row={row} mine />)).not.toContain('<button');
  });
});
