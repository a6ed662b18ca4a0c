/**
 * A user's own ship-to-party numbers (added by upload, removed on the priority manager) are in
 * their history as the other changes are: a label of their own, not the raw action, and the number.
 */
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, UserRow } from '../../../contract/users';
import { initEnglish } from '../../../../tests/setup/silent-dialog-queries';
import { userQueries } from '../api/get-users';
import { HistoryDialog } from './history-dialog';

beforeAll(initEnglish);

const USER = { uid: 'u2', email: 'writer@example.com', displayName: 'Antoine Girard' } as unknown as UserRow;

const entry = (id: number, action: string, before: unknown, after: unknown): AuditEntry => ({
  id,
  actor_email: 'writer@example.com',
  action,
  target_type: 'user',
  target_id: 'u2',
  before,
  after,
  created: '2026-12-01T08:00:00Z',
});

function render(items: AuditEntry[]): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(userQueries.history(USER.uid, 1), { items, page: 1, pages: 1, has_prev: false, has_next: false, total: items.length });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <HistoryDialog user={USER} onClose={() => undefined} />
    </QueryClientProvider>,
  );
}

describe('a user’s history', () => {
  it('names a ship-to-party number added by upload and one removed, each with its number', () => {
    const html = render([
      entry(2, 'shipToParty.remove', { managedShipToPartyNumber: '0050010004' }, null),
      entry(1, 'shipToParty.add', null, { managedShipToPartyNumber: '0050010004' }),
    ]);
    expect(html).toContain(i18next.t('users.history.actions.addShipToParty'));
    expect(html).toContain(i18next.t('users.history.actions.removeShipToParty'));
    // Not the "other" text, which shows the action as it is stored.
    expect(html).not.toContain('>shipToParty.add<');
    expect(html).not.toContain('>shipToParty.remove<');
    const kind = i18next.t('users.kinds.managed_ship_to_party');
    expect(html).toContain(`<li>+ ${kind}: 0050010004</li>`);
    expect(html).toContain(`<li>− ${kind}: 0050010004</li>`);
  });
});
