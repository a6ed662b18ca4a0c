import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { TrackingStatusPage, TrackingStatusParams } from '../../../contract/parts';
import { cursorOfPageBefore, trackingQueries } from './get-tracking-status';

const USER = 'mechanic@example.com';
const params = (page: number): TrackingStatusParams => ({ query: 'door', status: 'all', myOrders: false, maxResults: 20, page });
const pageWith = (next_cursor: string | null) => ({ data: { next_cursor } as TrackingStatusPage, savedAt: 1, source: 'network' as const });

describe('cursorOfPageBefore (#16: Load more reads after the page before, by keyset)', () => {
  it('gives the next_cursor of the page before when it is at hand', () => {
    const client = new QueryClient();
    client.setQueryData([...trackingQueries.list(params(2)), USER], pageWith('c2'));
    expect(cursorOfPageBefore(client, USER, params(3))).toBe('c2');
  });

  it('gives none for the first page, a page whose page before is not at hand, or after the last page', () => {
    const client = new QueryClient();
    client.setQueryData([...trackingQueries.list(params(1)), USER], pageWith(null));
    expect(cursorOfPageBefore(client, USER, params(1))).toBeUndefined();
    expect(cursorOfPageBefore(client, USER, params(5))).toBeUndefined();
    expect(cursorOfPageBefore(client, USER, params(2))).toBeUndefined();
  });

  it('never takes the cursor of another search, tab or user', () => {
    const client = new QueryClient();
    client.setQueryData([...trackingQueries.list({ ...params(1), query: 'lift' }), USER], pageWith('other-search'));
    client.setQueryData([...trackingQueries.list({ ...params(1), status: 'arrived' }), USER], pageWith('other-tab'));
    client.setQueryData([...trackingQueries.list(params(1)), 'someone@example.com'], pageWith('other-user'));
    expect(cursorOfPageBefore(client, USER, params(2))).toBeUndefined();
  });
});
