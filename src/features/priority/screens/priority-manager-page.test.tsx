/**
 * The priority manager: offline the Change column stays (an editor open in it keeps what was
 * typed); priority uploads are off, saying why, for an uploader who holds no ship-to-party number.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PrioritiesResponse } from '../../../contract/priority';
import type { Profile } from '../../../contract/user-api';
import { MAX_SHIP_TO_PARTY_NUMBERS } from '../../../domain/constants';
import { sessionQueries } from '../../../lib/profile';
import { priorityQueries } from '../api/get-priorities';
import PriorityManagerPage from './priority-manager-page';

let online = true;
let narrow = false;
vi.mock('../../../lib/use-online', () => ({ useOnline: () => online }));
vi.mock('../../../lib/use-media-query', () => ({ useIsNarrow: () => narrow }));
afterEach(() => {
  online = true;
  narrow = false;
});

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const LIST: PrioritiesResponse = {
  items: [
    {
      shipToPartyCode: '0050010001',
      shipToPartyName: 'Shop',
      shipToPartyAddress: 'Street 1',
      uapinfos: [{ accessPointId: 'FI-AP-1', name: 'Kiosk', address: 'Street 1', postalCode: '00100', city: 'Helsinki', country: 'FI', priority: 3, isEnabled: true }],
    },
  ],
  has_more: false,
} as PrioritiesResponse;

/** `read`: what GET ship_to_party_codes answers (every number for super managers); by default the numbers held. */
function render(permissions: string[], held: string[], { managed = [], read }: { managed?: string[]; read?: string[] } = {}) {
  const profile = { uid: 'me', email: 'me@example.com', permissions, shipToPartyNumbers: held, managedShipToPartyNumbers: managed, plants: [] } as Partial<Profile> as Profile;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, enabled: false } } });
  client.setQueryData(sessionQueries.profile().queryKey, profile);
  client.setQueryData(priorityQueries.shipToPartyCodes(), read ?? [...held, ...managed]);
  client.setQueryData([...priorityQueries.list({ query: '', countries: [] }), profile.email], { data: held.length > 0 ? LIST : { items: [], has_more: false }, savedAt: undefined, source: 'network' });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <PriorityManagerPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const button = (html: string, label: string) => new RegExp(`<button[^>]*>(<svg.*?</svg>)?${label}</button>`).exec(html)?.[0] ?? '';

describe('the priority manager', () => {
  it('keeps the Change column offline for the numbers the user writes', () => {
    online = false;
    expect(render(['PM_write'], ['0050010001'])).toContain('Change the priority of Kiosk');
  });

  it('turns priority uploads off, saying why, for an uploader with no ship-to-party number', () => {
    const html = render(['PM_upload_add', 'PM_upload_disable'], []);
    expect(html).toContain(`id="priority-upload-needs-numbers" class="muted small">${i18next.t('priority.upload.needsNumbers')}<`);
    for (const label of ['Upload priorities', 'Disable or delete priorities']) expect(button(html, label)).toMatch(/disabled=""[^>]*aria-describedby="priority-upload-needs-numbers"/);
  });

  it('leaves adding ship-to-party numbers open, and in sight on a phone', () => {
    narrow = true;
    const html = render(['PM_write', 'PM_upload_add'], []);
    expect(button(html, 'Add ship-to-party numbers')).not.toContain('disabled');
    expect(html).toContain('priority-upload-needs-numbers');
  });

  it('shows a read-only super manager who writes priorities the numbers it holds, and Remove for one it added', () => {
    const all = ['0050010001', '0050010002', '0050010003', '0050020001'];
    const html = render(['super_manager_read_only', 'PM_write'], ['0050010001'], { managed: ['0050010003'], read: all });
    expect(html).toContain(i18next.t('priority.allShipToParties', { count: all.length }));
    expect(html).toContain(i18next.t('priority.shipToPartyCount', { count: 2, max: MAX_SHIP_TO_PARTY_NUMBERS }));
    const list = /<ul[^>]*class="priority-code-list"[^>]*>(.*?)<\/ul>/.exec(html)?.[1] ?? '';
    expect([...list.matchAll(/<span>(\d+)<\/span>/g)].map((m) => m[1])).toEqual(['0050010001', '0050010003']);
    expect(list).toContain(`aria-label="${i18next.t('priority.removeShipToParty', { code: '0050010003' })}"`);
    expect(list).not.toContain(i18next.t('priority.removeShipToParty', { code: '0050010001' }));
  });

  it('tells the super manager it reads every number, with no list of its own', () => {
    const html = render(['super_manager'], [], { read: ['0050010001', '0050010002'] });
    expect(html).toContain(i18next.t('priority.allShipToParties', { count: 2 }));
    expect(html).not.toContain('priority-code-list');
  });

  it('takes no more search text than the server does', () => {
    expect(render(['PM_write'], ['0050010001'])).toMatch(/<input id="priority-query"[^>]*maxLength="100"/);
  });

  it('offers the uploads of one who holds numbers as before', () => {
    const html = render(['PM_upload_add'], ['0050010001']);
    expect(button(html, 'Upload priorities')).not.toContain('disabled');
    expect(html).not.toContain('priority-upload-needs-numbers');
  });
});
