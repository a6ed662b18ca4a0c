/**
 * §2 guard: the profile is read again after 5 minutes; a re-read that fails (a 503 while the
 * server's database is away, decision 0064) keeps the shell and whatever is typed in it. Only a
 * start without any profile gets the error page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { HTTPError, type NormalizedOptions } from 'ky';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../contract/user-api';
import { sessionQueries } from '../lib/profile';
import { RequireProfile } from './guard';

// The app's i18n module loads its texts through Vite's virtual modules; the test's i18next is set up below.
vi.mock('../lib/i18n', () => ({ changeLanguage: async () => undefined }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const PROFILE: Profile = {
  uid: 'u1',
  email: 'mechanic@example.com',
  displayName: 'Mechanic',
  licensed: true,
  organisation: null,
  approvalRequestId: null,
  permissions: [],
  locale: 'en-US',
  isLocaleLocked: false,
  managedShipToPartyNumbers: [],
  phoneNumber: null,
  expirationDate: null,
  shipToPartyNumbers: [],
  firstLogin: false,
  importantMessages: [],
  plants: [],
  plannerGroups: [],
  storageLocations: [],
  workCenters: [],
  lastLogin: null,
};

const unavailable = () => {
  const request = new Request('http://api.test/user/profile');
  return new HTTPError(new Response('{"message":"Service unavailable"}', { status: 503 }), request, {} as NormalizedOptions);
};

/** A client whose profile read failed with a 503, after `profile` was read (or never, when absent). */
async function clientAfterFailedRead(profile: Profile | undefined): Promise<QueryClient> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(sessionQueries.permissions().queryKey, { permissions: [] } as never);
  client.setQueryData(sessionQueries.allowedPlants().queryKey, {} as never);
  const { queryKey } = sessionQueries.profile();
  if (profile) client.setQueryData(queryKey, profile);
  // The re-read: the server answers 503 and there is no saved copy to stand in.
  await client.prefetchQuery({ queryKey, queryFn: () => Promise.reject(unavailable()), staleTime: 0 });
  return client;
}

const render = (client: QueryClient) =>
  renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/tracking']}>
        <RequireProfile>
          <p>half-typed quantity</p>
        </RequireProfile>
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('RequireProfile after a failed profile read', () => {
  it('keeps the shell when the profile was read before (a failed re-read)', async () => {
    const client = await clientAfterFailedRead(PROFILE);
    const query = client.getQueryState(sessionQueries.profile().queryKey);
    expect(query).toMatchObject({ status: 'error', data: PROFILE });
    expect(render(client)).toContain('half-typed quantity');
  });

  it('does not show the app without a profile', async () => {
    const client = await clientAfterFailedRead(undefined);
    const html = render(client);
    expect(html).not.toContain('half-typed quantity');
  });
});
