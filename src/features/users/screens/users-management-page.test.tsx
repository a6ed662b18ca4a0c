/**
 * Users management: its tabs follow the WAI-ARIA tabs pattern (one Tab stop, the selected tab),
 * and the search's answer is told to screen readers by a status that is always in the page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../../contract/user-api';
import type { UsersPage } from '../../../contract/users';
import { sessionQueries } from '../../../lib/profile';
import { userQueries } from '../api/get-users';
import UsersManagementPage from './users-management-page';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const PROFILE = { uid: 'me', email: 'boss@example.com', permissions: ['super_manager'], plants: [] } as Partial<Profile> as Profile;
const ROW = {
  uid: 'u1',
  email: 'jane@example.com',
  displayName: 'Jane',
  approvalStatus: 'Approved',
  expirationDate: null,
  isExpired: false,
  permissions: [],
  plants: [],
  lastLogin: null,
  created: '2026-01-01T00:00:00Z',
} satisfies UsersPage['items'][number];

function render(address: string, answer: UsersPage | undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, enabled: false } } });
  client.setQueryData(sessionQueries.profile().queryKey, PROFILE);
  client.setQueryData(sessionQueries.allowedPlants().queryKey, { notifications_allowed_plants: [], stock_count_allowed_plants: [], count_deadline_allowed_plants: [], show_zero_stock_material_plants: [] } as never);
  const query = new URLSearchParams(address.split('?')[1]).get('q') ?? '';
  if (answer) client.setQueryData(userQueries.list('all', query, 1), answer);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[address]}>
        <UsersManagementPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
const statusText = (html: string) => /<p class="visually-hidden" role="status">([^<]*)<\/p>/.exec(html)?.[1];

describe('users management', () => {
  it('puts only the selected tab in the Tab order', () => {
    const html = render('/users-management', undefined);
    const tabs = [...html.matchAll(/<button[^>]*role="tab"[^>]*>/g)].map((match) => match[0]);
    expect(tabs.length).toBeGreaterThan(1);
    for (const tab of tabs) expect(tab).toContain(tab.includes('aria-selected="true"') ? 'tabindex="0"' : 'tabindex="-1"');
  });

  it('has the search’s status in the page, empty until the answer, then with its count', () => {
    expect(statusText(render('/users-management?q=jane', undefined))).toBe('');
    const found = render('/users-management?q=jane', { page: 1, pages: 1, has_next: false, has_prev: false, total: 1, items: [ROW] });
    expect(statusText(found)).toBe(i18next.t('common.resultCount', { count: 1 }));
    const none = render('/users-management?q=nobody', { page: 1, pages: 0, has_next: false, has_prev: false, total: 0, items: [] });
    expect(statusText(none)).toBe('There are no users');
  });
});
