/**
 * A dialog that shows its own load error (LoadError, role="alert") reads with silent queries: a
 * failure raised the global alert too, which now shows inside the open dialog, so the same
 * failure was shown, and read out, twice.
 */
import { afterEach, beforeAll, describe, it, vi } from 'vitest';
import type { StockItemRow } from '../../../contract/stock';
import { dismissError } from '../../../lib/error-alert';
import { expectSilentQueries, initEnglish } from '../../../../tests/setup/silent-dialog-queries';
import { TransferDialog } from './transfer-dialog';
import { TransferRequestsDialog } from './transfer-requests-dialog';

// The browser's online state has no server snapshot; the dialogs are rendered to markup here.
vi.mock('../../../lib/use-online', () => ({ useOnline: () => true }));

beforeAll(initEnglish);
afterEach(dismissError);

const ITEM = { plant: '1000', storage_location: '0001', material_code: 'KM100', total_quantity: 5, unit: 'M' } as unknown as StockItemRow;

describe('dialogs that show their own load error', () => {
  it.each([
    ['the transfer requests', <TransferRequestsDialog onClose={() => undefined} />],
    ['a stock transfer', <TransferDialog item={ITEM} onClose={() => undefined} onDone={() => undefined} />],
  ])('%s: a failed read is not also the global alert', async (_name, dialog) => {
    await expectSilentQueries(dialog);
  });
});
