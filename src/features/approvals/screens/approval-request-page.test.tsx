/**
 * The request screen's decision feedback: the status region is in the page before the decision
 * (a status added with its text is often not read), and the focus has a place to go when the
 * pressed button disappears with the decision.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest as Request } from '../../../contract/users';
import { approvalQueries } from '../api/approval-requests';
import { ApprovalRequest, focusAfterDecision } from './approval-request-page';

let online = true;
vi.mock('../../../lib/use-online', () => ({ useOnline: () => online }));
afterEach(() => {
  online = true;
});

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const REQUEST: Request = {
  request_id: 'r1',
  requesting_user_email: 'new.mechanic@example.com',
  requesting_user_name: 'New Mechanic',
  manager_email: 'manager@example.com',
  approval_status: 'Pending',
  created: '2026-12-01T08:00:00Z',
  decided_by_email: null,
  decided_at: null,
};

function render(request: Request) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(approvalQueries.request(request.request_id), request);
  client.setQueryData(approvalQueries.pending(), { requests: [], hasMore: false });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ApprovalRequest requestID={request.request_id} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the approval request screen', () => {
  it('has its status region in the page, empty, before any decision', () => {
    const html = render(REQUEST);
    expect(html).toMatch(/<p class="visually-hidden" role="status"><\/p>/);
    expect(html).toContain('Approve');
  });

  it('can move the focus to the request’s name, the one thing left once Approve is gone', () => {
    expect(render(REQUEST)).toMatch(/<h2 id="request-title" class="section-title" tabindex="-1">/);
    expect(focusAfterDecision('approve', 'Approved')).toBe('heading');
    expect(focusAfterDecision('reject', 'Rejected')).toBe('heading');
    // Refused, with the request still waiting: back on the button pressed.
    expect(focusAfterDecision('approve', 'Pending')).toBe('approve');
    expect(focusAfterDecision('reject', 'Pending')).toBe('reject');
  });

  it('offline, turns Approve and Reject off and says a decision needs a connection', () => {
    expect(render(REQUEST)).not.toContain('id="approval-offline"');
    online = false;
    const html = render(REQUEST);
    expect(html).toContain(i18next.t('approvals.decideOffline'));
    const buttons = [...html.matchAll(/<button[^>]*>(Approve|Reject)<\/button>/g)].map((match) => match[0]);
    expect(buttons).toHaveLength(2);
    for (const button of buttons) expect(button).toMatch(/disabled=""[^>]*aria-describedby="approval-offline"/);
  });
});
