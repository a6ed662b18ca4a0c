/**
 * The transfer dialog says how much is in stock as the reader's language writes the number; says
 * why Send is off (no connection, no other storage location), shows the storage locations
 * loading, and warns of a quantity above the unrestricted stock at `from` (never for a line
 * counted blind). Its reads and its request fail at once offline, never held for later.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Relationships, StockItemRow } from '../../../contract/stock';
import { SENT_NOW, storageLocationsQuery } from '../api/stock-transfer';
import { exceedsUnrestricted, TransferDialog } from './transfer-dialog';

// The browser's online state has no server snapshot; the dialog is rendered to markup here.
const connection = vi.hoisted(() => ({ online: true }));
vi.mock('../../../lib/use-online', () => ({ useOnline: () => connection.online }));

beforeAll(async () => {
  const french = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'fr-FR.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'fr-FR', resources: { 'fr-FR': { translation: french } }, interpolation: { escapeValue: false } });
});
afterEach(() => {
  connection.online = true;
  onlineManager.setOnline(true);
});

const item = (total: number | null, extra: Partial<StockItemRow> = {}): StockItemRow => ({
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
  ...extra,
});
const location = (code: string) => ({ plant: '1000', code, name: `Store ${code}`, work_center: null });
const OTHERS = { plants: [], storage_locations: [location('0001'), location('V001')], work_centers: [], mechanics: [] } satisfies Relationships;

/** The dialog as first drawn; `locations`: the storage locations as read before (none: still loading). */
const render = (row: StockItemRow, locations: Relationships | null = OTHERS) => {
  const client = new QueryClient();
  if (locations) client.setQueryData(storageLocationsQuery('1000').queryKey, locations);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <TransferDialog item={row} onClose={() => undefined} onDone={() => undefined} />
    </QueryClientProvider>,
  );
};
const sendButton = (html: string) => /<button type="submit"[^>]*>/.exec(html)?.[0] ?? '';

describe('TransferDialog', () => {
  it('gives the quantity in stock in the reader’s language', () => {
    expect(render(item(1234.5))).toContain(i18next.t('stock.transferFrom', { plant: '1000', location: '0001', total: '1\u202f234,5', unit: 'M' }));
    expect(render(item(null))).toContain(i18next.t('stock.transferFrom', { plant: '1000', location: '0001', total: '–', unit: 'M' }));
  });

  it('offers the plant’s other storage locations, and Send', () => {
    const html = render(item(5));
    expect(html).toContain('<option value="V001">');
    expect(html).not.toContain('<option value="0001">');
    expect(sendButton(html)).not.toContain('disabled');
    expect(html).not.toContain(i18next.t('stock.transferLocationsLoading'));
    // The place of the warning of a quantity above the stock: a live region, there and empty from the start.
    expect(html).toContain('<p id="tr-qty-warning" role="status" class="visually-hidden"></p>');
  });

  it('shows the storage locations loading, not an empty list to choose from', () => {
    expect(render(item(5), null)).toContain(`<span class="visually-hidden">${i18next.t('stock.transferLocationsLoading')}</span>`);
  });

  it('says when the plant has no other storage location, and turns Send off (it ended in "All fields are mandatory!")', () => {
    const html = render(item(5), { ...OTHERS, storage_locations: [location('0001')] });
    expect(html).toContain(`<p id="tr-nowhere" class="notice">${i18next.t('stock.transferNoOtherLocation', { plant: '1000' })}</p>`);
    expect(sendButton(html)).toContain('disabled=""');
    expect(sendButton(html)).toContain('aria-describedby="tr-nowhere"');
    expect(/<select[^>]*>/.exec(html)?.[0]).toContain('disabled=""');
  });

  it('turns Send off offline and says why', () => {
    connection.online = false;
    const html = render(item(5));
    expect(html).toContain(`<p id="tr-offline" class="muted">${i18next.t('stock.transferNeedsConnection')}</p>`);
    expect(sendButton(html)).toContain('disabled=""');
    expect(sendButton(html)).toContain('aria-describedby="tr-offline"');
  });
});

describe('a quantity above the unrestricted stock at `from`', () => {
  const stocked = item(12, { unrestricted_count: 10 });
  it('is warned of, in the reader’s numbers, and a quantity within it is not', () => {
    expect(exceedsUnrestricted('10,5', 'fr-FR', stocked)).toBe(true);
    expect(exceedsUnrestricted('10', 'fr-FR', stocked)).toBe(false);
    expect(exceedsUnrestricted('9,999', 'fr-FR', stocked)).toBe(false);
  });

  it('is not warned of where the stock is unknown or hidden (a line the caller counts blind), nor for what is no quantity', () => {
    expect(exceedsUnrestricted('11', 'fr-FR', item(null))).toBe(false);
    // The server hides a blind line's counts; should a copy still hold one, the dialog does not tell it.
    expect(exceedsUnrestricted('11', 'fr-FR', { ...stocked, blind_count_id: 7 })).toBe(false);
    expect(exceedsUnrestricted('abc', 'fr-FR', stocked)).toBe(false);
  });
});

describe('offline, the transfer calls', () => {
  /** Runs `call` offline, its request failing the way fetch does: what it gave within 200 ms. */
  const within = (call: Promise<unknown>) => Promise.race([call.catch((error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200))]);
  const offline = () => {
    onlineManager.setOnline(false);
    return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  };
  const failing = () => Promise.reject(new TypeError('Failed to fetch'));

  it('read the storage locations and fail at once, instead of an empty list with no reason', async () => {
    const client = offline();
    expect(await within(client.fetchQuery({ ...storageLocationsQuery('1000'), queryFn: failing }))).toBeInstanceOf(TypeError);
    // The check itself: TanStack's default would still be waiting.
    expect(await within(client.fetchQuery({ ...storageLocationsQuery('2000'), queryFn: failing, networkMode: 'online' }))).toBe('still waiting');
  });

  it('send a request or a decision and fail at once, never held to be sent after Cancel', async () => {
    const client = offline();
    const run = (options: object) => client.getMutationCache().build(client, { mutationFn: failing, ...options }).execute(undefined);
    expect(await within(run(SENT_NOW))).toBeInstanceOf(TypeError);
    expect(await within(run({ networkMode: 'online' }))).toBe('still waiting');
  });
});
