/** The "saved" / "cleared" status region is in the page before any change: a status added with its text is often not read. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../contract/user-api';
import { sessionQueries } from '../../../lib/profile';
import BroadcastMessagesPage from './broadcast-messages-page';

// The connection state is the browser's (no server snapshot to render with here).
vi.mock('../../../lib/use-online', () => ({ useOnline: () => true }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

describe('the broadcast messages screen', () => {
  it('has an empty status region before anything is saved or cleared', () => {
    const client = new QueryClient();
    client.setQueryData(sessionQueries.profile().queryKey, { importantMessages: ['Lift 4 closed'], permissions: [] } as Partial<Profile> as Profile);
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <BroadcastMessagesPage />
      </QueryClientProvider>,
    );
    expect(html).toContain('Lift 4 closed');
    expect(html).toMatch(/<p class="visually-hidden" role="status"><\/p>/);
  });

  it('labels each message box by an id of its own row, not by its place', () => {
    const client = new QueryClient();
    client.setQueryData(sessionQueries.profile().queryKey, { importantMessages: ['Lift 4 closed', 'Depot closed Friday'], permissions: [] } as Partial<Profile> as Profile);
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <BroadcastMessagesPage />
      </QueryClientProvider>,
    );
    const ids = [...html.matchAll(/<textarea id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(html).toContain(`for="${id}"`);
    expect(ids).not.toContain('broadcast-0');
    // No list shown beside the text before a save was refused.
    expect(html).not.toContain('broadcast-current');
  });
});
