/**
 * §6: supervisors (and stock admins, super managers) change other people's notification settings.
 * Supervisors have no users screen: their profile is where the way to their team's settings is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../contract/user-api';
import { sessionQueries } from '../../../lib/profile';
import UserProfilePage from './user-profile-page';

// The device's theme is read from the browser (no server snapshot).
vi.mock('../../../lib/theme', () => ({ useTheme: () => 'system', setTheme: () => undefined }));
// The app's language loader needs the bundler's virtual modules; the test sets English up itself.
vi.mock('../../../lib/i18n', () => ({ changeLanguage: async () => undefined }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

function render(permissions: string[]) {
  const profile = {
    uid: 'me',
    email: 'me@example.com',
    displayName: 'Me',
    permissions,
    plants: ['1000'],
    locale: 'en-US',
    isLocaleLocked: false,
    lastLogin: null,
  } as Partial<Profile> as Profile;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, enabled: false } } });
  client.setQueryData(sessionQueries.profile().queryKey, profile);
  // No notification plants: the own form (its own calls) stays out of this render.
  client.setQueryData(sessionQueries.allowedPlants().queryKey, { notifications_allowed_plants: [], stock_count_allowed_plants: [], count_deadline_allowed_plants: [], show_zero_stock_material_plants: [] } as never);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/user-profile']}>
        <UserProfilePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const teamLink = /<a class="button" href="\/notification-settings"[^>]*>Your team(&#x27;|')s notification settings<\/a>/;

describe('the user profile', () => {
  it('leads a supervisor to the team’s notification settings', () => {
    expect(render(['supervisor'])).toMatch(teamLink);
    expect(render(['stock_admin'])).toMatch(teamLink);
  });

  it('offers no team to those who change only their own settings', () => {
    expect(render(['mechanic'])).not.toContain('href="/notification-settings"');
  });
});
