import { describe, expect, it } from 'vitest';
import { transferKeys } from './stock-transfer';

const request = { plant: 'FI01', storageLocationFrom: '0001', storageLocationTo: 'V001', materialCode: 'KM1', quantity: 2 };

describe('a stock transfer request’s Idempotency-Key', () => {
  it('stays the same while the same request is sent again (an answer lost), and changes with the request', () => {
    const keyOf = transferKeys();
    const first = keyOf(request);
    expect(keyOf({ ...request })).toBe(first);
    const more = keyOf({ ...request, quantity: 3 });
    expect(more).not.toBe(first);
    expect(keyOf({ ...request, quantity: 3 })).toBe(more);
    expect(keyOf(request)).toBe(first); // back to the first request: its own key again
    expect(transferKeys()(request)).not.toBe(first); // another dialog: another request
  });
});
