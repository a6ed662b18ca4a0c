/**
 * A dialog that shows its own load error (LoadError, role="alert") reads with silent queries: a
 * failure raised the global alert too, which now shows inside the open dialog, so the same
 * failure was shown, and read out, twice.
 */
import { afterEach, beforeAll, describe, it } from 'vitest';
import type { UserRow } from '../../../contract/users';
import { dismissError } from '../../../lib/error-alert';
import { expectSilentQueries, initEnglish } from '../../../../tests/setup/silent-dialog-queries';
import { HistoryDialog } from './history-dialog';
import { PermissionsDialog } from './permissions-dialog';

beforeAll(initEnglish);
afterEach(dismissError);

const USER = { uid: 'u2', displayName: 'Mikko Virtanen' } as unknown as UserRow;

describe('dialogs that show their own load error', () => {
  it.each([
    ['a user’s history', <HistoryDialog user={USER} onClose={() => undefined} />],
    ['a user’s permissions', <PermissionsDialog user={USER} onClose={() => undefined} onSaved={() => undefined} />],
  ])('%s: a failed read is not also the global alert', async (_name, dialog) => {
    await expectSilentQueries(dialog);
  });
});
