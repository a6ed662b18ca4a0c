/** Who decides which transfer request (decision 0061), and how many wait for the caller. */
import type { TransferRequestRow } from '../../../contract/stock';
import type { TransferRequests } from '../api/stock-transfer';
import { can, writesInPlant } from '../../../domain/permissions';
import { formatQuantity } from '../../../domain/quantity';

/** Whether these grants decide requests at all (the toolbar's count is theirs). */
export const decidesTransfers = (permissions: readonly string[]) => can(permissions, 'storageLocations.update');

/** As the server: a waiting request, decided by the writing super manager anywhere, by others in their own plants. */
export function mayDecideTransfer(row: TransferRequestRow, permissions: readonly string[], plants: readonly string[]): boolean {
  return row.status === 'requested' && decidesTransfers(permissions) && writesInPlant(permissions, plants, row.plant);
}

/**
 * The requests waiting for the caller's decision, for the toolbar: null when none (or no list).
 * The server lists waiting requests first: only a list cut short (`has_more`) of nothing but
 * waiting ones may leave some out, and the count is then a lower bound (`atLeast`, written "12+"
 * with lists.atLeast).
 */
export function waitingForCaller(
  list: TransferRequests | undefined,
  permissions: readonly string[],
  plants: readonly string[],
  language: string,
): { count: number; value: string; atLeast: boolean } | null {
  if (!list) return null;
  const count = list.items.filter((row) => mayDecideTransfer(row, permissions, plants)).length;
  if (count === 0) return null;
  const atLeast = list.has_more === true && list.items.every((row) => row.status === 'requested');
  return { count, value: formatQuantity(count, language), atLeast };
}
