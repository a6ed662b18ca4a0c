/**
 * The quantity typed into a transfer request, read as the app reads every typed quantity
 * (parseQuantityInput: digits, one comma or point as the decimal separator), never by Number():
 * "1e3", "0x10" or " " are not quantities. Refused with a reason the dialog words:
 * - `invalid`: nothing, not a number, or 0;
 * - `decimals`: more than three decimals (§5: quantities have at most three);
 * - `grouped`: a number written with the language's thousands separator ("1,000" in English,
 *   "1.000" in German), which the app's parser would read as 1: which one was meant is not known;
 * - `tooLarge`: more than the contract takes.
 */
import { isGroupedQuantityInput, isValidCountedQuantity, MAX_COUNTED_QUANTITY, parseQuantityInput } from '../../../domain/quantity';

/** The most one request moves: as contract/stock.ts transferRequestBody, a counted quantity's limit, included. */
export const MAX_TRANSFER_QUANTITY = MAX_COUNTED_QUANTITY;

export type TransferQuantityProblem = 'invalid' | 'decimals' | 'grouped' | 'tooLarge';
export type TransferQuantity = { ok: true; value: number } | { ok: false; problem: TransferQuantityProblem };

export function parseTransferQuantity(text: string, language: string): TransferQuantity {
  const trimmed = text.trim();
  if (isGroupedQuantityInput(trimmed, language)) return { ok: false, problem: 'grouped' };
  const value = parseQuantityInput(trimmed);
  if (value === null || !Number.isFinite(value) || value <= 0) return { ok: false, problem: 'invalid' };
  if (value > MAX_TRANSFER_QUANTITY) return { ok: false, problem: 'tooLarge' };
  // The counted-quantity rule's thousandths (as the contract): its bounds are the checks above.
  if (value < MAX_TRANSFER_QUANTITY && !isValidCountedQuantity(value)) return { ok: false, problem: 'decimals' };
  return { ok: true, value };
}
