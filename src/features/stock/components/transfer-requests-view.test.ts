/** How many transfer requests wait for the caller's decision (the toolbar's count), from the dialog's list. */
import { describe, expect, it } from 'vitest';
import { TRANSFER_LIST_MAX, type TransferRequestRow } from '../../../contract/stock';
import { mayDecideTransfer, waitingForCaller } from './transfer-requests-view';

const row = (index: number, changes: Partial<TransferRequestRow> = {}): TransferRequestRow => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  plant: '1000',
  storage_location_from: '0001',
  storage_location_to: 'V001',
  material_code: 'KM100',
  quantity: 1,
  status: 'requested',
  created: '2026-12-01T08:00:00Z',
  ...changes,
});

describe('the requests waiting for the caller', () => {
  const rows = { items: [row(1), row(2), row(4, { plant: '2000' }), row(3, { status: 'done' })] };

  it('counts the waiting ones of plants the caller decides in', () => {
    expect(waitingForCaller(rows, ['stock_admin'], ['1000'], 'en-US')).toEqual({ count: 2, value: '2', atLeast: false });
    expect(waitingForCaller(rows, ['super_manager'], [], 'en-US')).toEqual({ count: 3, value: '3', atLeast: false });
  });

  it('is nothing for who decides none, with none waiting, or before the list', () => {
    expect(waitingForCaller(rows, ['mechanic'], ['1000'], 'en-US')).toBeNull();
    expect(waitingForCaller({ items: [row(1, { status: 'declined' })] }, ['stock_admin'], ['1000'], 'en-US')).toBeNull();
    expect(waitingForCaller(undefined, ['stock_admin'], ['1000'], 'en-US')).toBeNull();
  });

  it('is a lower bound only when the list is cut short with nothing but waiting requests (they come first)', () => {
    const waitingOnly = Array.from({ length: TRANSFER_LIST_MAX }, (_, index) => row(index));
    expect(waitingForCaller({ items: waitingOnly, has_more: true }, ['stock_admin'], ['1000'], 'fr-FR')).toEqual({ count: 100, value: '100', atLeast: true });
    expect(waitingForCaller({ items: waitingOnly }, ['stock_admin'], ['1000'], 'en-US')).toEqual({ count: 100, value: '100', atLeast: false });
    // A decided request in the list: every waiting one came before it.
    const mixed = Array.from({ length: TRANSFER_LIST_MAX }, (_, index) => row(index, { status: index < 5 ? 'requested' : 'done' }));
    expect(waitingForCaller({ items: mixed, has_more: true }, ['stock_admin'], ['1000'], 'en-US')).toEqual({ count: 5, value: '5', atLeast: false });
  });

  it('decides as the server: a waiting request, in a plant the caller writes in', () => {
    expect(mayDecideTransfer(row(1), ['stock_admin'], ['1000'])).toBe(true);
    expect(mayDecideTransfer(row(1, { status: 'done' }), ['stock_admin'], ['1000'])).toBe(false);
    expect(mayDecideTransfer(row(1, { plant: '2000' }), ['stock_admin'], ['1000'])).toBe(false);
    expect(mayDecideTransfer(row(1), ['super_manager_read_only', 'mechanic'], ['1000'])).toBe(false);
  });
});
