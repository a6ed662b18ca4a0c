/**
 * The transfer requests dialog reads the mirrored list (offline the last copy shows, with when it
 * was saved), tells how to ask for a transfer only to who may ask, and keeps a decision's outcome
 * at the foot of the sheet, after the rows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TransferRequestRow } from '../../../contract/stock';
import type { Profile } from '../../../contract/user-api';
import { sessionQueries } from '../../../lib/profile';
import '../../../lib/dates'; // the app's dayjs, with fromNow (the offline banner)
import { TRANSFER_REQUESTS_KEY } from '../api/stock-transfer';
import { TransferRequestsDialog } from './transfer-requests-dialog';

const connection = vi.hoisted(() => ({ online: true }));
vi.mock('../../../lib/use-online', () => ({ useOnline: () => connection.online }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const EMAIL = 'someone@example.com';
const row: TransferRequestRow = {
  id: '0f0e2a4c-3f7e-4a55-9d1a-2f1f3c9a7b10',
  plant: '1000',
  storage_location_from: '0001',
  storage_location_to: 'V001',
  material_code: 'KM100',
  quantity: 2,
  status: 'requested',
  created: '2026-12-01T08:00:00Z',
  requested_by: 'mechanic@example.com',
  unit: 'M',
};

function render(permissions: string[], rows: TransferRequestRow[], source: 'network' | 'mirror' = 'network') {
  const client = new QueryClient();
  client.setQueryData(sessionQueries.profile().queryKey, { uid: 'u1', email: EMAIL, permissions, plants: ['1000'] } as unknown as Profile);
  // The list as the mirrored query holds it: under the user's e-mail, with when it was saved.
  client.setQueryData([...TRANSFER_REQUESTS_KEY, EMAIL], { data: { items: rows }, savedAt: Date.parse('2026-12-01T09:00:00Z'), source });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <TransferRequestsDialog onClose={() => undefined} />
    </QueryClientProvider>,
  );
}

describe('the transfer requests dialog', () => {
  it('tells who may request a transfer how to ask for one', () => {
    expect(render(['mechanic'], [])).toContain(i18next.t('stock.transferRequestsEmpty'));
  });

  it('tells who may not only that there are none', () => {
    const html = render(['custom_service_admin'], []);
    expect(html).toContain('No transfer requests.');
    expect(html).not.toContain(i18next.t('stock.transferRequestsEmpty'));
  });

  it('shows the saved copy offline, saying when it was saved', () => {
    connection.online = false;
    try {
      const html = render(['stock_admin'], [row], 'mirror');
      expect(html).toContain('offline-banner');
      expect(html).toContain('KM100');
      expect(html).toContain(i18next.t('stock.transferDecideOnline'));
    } finally {
      connection.online = true;
    }
  });

  it('keeps the outcome of a decision at the foot of the sheet, after the rows', () => {
    const html = render(['stock_admin'], [row]);
    const foot = html.indexOf('class="transfer-requests-foot"');
    expect(foot).toBeGreaterThan(html.indexOf('KM100'));
    expect(html.indexOf('role="status" tabindex="-1"')).toBeGreaterThan(foot);
  });
});
