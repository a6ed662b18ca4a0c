/** The server sends at most 500 pending requests, oldest first; its X-Has-More header says more wait. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { pendingPage, type PendingPage } from '../api/get-pending-approvals';
import { userQueries } from '../api/get-users';
import { PendingApprovalsList } from './pending-approvals-list';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const BODY = [{ requesting_user_email: 'new@example.com', request_id: 'r1', created: '2026-12-01T08:00:00Z' }];

function render(page: PendingPage) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, enabled: false } } });
  client.setQueryData(userQueries.pending(), page);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <PendingApprovalsList />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('pending approvals', () => {
  it('reads whether more wait from the X-Has-More header', () => {
    expect(pendingPage(BODY, new Headers({ 'X-Has-More': 'true' }))).toEqual({ requests: BODY, hasMore: true });
    expect(pendingPage(BODY, new Headers({ 'X-Has-More': 'false' })).hasMore).toBe(false);
    // A service that does not send it: nothing more is said.
    expect(pendingPage(BODY, new Headers()).hasMore).toBe(false);
  });

  it('says that more are waiting beyond the oldest shown', () => {
    const more = i18next.t('users.pendingMore', { count: 1 });
    expect(render({ requests: BODY, hasMore: true })).toContain(more);
    expect(render({ requests: BODY, hasMore: false })).not.toContain(more);
  });
});
