/**
 * For the tests of dialogs that show their own load error (LoadError, role="alert"): every query
 * such a dialog reads with is silent, so a failed read does not raise the global alert too (which
 * shows inside the open dialog: the same failure shown, and read out, twice). Renders the dialog
 * once to markup (no DOM in the unit tests) with a signed-in profile.
 */
import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClientProvider, type QueryCacheConfig } from '@tanstack/react-query';
import { HTTPError, type NormalizedOptions } from 'ky';
import type { ReactNode } from 'react';
import { expect, vi } from 'vitest';
import type { Profile } from '../../src/contract/user-api';
import { currentError } from '../../src/lib/error-alert';
import { sessionQueries } from '../../src/lib/profile';
import { createQueryClient } from '../../src/lib/query-client';

export async function initEnglish(): Promise<void> {
  const english = JSON.parse(readFileSync(new URL('../../locales/en-US.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
}

const PROFILE = { uid: 'u1', email: 'manager@example.com', displayName: 'Manager', permissions: [], plants: ['1000'] } as unknown as Profile;

const refusal = () =>
  new HTTPError(new Response('{"message":"Not allowed here."}', { status: 403 }), new Request('http://api.test/x'), {} as NormalizedOptions);

/** Renders `dialog`, then fails each query it read with (the profile aside) as the query cache would: no global alert. */
export async function expectSilentQueries(dialog: ReactNode): Promise<void> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const client = createQueryClient();
  try {
    const profileKey = sessionQueries.profile().queryKey;
    client.setQueryData(profileKey, PROFILE);
    renderToStaticMarkup(<QueryClientProvider client={client}>{dialog}</QueryClientProvider>);
    const queries = client.getQueryCache().findAll().filter((query) => query.queryHash !== JSON.stringify(profileKey));
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.meta?.silent, JSON.stringify(query.queryKey)).toBe(true);
      // What the query cache does with a failed read (lib/query-client.ts).
      client.getQueryCache().config.onError?.(refusal(), query as Parameters<NonNullable<QueryCacheConfig['onError']>>[1]);
    }
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(queries.length));
    expect(currentError()).toBeNull();
  } finally {
    client.clear();
    warn.mockRestore();
  }
}
