/**
 * A dialog that shows its own load error (LoadError, role="alert") reads with silent queries: a
 * failure raised the global alert too, which now shows inside the open dialog, so the same
 * failure was shown, and read out, twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClientProvider, type QueryCacheConfig, type QueryClient } from '@tanstack/react-query';
import { HTTPError, type NormalizedOptions } from 'ky';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../contract/user-api';
import type { StockItemRow } from '../../../contract/stock';
import { currentError, dismissError } from '../../../lib/error-alert';
import { sessionQueries } from '../../../lib/profile';
import { createQueryClient } from '../../../lib/query-client';
import { TransferDialog } from './transfer-dialog';
import { TransferRequestsDialog } from './transfer-requests-dialog';

// The browser's online state has no server snapshot; the dialogs are rendered to markup here.
vi.mock('../../../lib/use-online', () => ({ useOnline: () => true }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});
afterEach(dismissError);

const PROFILE = { uid: 'u1', email: 'manager@example.com', displayName: 'Manager', permissions: [], plants: ['1000'] } as unknown as Profile;
const ITEM = { plant: '1000', storage_location: '0001', material_code: 'KM100', total_quantity: 5, unit: 'M' } as unknown as StockItemRow;

const refusal = () =>
  new HTTPError(new Response('{"message":"Not allowed here."}', { status: 403 }), new Request('http://api.test/x'), {} as NormalizedOptions);

/** The queries `dialog` reads with (the profile aside), after rendering it once. */
function queriesOf(dialog: ReactNode): { client: QueryClient; queries: ReturnType<ReturnType<QueryClient['getQueryCache']>['findAll']> } {
  const client = createQueryClient();
  const profileKey = sessionQueries.profile().queryKey;
  client.setQueryData(profileKey, PROFILE);
  renderToStaticMarkup(<QueryClientProvider client={client}>{dialog}</QueryClientProvider>);
  const queries = client.getQueryCache().findAll().filter((query) => query.queryHash !== JSON.stringify(profileKey));
  return { client, queries };
}

describe('dialogs that show their own load error', () => {
  it.each([
    ['the transfer requests', <TransferRequestsDialog onClose={() => undefined} />],
    ['a stock transfer', <TransferDialog item={ITEM} onClose={() => undefined} onDone={() => undefined} />],
  ])('%s: a failed read is not also the global alert', async (_name, dialog) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { client, queries } = queriesOf(dialog);
      expect(queries.length).toBeGreaterThan(0);
      for (const query of queries) {
        expect(query.meta?.silent, JSON.stringify(query.queryKey)).toBe(true);
        // What the query cache does with a failed read (lib/query-client.ts).
        client.getQueryCache().config.onError?.(refusal(), query as Parameters<NonNullable<QueryCacheConfig['onError']>>[1]);
      }
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(queries.length));
      expect(currentError()).toBeNull();
      client.clear();
    } finally {
      warn.mockRestore();
    }
  });
});
