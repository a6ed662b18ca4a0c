/**
 * The pending requests are one cache with the approval page's "Other pending" (its
 * approvalQueries.pending holds this same key: features do not import each other), and a user
 * removed leaves them: a removal refreshes them.
 */
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userApi } from '../../../lib/api-client';
import { useRemoveUser } from './change-user';
import { userQueries } from './get-users';

describe('the pending requests of the users tab', () => {
  it('are kept under the key the approval page reads', () => {
    expect(userQueries.pending()).toEqual(['users-admin', 'pending']);
  });

  it('are read again after a user is removed', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
    let remove: ReturnType<typeof useRemoveUser> | undefined;
    function Probe() {
      remove = useRemoveUser('u2');
      return null;
    }
    renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(Probe)));
    client.setQueryData(userQueries.pending(), { requests: [{ requesting_user_email: 'new@example.com', request_id: 'r1', created: '2026-12-01T08:00:00Z' }], hasMore: false });
    const removal = vi.spyOn(userApi, 'delete').mockReturnValue({ json: async () => ({ uid: 'u2', email: 'new@example.com', removed: true }) } as never);
    try {
      await remove!.mutateAsync();
    } finally {
      removal.mockRestore();
    }
    expect(client.getQueryState(userQueries.pending())?.isInvalidated).toBe(true);
  });
});

describe('user administration offline', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('fails a removal at once instead of holding it until a connection comes (it went out after Cancel)', async () => {
    onlineManager.setOnline(false);
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
    let remove: ReturnType<typeof useRemoveUser> | undefined;
    function Probe() {
      remove = useRemoveUser('u3');
      return null;
    }
    renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(Probe)));
    const removal = vi.spyOn(userApi, 'delete').mockImplementation(() => {
      throw new TypeError('Failed to fetch');
    });
    try {
      const failed = remove!.mutateAsync().catch((error: unknown) => error);
      // Paused (TanStack's networkMode 'online'), the promise would not settle until the device is online.
      const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200));
      expect(await Promise.race([failed, waiting])).toBeInstanceOf(TypeError);
      expect(client.getMutationCache().getAll().some((mutation) => mutation.state.isPaused)).toBe(false);
      // The device knows it is offline: refused before the call (ky would retry a failed connection for seconds).
      removal.mockClear();
      vi.stubGlobal('navigator', { onLine: false });
      expect(await remove!.mutateAsync().catch((error: unknown) => error)).toBeInstanceOf(TypeError);
      expect(removal).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
      removal.mockRestore();
    }
  });
});
