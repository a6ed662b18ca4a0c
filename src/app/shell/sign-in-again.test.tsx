/**
 * A refused re-read of the profile (401) keeps the shell: the "Sign in again" notice says so even
 * when nothing waits in the outbox, rather than the guard signing the user out mid-work.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SignInAgain } from './sign-in-again';

// The connection is the browser's (a store without a server snapshot); here it is online.
vi.mock('../../lib/use-online', () => ({ useOnline: () => true }));
// The sync is not blocked (the outbox's own reason for the notice).
vi.mock('../../offline/sync-blocked', () => ({ useSyncBlocked: () => false }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const render = (refused: boolean) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <SignInAgain userEmail="mechanic@example.com" refused={refused} />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('SignInAgain', () => {
  it('asks to sign in again after a refused profile re-read, with nothing waiting', () => {
    const html = render(true);
    expect(html).toContain('class="notice danger sign-in-again"');
    expect(html).toContain('Sign in again');
  });

  it('says nothing while the sign-in holds and the sync is not blocked', () => {
    expect(render(false)).toBe('');
  });
});
