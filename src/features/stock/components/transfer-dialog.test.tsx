/** The transfer dialog says how much is in stock as the reader's language writes the number. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StockItemRow } from '../../../contract/stock';
import { TransferDialog } from './transfer-dialog';

beforeAll(async () => {
  const french = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'fr-FR.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'fr-FR', resources: { 'fr-FR': { translation: french } }, interpolation: { escapeValue: false } });
});

const item = (total: number | null): StockItemRow => ({
  id: 1,
  bin: null,
  blocked_count: null,
  material_code: 'KM100',
  material_description_english: 'Cable',
  unit: 'M',
  planner_groups: [],
  plant: '1000',
  quantity_inspection_count: null,
  reorder_point: null,
  reorder_quantity: null,
  restricted_count: null,
  storage_location: '0001',
  transfer_count: null,
  unrestricted_count: null,
  work_centers: [],
  total_quantity: total,
});
const render = (row: StockItemRow) => {
  const client = new QueryClient();
  // The storage locations as read before: nothing to fetch while rendering.
  client.setQueryData(['relationship', 'storage_location', '1000'], { storage_locations: [] });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <TransferDialog item={row} onClose={() => undefined} onDone={() => undefined} />
    </QueryClientProvider>,
  );
};

describe('TransferDialog', () => {
  it('gives the quantity in stock in the reader’s language', () => {
    expect(render(item(1234.5))).toContain(i18next.t('stock.transferFrom', { plant: '1000', location: '0001', total: '1\u202f234,5', unit: 'M' }));
    expect(render(item(null))).toContain(i18next.t('stock.transferFrom', { plant: '1000', location: '0001', total: '–', unit: 'M' }));
  });
});
