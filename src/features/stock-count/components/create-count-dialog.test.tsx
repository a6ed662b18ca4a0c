/**
 * A create the server refused (made offline) is corrected in the create form, which opens with what
 * was sent and why it was refused; the waiting list offers that Edit for a refused create only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../contract/user-api';
import type { CreateStockCountBody, Relationships } from '../../../contract/stock';
import type { OutboxEntry } from '../../../offline/db';
import { sessionQueries } from '../../../lib/profile';
import { CreateCountDialog, sendsToNobody } from './create-count-dialog';
import { refusedCreate } from './waiting-planning';

vi.mock('../../../lib/use-online', () => ({ useOnline: () => true }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const EMAIL = 'planner@example.com';
const PROFILE = { uid: 'me', email: EMAIL, permissions: ['stock_admin'], plants: ['FI01'], plannerGroups: [] } as Partial<Profile> as Profile;
const relationships = (changes: Partial<Relationships>): Relationships => ({ plants: [], storage_locations: [], work_centers: [], mechanics: [], ...changes });

function render(initial: CreateStockCountBody, initialError?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, enabled: false } } });
  client.setQueryData(sessionQueries.profile().queryKey, PROFILE);
  client.setQueryData(sessionQueries.allowedPlants().queryKey, {
    notifications_allowed_plants: [],
    stock_count_allowed_plants: ['FI01'],
    count_deadline_allowed_plants: ['FI01'],
    show_zero_stock_material_plants: [],
  });
  const mirrored = (data: Relationships) => ({ data, savedAt: 0, source: 'network' as const });
  client.setQueryData(['relationship', 'plant', null, EMAIL], mirrored(relationships({ plants: [{ code: 'FI01', name: 'Helsinki' }] })));
  client.setQueryData(['relationship', 'storage_location', 'FI01', EMAIL], mirrored(relationships({ storage_locations: [{ plant: 'FI01', code: 'V001', name: 'Van 1', work_center: null }] })));
  client.setQueryData(['relationship', 'mechanic', 'FI01', EMAIL], mirrored(relationships({ mechanics: [{ email: 'mechanic@example.com', display_name: 'Matti', work_centers: [] }] })));
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <CreateCountDialog open initial={initial} initialError={initialError} onClose={() => undefined} onCreated={() => undefined} />
    </QueryClientProvider>,
  );
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
/** The text of the option selected in the select of this id. */
const selected = (html: string, id: string) => {
  const select = new RegExp(`<select[^>]*id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
  return text(/<option[^>]*selected=""[^>]*>[\s\S]*?<\/option>/.exec(select)?.[0] ?? '');
};

describe('correcting a refused create', () => {
  const body: CreateStockCountBody = {
    plant: 'FI01',
    storageLocation: 'V001',
    type: 'single',
    materialCodes: ['M-1', 'NOPE'],
    conductedBy: 'mechanic@example.com',
    shouldBeDoneAt: '2099-12-01',
    draft: false,
  };

  it('opens the form with what was sent, and why it was refused', () => {
    const html = render(body, 'Not accepted by the server: Unknown material: NOPE');
    expect(selected(html, 'cc-plant')).toBe('FI01 · Helsinki');
    expect(selected(html, 'cc-sloc')).toBe('V001 · Van 1');
    expect(selected(html, 'cc-who')).toBe('Matti · mechanic@example.com');
    expect(html).toMatch(/<input type="radio" name="cc-type" checked="" value="single"/);
    expect(/<textarea[^>]*id="cc-materials"[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1]).toBe('M-1 NOPE');
    expect(html).toMatch(/<input id="cc-deadline"[^>]*value="2099-12-01"/);
    expect(text(/<p id="cc-error"[^>]*>[\s\S]*?<\/p>/.exec(html)?.[0] ?? '')).toBe('Not accepted by the server: Unknown material: NOPE');
  });

  it('shows a location no longer offered as it was sent, not as “Choose” (which sent it unseen)', () => {
    expect(selected(render({ ...body, storageLocation: 'ZZ01' }), 'cc-sloc')).toBe('ZZ01');
  });
});

describe('the waiting list’s Edit', () => {
  const entry = (changes: Partial<OutboxEntry>): OutboxEntry => ({
    id: 'k',
    seq: 1,
    userEmail: EMAIL,
    kind: 'stock-count.plan',
    scope: 'stock-count-planning',
    target: 'new-count:k',
    request: { service: 'stock', method: 'POST', path: 'my_stock_count', json: { plant: 'FI01', storageLocation: 'V001', type: 'wall_to_wall', draft: false } },
    status: 'failed',
    createdAt: 0,
    attempts: 1,
    summary: { action: 'create' },
    ...changes,
  });

  it('is offered for a refused create, with the body it sent', () => {
    expect(refusedCreate(entry({}))).toMatchObject({ plant: 'FI01', storageLocation: 'V001', type: 'wall_to_wall' });
  });

  it('is not offered for a create still waiting, nor for another change', () => {
    expect(refusedCreate(entry({ status: 'pending' }))).toBeNull();
    expect(refusedCreate(entry({ summary: { action: 'cancel', stockCountId: 3 }, target: 'count:3' }))).toBeNull();
  });
});

describe('Send to count', () => {
  it('is refused with nobody to count (the draft may wait), not with a counter or parts', () => {
    expect(sendsToNobody(false, '', undefined)).toBe(true);
    expect(sendsToNobody(false, '', [])).toBe(true);
    expect(sendsToNobody(true, '', undefined)).toBe(false);
    expect(sendsToNobody(false, 'mechanic@example.com', undefined)).toBe(false);
    expect(sendsToNobody(false, '', [{ counter: 'mechanic@example.com', rest: true }])).toBe(false);
  });
});
