/**
 * The permission editor offers only what the save allows: a stock admin's roles (mechanic,
 * supervisor) only for a user all of whose plants are the editor's, and no ship-to-party numbers
 * of a priority writer to one who gives PM read only (the server refused both, in English). And a
 * change not saved yet is a change (Escape or Back asks before dropping it).
 */
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Attachment, EditScope, UserRow } from '../../../contract/users';
import { initEnglish } from '../../../../tests/setup/silent-dialog-queries';
import { userQueries } from '../api/get-users';
import { PermissionsDialog, permissionsChanged } from './permissions-dialog';

beforeAll(initEnglish);

const USER = { uid: 'u2', email: 'mikko@example.com', displayName: 'Mikko Virtanen' } as unknown as UserRow;
const plant = (code: string): Attachment => ({ kind: 'plant', plant: code, code });
const number: Attachment = { kind: 'ship_to_party', plant: '', code: '0050010001' };

const STOCK_ADMIN: EditScope = {
  grants: ['mechanic', 'supervisor'],
  attachments: ['storage_location'],
  plantScopedGrants: ['mechanic', 'supervisor'],
  plantScopedAttachments: ['storage_location'],
  plants: ['DE02', 'FI01'],
};
const PM_READ_GRANTER: EditScope = {
  grants: ['PM_read'],
  attachments: ['plant', 'planner_group', 'ship_to_party', 'work_center'],
  plantScopedGrants: [],
  plantScopedAttachments: [],
  plants: [],
};

function render(scope: EditScope, grants: string[], attachments: Attachment[]): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(userQueries.permissions(USER.uid), { user: USER, grants, attachments, editable: scope, version: '"v1"' });
  client.setQueryData(userQueries.grantOptions(), {
    editable: scope,
    plants: [plant('FI01'), plant('DE02')].map((p) => ({ code: p.code, name: p.code })),
    shipToParties: [{ code: '0050010001', name: 'Depot' }],
  });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <PermissionsDialog user={USER} onClose={() => undefined} onSaved={() => undefined} />
    </QueryClientProvider>,
  );
}

/** The checkbox of a grant, by its label. */
const checkbox = (html: string, grant: string) => {
  const label = i18next.t(`users.grants.${grant}`);
  const found = new RegExp(`<input type="checkbox"[^>]*/><span>${label}</span>`).exec(html);
  expect(found, grant).not.toBeNull();
  return found![0];
};

describe('the permission editor', () => {
  it('locks a stock admin’s roles for a user with a plant that is not the editor’s, and says why', () => {
    const roles = `${i18next.t('users.grants.mechanic')}, ${i18next.t('users.grants.supervisor')}`;
    const note = i18next.t('users.permissions.plantScopedLocked', { roles });

    const outside = render(STOCK_ADMIN, ['custom_service_admin'], [plant('FI01'), plant('FR03')]);
    expect(checkbox(outside, 'mechanic')).toContain('disabled=""');
    expect(checkbox(outside, 'supervisor')).toContain('disabled=""');
    expect(outside).toContain(note);

    const inside = render(STOCK_ADMIN, ['custom_service_admin'], [plant('FI01'), plant('DE02')]);
    expect(checkbox(inside, 'mechanic')).not.toContain('disabled');
    expect(checkbox(inside, 'supervisor')).not.toContain('disabled');
    expect(inside).not.toContain(note);
    // What the editor may not give at all stays locked either way.
    expect(checkbox(inside, 'PM_read')).toContain('disabled=""');
  });

  it('offers no ship-to-party numbers of a priority writer to one who gives PM read only', () => {
    const removeLabel = i18next.t('users.permissions.removeAttachment', { what: `${i18next.t('users.kinds.ship_to_party')} 0050010001` });
    const writer = render(PM_READ_GRANTER, ['PM_write'], [number]);
    expect(writer).not.toContain('id="add-ship_to_party-code"');
    expect(writer).not.toContain(`aria-label="${removeLabel}"`);
    expect(writer).toContain('0050010001');

    const reader = render(PM_READ_GRANTER, ['PM_read'], [number]);
    expect(reader).toContain('id="add-ship_to_party-code"');
    expect(reader).toContain(`aria-label="${removeLabel}"`);
  });

  it('counts a change only when the grants or attachments differ from those it opened with', () => {
    const opened = { grants: ['mechanic', 'PM_read'], attachments: [plant('FI01'), number] };
    expect(permissionsChanged(opened, { grants: ['PM_read', 'mechanic'], attachments: [number, plant('FI01')] })).toBe(false);
    expect(permissionsChanged(opened, { grants: ['mechanic'], attachments: opened.attachments })).toBe(true);
    expect(permissionsChanged(opened, { grants: ['mechanic', 'PM_read', 'supervisor'], attachments: opened.attachments })).toBe(true);
    expect(permissionsChanged(opened, { grants: opened.grants, attachments: [plant('FI01')] })).toBe(true);
    // Ticked and unticked again: nothing to lose.
    expect(permissionsChanged(opened, { grants: [...opened.grants], attachments: [...opened.attachments] })).toBe(false);
  });
});
